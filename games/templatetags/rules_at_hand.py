"""Links from the game page into the rules reference (the rules live in games.read.rulebook)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from games.read import rulebook

register = template.Library()


@register.simple_tag
def step_rule(slug: str, prompt: Mapping[str, Any] | None, code: str | None = None) -> str:
    """The "How does this work?" link of the prompt's current step (a war, an auction...), or ``""``.

    Reads only the game, the prompt and the table code, which the status region's digest
    already covers (games/live.py ``REGIONS``), so a cached region never shows a stale link.
    """
    return rulebook.step_url(slug, prompt, code) or ""
