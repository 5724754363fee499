"""Calibration of the Amun-Re edition profile (rules file 6.2): the host copies the box's numbers.

One screen with three parts, each a Django form or formset: the offering
table rows (box back), the pyramid price list (player aid) and the bounds of
what a province card may show. It opens prefilled from the shipped default
(or from a stored profile, ``?from=<id>``). "Check" runs the engine's
checks and shows its warnings; "Save" stores an ``EditionProfile`` through
:func:`games.write.editions.save`, the same gate the import page uses. Whatever the
engine refuses comes back on the form with the rule it names, never as a 500.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engines.base import IllegalAction
from games.models import EditionProfile
from games.read.presenters import error_message, tr
from games.text.words import isolate, list_separator
from games.write import editions
from shelf.amun_re.edition import PROVINCE_FIELDS, default_edition_data, edition_warnings, validate_edition

SLUG, OPTION = "amun_re", "edition"
MARKED = gettext_lazy("Some numbers do not pass the checks; each one is marked below with what to fix.")
MAX_ROWS = 20  # offering columns or pyramid prices a group may type in
FIELD_LABELS = {
    "farms": gettext_lazy("Farms"),
    "caravans": gettext_lazy("Caravans"),
    "ankhs": gettext_lazy("Ankhs"),
    "pyramid_spaces": gettext_lazy("Pyramid spaces"),
    "printed_pyramids": gettext_lazy("Printed pyramids"),
}


def _number(label: Any, required: bool = True) -> forms.IntegerField:
    return forms.IntegerField(label=label, required=required, min_value=0, max_value=999,
                              widget=forms.NumberInput(attrs={"inputmode": "numeric"}))


class ProfileForm(forms.Form):
    """Name of the profile and the host's word that the numbers come from a real box."""

    name = forms.CharField(label=gettext_lazy("Name of this profile"), max_length=80,
                           widget=forms.TextInput(attrs={"placeholder": gettext_lazy("e.g. Our Hoopa box")}))

    def clean_name(self) -> str:
        """A name already used by an Amun-Re profile is refused, so the lobby never lists two alike."""
        name = self.cleaned_data["name"].strip()
        if EditionProfile.objects.filter(slug=SLUG, option=OPTION, name__iexact=name).exists():
            raise forms.ValidationError(
                _("A profile called “%(name)s” already exists for Amun-Re; choose another name.") % {"name": isolate(name)})
        return name
    note = forms.CharField(label=gettext_lazy("Note (edition, language, who checked)"), max_length=500,
                           required=False)
    verified = forms.BooleanField(label=gettext_lazy("I copied these from my box"), required=False)


class OfferingRowForm(forms.Form):
    """One column of the offering table (rules 1.5); an empty "to" marks the open-ended last column."""

    min_total = _number(gettext_lazy("From"))
    max_total = _number(gettext_lazy("To"), required=False)
    gold_per_farm = _number(gettext_lazy("Gold per farm"))
    gold_per_caravan = _number(gettext_lazy("Gold per caravan"))


class PriceForm(forms.Form):
    """The price of buying one more pyramid count at once (rules 1.6); row k prices k pyramids."""

    price = _number(gettext_lazy("Gold"))


