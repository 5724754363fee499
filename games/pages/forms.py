"""Django forms for creating a table: game, seats, and each game's options from its ``OptionSpec`` list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engines import available_slugs, get_game_class
from games.engines.base import OptionSpec
from games.models import EditionProfile
from games.record.setup import RULE_NAMES, start_choices
from games.text.option_words import FIRST, GROUPS, OptionWords, words_for

MAX_SEATS = 5


def game_choices() -> list[tuple[str, str]]:
    """(slug, title in the active language) of every game whose engine is installed."""
    return [(slug, gettext(get_game_class(slug).title)) for slug in available_slugs()]


class NewTableForm(forms.Form):
    """The game and its seats (names, colours). Options come from :func:`options_form`."""

    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    players = forms.TypedChoiceField(label=_("Players"), coerce=int, choices=[(n, n) for n in range(2, MAX_SEATS + 1)],
                                     initial=3)

    def __init__(self, *args: Any, slug: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        colours = list(get_game_class(slug).colours) if slug else []
        if slug:
            cls = get_game_class(slug)
            self.fields["players"].choices = [(n, n) for n in range(cls.min_seats, cls.max_seats + 1)]
            self.fields["players"].initial = min(max(3, cls.min_seats), cls.max_seats)
        self.seat_rows = []
        for i in range(len(colours) or MAX_SEATS):
            player = gettext("Player %(n)s") % {"n": i + 1}
            # One row per seat: colour, then name; the labels are read out, the placeholder shows "Player 1".
            self.fields[f"name_{i}"] = forms.CharField(
                label=player, max_length=40, required=False,
                widget=forms.TextInput(attrs={"placeholder": player, "autocomplete": "off",
                                              "aria-label": gettext("%(player)s: name") % {"player": player}}),
            )
            self.fields[f"colour_{i}"] = forms.ChoiceField(
                label=_("Colour"), required=False, initial=colours[i] if colours else "",
                choices=[(c, gettext(c)) for c in colours],
                widget=forms.Select(attrs={"aria-label": gettext("%(player)s: colour") % {"player": player}}),
            )
            self.seat_rows.append((self[f"name_{i}"], self[f"colour_{i}"]))
        self._add_start_fields(slug)

    def _add_start_fields(self, slug: str) -> None:
        """Who starts: the printed rule (default), its printed alternatives, random, or
        the host's pick (``start_seat``); and whether to walk through the set-up."""
        cls = get_game_class(slug) if slug else None
        if cls is None or cls.start_rule is None:
            return
        choices = [("printed", gettext("The rulebook: %(rule)s") % {"rule": gettext(RULE_NAMES[cls.start_rule])})]
        choices += [(r, gettext(RULE_NAMES[r]).capitalize()) for r in start_choices(cls)[1:]]
        self.fields["start"] = forms.ChoiceField(label=_("Who starts"), choices=choices, initial="printed",
                                                 required=False, help_text=gettext(cls.start_source))
        self.fields["start_seat"] = forms.TypedChoiceField(
            label=_("Start player (when the host picks)"), coerce=int, required=False, empty_value=0,
            choices=[(i, _("Player %(n)s") % {"n": i + 1}) for i in range(cls.max_seats)])
        self.fields["walkthrough"] = forms.BooleanField(label=_("Walk through the set-up"), required=False,
                                                        initial=True)

    @property
    def setup_fields(self) -> list[forms.BoundField]:
        """Fields besides the game, the player count and the seats (such as who starts), shown after the seats."""
        seat = ("name_", "colour_")
        return [self[name] for name in self.fields if name not in ("game", "players") and not name.startswith(seat)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        slug = data.get("game")
        if slug:
            cls = get_game_class(slug)
            n = data.get("players") or 0
            if not cls.min_seats <= n <= cls.max_seats:
                raise forms.ValidationError(
                    _("%(title)s is played by %(min)s to %(max)s players.")
                    % {"title": cls.title, "min": cls.min_seats, "max": cls.max_seats}
                )
            chosen = [data.get(f"colour_{i}") or cls.colours[i] for i in range(n)]
            if len(set(chosen)) != len(chosen):
                raise forms.ValidationError(_("Each player needs a colour of their own."))
        return data

    def start_options(self) -> dict[str, Any]:
        """``create_table``'s who-starts and walkthrough arguments from the cleaned form."""
        rule = self.cleaned_data.get("start") or "printed"
        seat = self.cleaned_data.get("start_seat") or 0
        return {"start": rule, "start_seat": seat if rule == "chosen" else None,
                "walkthrough": bool(self.cleaned_data.get("walkthrough"))}

    def seats(self) -> list[dict[str, Any]]:
        """The seats as ``create_table`` takes them (a blank name becomes the colour the seat plays)."""
        cls = get_game_class(self.cleaned_data["game"])
        out = []
        for i in range(self.cleaned_data["players"]):
            colour = self.cleaned_data.get(f"colour_{i}") or cls.colours[i]
            out.append({"name": self.cleaned_data.get(f"name_{i}") or "", "colour": colour})
        return out


def _is_profile(spec: OptionSpec) -> bool:
    """True for an option whose value is an edition profile (a JSON object picked from /editions/)."""
    return isinstance(spec.default, dict) or (spec.default is None and not spec.choices)


def _value_name(words: OptionWords | None, value: Any, default: Any) -> str:
    """The translated name of machine ``value`` of an option, with "(default)" after the default."""
    if words is not None and value in words.values:
        name = gettext(words.values[value])
    else:  # an option without lobby words (a game under construction): its value, readable
        name = gettext(str(value).replace("_", " "))
    return gettext("%(value)s (default)") % {"value": name} if value == default else name


def _field_for(spec: OptionSpec, slug: str) -> forms.Field:
    """The form field of one option: label, one-line explanation and value names from :mod:`games.text.option_words`.

    The field's machine values (checkbox ``on``, select values) are the engine's, so the options a
    table stores do not depend on these words. The rules-file citation goes to the widget's
    ``data-rules`` attribute (for maintainers; no player reads it).
    """
    words = words_for(slug, spec.name)
    if words is not None:
        label, help_text, rules = gettext(words.label), gettext(words.explain), words.rules
    else:
        label, help_text, rules = spec.name.replace("_", " ").capitalize(), gettext(spec.help) if spec.help else "", ""
    attrs = {"data-rules": rules} if rules else {}
    if _is_profile(spec):
        profiles = [(str(p.id), p.name + ("" if p.verified else " (" + gettext("unverified") + ")"))
                    for p in EditionProfile.objects.filter(slug=slug, option=spec.name)]
        shipped = gettext(words.values[None]) if words is not None and None in words.values else gettext("Shipped default")
        return forms.ChoiceField(label=label, help_text=help_text, required=False,
                                 choices=[("", gettext("%(value)s (default)") % {"value": shipped})] + profiles,
                                 widget=forms.Select(attrs=attrs))
    if spec.choices and set(spec.choices) <= {True, False}:
        return forms.BooleanField(label=label, help_text=help_text, required=False, initial=bool(spec.default),
                                  widget=forms.CheckboxInput(attrs=attrs))
    if spec.choices:
        kind = type(spec.default)
        return forms.TypedChoiceField(label=label, help_text=help_text, coerce=kind, required=False,
                                      empty_value=spec.default, initial=spec.default,
                                      choices=[(c, _value_name(words, c, spec.default)) for c in spec.choices],
                                      widget=forms.Select(attrs=attrs))
    if isinstance(spec.default, bool):
        return forms.BooleanField(label=label, help_text=help_text, required=False, initial=spec.default,
                                  widget=forms.CheckboxInput(attrs=attrs))
    if isinstance(spec.default, int):
        return forms.IntegerField(label=label, help_text=help_text, initial=spec.default, required=False,
                                  widget=forms.NumberInput(attrs=attrs))
    return forms.CharField(label=label, help_text=help_text, initial=spec.default, required=False,
                           widget=forms.TextInput(attrs=attrs))


def options_form(slug: str, data: Any = None) -> forms.Form:
    """A form with one field per option of game ``slug`` (prefix ``opt``)."""
    cls = get_game_class(slug)
    fields = {spec.name: _field_for(spec, slug) for spec in cls.option_specs}
    form_class = type(f"{cls.__name__}OptionsForm", (forms.Form,), fields)
    return form_class(data, prefix="opt")


@dataclass
class OptionGroup:
    """One collapsible group of the lobby's rule options: translated ``title``, key, bound fields in order.

    ``rows``: ``(bound field, is_checkbox, default_note)``; ``default_note`` says a checkbox's default
    ("On by default") and is empty for a select, whose default value carries "(default)" itself.
    """

    key: str
    title: str
    rows: list[tuple[forms.BoundField, bool, str]]

    @property
    def has_errors(self) -> bool:
        """True when a field of the group was refused (the group then opens)."""
        return any(field.errors for field, _, _ in self.rows)


def option_groups(form: forms.Form, slug: str) -> list[OptionGroup]:
    """The options of ``form`` (from :func:`options_form`) in lobby groups, in :data:`GROUPS` order.

    The first group (key ``first``, no title) holds what is shown before the rule options
    (digital or physical components); ``advanced`` (edition profiles) comes last. An option
    without lobby words goes to a group titled "More rules".
    """
    cls = get_game_class(slug)
    rows: dict[str, list[tuple[forms.BoundField, bool, str]]] = {}
    for spec in cls.option_specs:
        words = words_for(slug, spec.name)
        key = words.group if words is not None else "more"
        bound = form[spec.name]
        checkbox = isinstance(bound.field, forms.BooleanField)
        note = (gettext("On by default.") if spec.default else gettext("Off by default.")) if checkbox else ""
        rows.setdefault(key, []).append((bound, checkbox, note))
    order = [FIRST, *[k for k in GROUPS if k != "advanced"], "more", "advanced"]
    titles = {**{k: gettext(v) for k, v in GROUPS.items()}, FIRST: "", "more": gettext("More rules")}
    return [OptionGroup(key, titles[key], rows[key]) for key in order if key in rows]


def options_from(form: forms.Form, slug: str) -> dict[str, Any]:
    """The engine options from a valid options form (edition profiles resolved to their data)."""
    cls = get_game_class(slug)
    options: dict[str, Any] = {}
    for spec in cls.option_specs:
        value = form.cleaned_data.get(spec.name)
        if _is_profile(spec):
            if value:
                profile = EditionProfile.objects.filter(id=int(value), slug=slug, option=spec.name).first()
                if profile is not None:
                    options[spec.name] = profile.as_option()
            continue
        options[spec.name] = spec.default if value is None else value
    return options
