"""Rules at hand: the pages of each game's short rules reference.

``/rules/<slug>/`` lists the sections; ``/rules/<slug>/<key>/`` shows one. With
``?t=CODE`` (a table of that game) the page adds what that table's rule options
change ("At this table: ..."). The prose comes from :mod:`games.read.rulebook`.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from games.engines import REGISTRY, get_game_class
from games.models import Table
from games.pages import rule_pictures
from games.read import rulebook
from games.text.option_words import words_for


def _game(slug: str) -> Any:
    if slug not in REGISTRY:
        raise Http404
    return get_game_class(slug)


def _value(value: Any, values: dict | None = None) -> str:
    """An option value in the lobby's words: its name from :mod:`games.text.option_words` when it has one,
    booleans as on/off, an edition profile (``None``) as the shipped default, else the value through the
    catalogue (never a raw machine value such as ``not_enough``)."""
    if values and isinstance(value, (str, int, bool, type(None))) and value in values:
        return _(values[value])
    if isinstance(value, bool):
        return pgettext("rules at hand", "on") if value else pgettext("rules at hand", "off")
    if value is None:
        return _("Shipped default")
    if isinstance(value, (dict, list)):
        return pgettext("rules at hand", "this table's own data")
    return pgettext("rules at hand", str(value).replace("_", " "))


def _table_notes(request: HttpRequest, slug: str, section: rulebook.Section) -> tuple[Table | None, list[dict]]:
    """The table named by ``?t=`` (of this game) and what its options say about ``section``."""
    code = (request.GET.get("t") or "").strip().upper()[:12]
    if not code.isalnum():
        return None, []
    table = Table.objects.filter(code=code, slug=slug).first()
    if table is None:
        return None, []
    specs = {spec.name: spec for spec in _game(slug).option_specs}
    notes = []
    if section.variant:
        on = bool(table.options.get(section.variant, specs[section.variant].default))
        notes.append({"text": pgettext("rules at hand", "This variant is played at this table.") if on
                      else pgettext("rules at hand", "This variant is not played at this table."), "changed": on})
    for name in section.options:
        spec = specs.get(name)
        if spec is None:
            continue
        value = table.options.get(name, spec.default)
        words = words_for(slug, name)
        # The lobby's label and value names: the engine's help text cites rules-file sections and
        # markers for maintainers and is never shown to players.
        text = _(words.label) if words is not None else name.replace("_", " ").capitalize()
        notes.append({"text": text, "value": _value(value, dict(words.values) if words else None),
                      "changed": value != spec.default})
    return table, notes


def _nav(slug: str, table: Table | None) -> list[dict]:
    lang = get_language() or "en"
    items = []
    for s in rulebook.sections(slug):
        text = rulebook.text(slug, s.key, lang)
        items.append({"key": s.key, "title": text.title if text else s.key,
                      "url": rulebook.url(slug, s.key, table.code if table else None)})
    return items


def rules_index(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's rules reference: the list of its sections."""
    game = _game(slug)
    code = (request.GET.get("t") or "").strip().upper()[:12]
    table = Table.objects.filter(code=code, slug=slug).first() if code.isalnum() else None
    return render(request, "games/rules/index.html", {"slug": slug, "game_title": _(game.title),
                                                      "nav": _nav(slug, table), "table": table})


def rules_section(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    """One section of a game's rules reference, in the phone's language (404 for an unknown section); a section
    that describes a position shows one, drawn by the game's board (:mod:`games.pages.rule_pictures`)."""
    game = _game(slug)
    section = rulebook.section(slug, key)
    if section is None:
        raise Http404
    text = rulebook.text(slug, key, get_language() or "en")
    if text is None:
        raise Http404
    table, notes = _table_notes(request, slug, section)
    nav = _nav(slug, table)
    index = next(i for i, item in enumerate(nav) if item["key"] == key)
    context = {
        "slug": slug, "game_title": _(game.title), "section": section, "text": text, "nav": nav,
        "table": table, "notes": notes,
        "previous": nav[index - 1] if index > 0 else None,
        "next": nav[index + 1] if index + 1 < len(nav) else None,
        "picture": rule_pictures.picture(slug, key),
    }
    return render(request, "games/rules/section.html", context)
