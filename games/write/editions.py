"""Edition profiles (shared/DESIGN.md "Edition data"): printed tables and boards as validated JSON.

A profile is the value of one engine option (``board`` for Yellow & Yangtze,
``edition`` for Amun-Re, ...). The engine validates it: :func:`validate`
builds the game with the profile as that option, so the checks live in one
place, the engine. Profiles export to and import from a small JSON file so
one group's calibration serves others.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engines import REGISTRY, get_game_class
from games.engines.base import IllegalAction, SeatInfo, gettext_noop
from games.models import EditionProfile

FORMAT = "companion-edition-profile/1"


def profile_options(slug: str) -> list[str]:
    """The option names of game ``slug`` that take a profile (a JSON object)."""
    cls = get_game_class(slug)
    return [spec.name for spec in cls.option_specs if isinstance(spec.default, dict) or
            (spec.default is None and not spec.choices)]


def validate(slug: str, option: str, data: Any) -> dict[str, Any]:
    """Check ``data`` as option ``option`` of game ``slug`` with the engine's own checks.

    Returns the data; raises ``IllegalAction`` (``bad_profile`` for a wrong
    game, option or shape, or the engine's own code such as ``bad_board``).
    """
    if slug not in REGISTRY:
        raise IllegalAction("bad_profile", gettext_noop("Unknown game {slug}."), slug=slug)
    if option not in profile_options(slug):
        raise IllegalAction("bad_profile", gettext_noop("{slug} has no edition option {option}."), slug=slug,
                            option=option)
    if not isinstance(data, Mapping):
        raise IllegalAction("bad_profile", gettext_noop("A profile must be a JSON object."))
    cls = get_game_class(slug)
    seats = [SeatInfo(i, f"P{i}", cls.colours[i]) for i in range(cls.min_seats)]
    cls({option: dict(data)}, seats)
    return dict(data)


def save(slug: str, option: str, data: Mapping[str, Any], name: str = "", verified: bool | None = None
         ) -> EditionProfile:
    """Validate and store a profile; ``name`` and ``verified`` default to the data's own fields."""
    checked = validate(slug, option, data)
    return EditionProfile.objects.create(
        slug=slug, option=option, name=(name or str(checked.get("name") or option))[:80], data=checked,
        verified=bool(checked.get("verified", False)) if verified is None else verified,
    )


def export(profile: EditionProfile) -> dict[str, Any]:
    """The profile as a portable file."""
    return {"format": FORMAT, "game": profile.slug, "option": profile.option, "name": profile.name,
            "verified": profile.verified, "data": profile.data}


def import_file(payload: Any) -> EditionProfile:
    """Store a profile from an exported file (validated again on this install)."""
    if not isinstance(payload, Mapping) or payload.get("format") != FORMAT:
        raise IllegalAction("bad_profile", gettext_noop("This is not a Companion edition profile file."))
    return save(str(payload.get("game")), str(payload.get("option")), payload.get("data"),
                str(payload.get("name") or ""), bool(payload.get("verified", False)))