class BoundsForm(forms.Form):
    """Lowest and highest count a province card may show, per icon (rules 1.4)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in PROVINCE_FIELDS:
            self.fields[f"{field}_low"] = _number(FIELD_LABELS[field])
            self.fields[f"{field}_high"] = _number(FIELD_LABELS[field])

    def rows(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        """(label, low field, high field) per province field, for the template."""
        return [(str(FIELD_LABELS[f]), self[f"{f}_low"], self[f"{f}_high"]) for f in PROVINCE_FIELDS]


class RowsFormSet(forms.BaseFormSet):
    """Every posted row may be left blank (it is then skipped), so a group can drop a column or a price."""

    def initial_form_count(self) -> int:
        return 0 if self.is_bound else super().initial_form_count()


def _formset(form: type[forms.Form]) -> type[forms.BaseFormSet]:
    return forms.formset_factory(form, formset=RowsFormSet, extra=1, max_num=MAX_ROWS, absolute_max=MAX_ROWS,
                                 validate_max=True)


OfferingFormSet = _formset(OfferingRowForm)
PriceFormSet = _formset(PriceForm)


def _initial(data: dict[str, Any]) -> dict[str, Any]:
    """Form initials from a profile's JSON (the shipped default or a stored profile)."""
    bounds = data.get("province_bounds", {})
    costs = data.get("pyramid_cost", {})
    return {
        "profile": {"name": "", "note": data.get("note", ""), "verified": False},
        "rows": [{k: row.get(k) for k in ("min_total", "max_total", "gold_per_farm", "gold_per_caravan")}
                 for row in data.get("offering_table", [])],
        "prices": [{"price": costs[str(k)]} for k in range(1, len(costs) + 1) if str(k) in costs],
        "bounds": {f"{f}_{end}": pair[i] for f, pair in bounds.items() for i, end in enumerate(("low", "high"))},
    }


def _source(request: HttpRequest) -> dict[str, Any]:
    """The profile to start from: ``?from=<id>`` if it names a stored Amun-Re profile, else the default."""
    raw = request.GET.get("from", "")
    if raw.isdigit():
        profile = EditionProfile.objects.filter(id=int(raw), slug=SLUG, option=OPTION).first()
        if profile is not None:
            return profile.as_option()
        messages.warning(request, _("That profile does not exist; starting from the shipped default."))
    return default_edition_data()


def _filled(formset: forms.BaseFormSet) -> list[dict[str, Any]]:
    """The rows someone typed something into (blank extra rows are skipped)."""
    return [f.cleaned_data for f in formset.forms if f.cleaned_data and any(
        v is not None for v in f.cleaned_data.values())]


def _flag_missing_prices(prices: forms.BaseFormSet) -> bool:
    """Mark an emptied price that later prices follow (row k prices k pyramids, so nothing may shift); True if any."""
    filled = [bool(f.cleaned_data and f.cleaned_data.get("price") is not None) for f in prices.forms]
    last = max((i for i, ok in enumerate(filled) if ok), default=-1)
    found = False
    for i in range(last):
        if not filled[i]:
            prices.forms[i].add_error("price", _("Pyramid prices, %(k)s: this price is missing; fill it in "
                                                 "(each row is the price of that many pyramids).")
                                      % {"k": _pyramids(i + 1)})
            found = True
    return found


def _pyramids(k: int) -> str:
    return ngettext("%(k)d pyramid", "%(k)d pyramids", k) % {"k": k}


def _profile_data(profile: ProfileForm, rows: forms.BaseFormSet, prices: forms.BaseFormSet,
                  bounds: BoundsForm) -> dict[str, Any]:
    """The edition JSON (shape of ``validate_edition``) from valid forms."""
    data: dict[str, Any] = {
        "name": profile.cleaned_data["name"],
        "verified": profile.cleaned_data["verified"],
        "offering_table": [
            {k: row.get(k) for k in ("min_total", "max_total", "gold_per_farm", "gold_per_caravan")}
            for row in _filled(rows)
        ],
        "pyramid_cost": {str(k): row["price"] for k, row in enumerate(_filled(prices), start=1)},  # no gaps: checked
        "province_bounds": {f: [bounds.cleaned_data[f"{f}_low"], bounds.cleaned_data[f"{f}_high"]]
                            for f in PROVINCE_FIELDS},
    }
    if profile.cleaned_data["note"]:
        data["note"] = profile.cleaned_data["note"]
    return data


