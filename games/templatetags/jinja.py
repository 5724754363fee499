"""``{% jinja "name" key=value ... %}``: a Jinja2 template drawn inside a Django template.

The Django template names a ``*.jinja`` template of the Jinja2 backend (``games/web/jinja2env.py``) and the
values it is drawn from; the Jinja2 template sees those values and nothing else of the Django context.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.web.jinja2env import draw

register = template.Library()


@register.simple_tag
def jinja(name: str, **inputs: Any) -> SafeString:
    """The Jinja2 template ``name`` rendered from exactly ``inputs``; safe HTML (the template escapes what it prints).

    Raises ``django.template.TemplateDoesNotExist`` when the Jinja2 backend has no template ``name``.
    """
    return mark_safe(draw(name, inputs))  # noqa: S308 - autoescaped by Jinja2
