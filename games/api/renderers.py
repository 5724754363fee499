"""The API's JSON: a refusal's ``message`` in one digit system (the asker's, :mod:`games.web.digits`)."""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import JSONRenderer

from games.web.digits import current_system, localize_text


class MessageDigitsJSONRenderer(JSONRenderer):
    """DRF's JSON renderer; a top-level ``message`` (every ``{code, message}`` refusal) has its numbers
    written in the request's digit system (the ``digits`` cookie, else the language's: Persian digits in fa
    and ps), so a catalogue's Persian digits and the numbers filled into it never mix; so are the sentences
    of an invalid body's ``fields``. Codes, details and every other value are left as they are."""

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: dict[str, Any] | None = None) -> bytes:
        """The JSON bytes of ``data``, its ``message`` localized (see the class)."""
        request = (renderer_context or {}).get("request")
        if request is not None and isinstance(data, dict) and isinstance(data.get("message"), str):
            system = current_system(request)
            data = {**data, "message": localize_text(data["message"], system)}
            if "fields" in data:  # the serializer's sentences per field ("no more than 5 elements")
                data["fields"] = _localized(data["fields"], system)
        return super().render(data, accepted_media_type, renderer_context)


def _localized(value: Any, system: str) -> Any:
    """Every string inside ``value`` (nested lists and dicts; keys stay) through :func:`localize_text`."""
    if isinstance(value, str):
        return localize_text(value, system)
    if isinstance(value, list):
        return [_localized(v, system) for v in value]
    if isinstance(value, dict):
        return {k: _localized(v, system) for k, v in value.items()}
    return value