WHERE = re.compile(r"^(offering_table|pyramid_cost)\[(\d+)\](?:\.(\w+))?$")
COLUMN_FIELDS = {
    "min_total": gettext_lazy("lowest total"),
    "max_total": gettext_lazy("highest total"),
    "gold_per_farm": gettext_lazy("gold per farm"),
    "gold_per_caravan": gettext_lazy("gold per caravan"),
}
# The engine's checks, said for the people copying the box (keyed by the engine's message template).
HUMAN = {
    "Edition: {where} must start at {expected}: ranges start at 0 and are contiguous without overlap (rules 1.5).":
        gettext_lazy("Offering table, row {row}: the lowest total must be {expected} (it follows row {prev})."),
    "Edition: only the last column may be open-ended ({where}) (rules 1.5).":
        gettext_lazy("Offering table, row {row}: fill in the highest total; only the last row may be left open."),
    "Edition: the last column must be open-ended (max_total null) so every total has a column ({where}) (rules 1.5).":
        gettext_lazy("Offering table, row {row}: leave the highest total empty on the last row, so every total "
                     "has a column."),
    "Edition: {where} ends before it starts (rules 1.5).":
        gettext_lazy("Offering table, row {row}: the highest total is below the lowest."),
    "Edition: a total offering of 9 must fall in column 2 ({where}) (rules 1.5, seed anchor).":
        gettext_lazy("Offering table, row 2: a total offering of 9 must fall in this row (rules 1.5)."),
    "Edition: column 2 pays 2 gold per farm ({where}) (rules 1.5, seed anchor).":
        gettext_lazy("Offering table, row 2: gold per farm must be 2 (column 2 pays 2 gold per farm, rules 1.5)."),
    "Edition: column 3 pays 3 gold per farm ({where}) (rules 1.5, seed anchor).":
        gettext_lazy("Offering table, row 3: gold per farm must be 3 (column 3 pays 3 gold per farm, rules 1.5)."),
    "Edition: {where} must list at least 3 columns (rules 1.5).":
        gettext_lazy("Offering table: fill in at least 3 rows."),
    "Edition: {where} keys must be exactly 1..N (rules 1.6).":
        gettext_lazy("Pyramid prices: fill in every price from 1 pyramid up, without gaps."),
    "Edition: {where} must price at least 1..5 pyramids (rules 1.6).":
        gettext_lazy("Pyramid prices: fill in the prices of 1 to 5 pyramids at least."),
    "Edition: {where} must map pyramid counts to prices (rules 1.6).":
        gettext_lazy("Pyramid prices: fill in the prices of 1 to 5 pyramids at least."),
    "Edition: prices must rise strictly with the number of pyramids ({where}) (rules 1.6).":
        gettext_lazy("Pyramid prices, {pyramids}: must cost more than {fewer} (rules 1.6)."),
    "Edition: 5 pyramids cost 21 gold ({where}) (rules 1.6, seed anchor).":
        gettext_lazy("Pyramid prices, 5 pyramids: must cost 21 gold (5 pyramids cost 21 gold, rules 1.6)."),
    "Edition: {where} needs 0 <= low <= high <= 20 (rules 1.4).":
        gettext_lazy("Province cards, {field}: the lowest may not be above the highest, and the highest is at "
                     "most 20."),
    "Edition: {where} must allow at least one space (rules 1.4).":
        gettext_lazy("Province cards, pyramid spaces: the highest must be at least 1."),
    "Edition: printed pyramids cannot exceed pyramid spaces ({where}) (rules 1.4).":
        gettext_lazy("Province cards, printed pyramids: cannot be more than the pyramid spaces."),
    "Edition: {where} must be a whole number of at least {low} (rules 1.5-1.6).":
        gettext_lazy("{place}: must be a whole number of at least {low}."),
}


def _place(where: str) -> dict[str, Any]:
    """Human names for the engine's ``where`` path: row, field, pyramid count."""
    match = WHERE.match(where)
    if match and match.group(1) == "offering_table":
        row, field = int(match.group(2)), match.group(3)
        place = _("Offering table, row %(row)d") % {"row": row}
        if field in COLUMN_FIELDS:
            place += list_separator() + str(COLUMN_FIELDS[field])  # "،" on a Persian or Pashto page
        return {"row": row, "prev": row - 1, "place": place}
    if match:
        k = int(match.group(2))
        return {"pyramids": _pyramids(k), "fewer": _pyramids(k - 1) if k > 1 else "",
                "place": _("Pyramid prices, %(k)s") % {"k": _pyramids(k)}}
    if where.startswith("province_bounds."):
        field = where.split(".", 1)[1]
        label = str(FIELD_LABELS.get(field, field)).lower()
        return {"field": label, "place": _("Province cards, %(field)s") % {"field": label}}
    return {"place": where}


def human_message(exc: IllegalAction) -> str:
    """The engine's refusal said for people: rows and fields by name, never a JSON path."""
    details = {**exc.details, **_place(str(exc.details.get("where", "")))}
    text = HUMAN.get(exc.template)
    if text is None:
        return tr(exc.template, {**exc.details, "where": details["place"]})
    try:
        return str(text).format(**details)
    except (KeyError, IndexError, ValueError):
        return error_message(exc)


def _attach(exc: IllegalAction, rows: forms.BaseFormSet, prices: forms.BaseFormSet, bounds: BoundsForm) -> bool:
    """Put the message on the field the engine's ``where`` detail names; True when a field took it."""
    where = str(exc.details.get("where", ""))
    message = human_message(exc)
    match = WHERE.match(where)
    if match:
        part, index, field = match.group(1), int(match.group(2)) - 1, match.group(3)
        formset = rows if part == "offering_table" else prices
        filled = [f for f in formset.forms if f.cleaned_data and any(v is not None for v in f.cleaned_data.values())]
        if 0 <= index < len(filled):
            target = filled[index]
            name = field if field in target.fields else ("price" if part == "pyramid_cost" else None)
            target.add_error(name, message)
            return True
    elif where.startswith("province_bounds."):
        field = where.split(".", 1)[1]
        if f"{field}_low" in bounds.fields:
            bounds.add_error(f"{field}_low", message)
            return True
    return False


def calibrate(request: HttpRequest) -> HttpResponse:
    """GET: the prefilled calibration form. POST ``check``: show errors and warnings; POST ``save``: store it."""
    if request.method == "POST":
        profile = ProfileForm(request.POST, prefix="profile")
        rows = OfferingFormSet(request.POST, prefix="rows")
        prices = PriceFormSet(request.POST, prefix="prices")
        bounds = BoundsForm(request.POST, prefix="bounds")
    else:
        source = _source(request)
        start = _initial(source)
        profile = ProfileForm(initial=start["profile"], prefix="profile")
        source_name = str(source.get("name", ""))
        if source_name:
            profile.fields["name"].widget.attrs["placeholder"] = source_name
        rows = OfferingFormSet(initial=start["rows"], prefix="rows")
        prices = PriceFormSet(initial=start["prices"], prefix="prices")
        bounds = BoundsForm(initial=start["bounds"], prefix="bounds")
    error = None
    warnings: list[str] = []
    forms_valid = all([f.is_valid() for f in (profile, rows, prices, bounds)])
    if forms_valid and _flag_missing_prices(prices):
        forms_valid = False
    if forms_valid:
        data = _profile_data(profile, rows, prices, bounds)
        try:
            warnings = [tr(w["message"], w["details"]) for w in edition_warnings(validate_edition(data))]
            if request.method == "POST" and "save" in request.POST:
                saved = editions.save(SLUG, OPTION, data, verified=data["verified"])
                messages.success(request, _("Saved “%(name)s”; pick it in the options of a new table.")
                                 % {"name": isolate(saved.name)})
                for text in warnings:
                    messages.warning(request, text)
                return redirect("games:editions")
        except IllegalAction as exc:
            # Each message is shown once: on its field, or in the banner when no field can hold it.
            error = str(MARKED) if _attach(exc, rows, prices, bounds) else human_message(exc)
            warnings = []
    elif request.method == "POST":
        error = str(MARKED)
    else:
        try:
            warnings = [tr(w["message"], w["details"]) for w in edition_warnings(validate_edition(source))]
        except IllegalAction as exc:
            error = human_message(exc)
    context = {"profile": profile, "rows": rows, "prices": prices, "bounds": bounds, "error": error,
               "warnings": warnings, "checked": request.method == "POST" and error is None,
               "sources": EditionProfile.objects.filter(slug=SLUG, option=OPTION)}
    return render(request, "amun_re/calibrate.html", context, status=400 if error else 200)
