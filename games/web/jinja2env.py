"""The Jinja2 environment of the second template backend (``TEMPLATES`` in ``companion/settings.py``).

Jinja2 draws everything the phones are sent: every region of the phone page (``templates/games/regions/``,
games/read/regions.py), each game's board, controls and fixed geometry, and the parts of a board
(``part(...)``, games/web/parts.py). Measured against Django's template nodes, which localize every value they
print, it draws a one-line region about five times faster and a board part several times faster. Django
templates draw the pages around the regions (the page shell, the lobby, the host's and the history pages); one
that shows a piece the phones are also sent includes the same file with ``{% jinja "name" key=value %}``
(``games/templatetags/jinja.py``), so each piece of markup has exactly one source. :func:`draw` is the one way
a Jinja2 template is drawn.

What the templates get here, and nothing else:

- autoescaping on: every ``{{ value }}`` is HTML-escaped unless it is already safe markup (MarkupSafe
  writes ``&#34;`` and ``&#39;`` where Django writes ``&quot;`` and ``&#x27;``: the same characters);
- Django's lookup order: ``item.key`` of a dictionary is its key ``"key"``;
- translation through Django's own catalogues, in the active language and escaped as Django's tags escape:
  ``_("text")`` is ``{% translate "text" %}`` of a literal and ``_("text %(n)s", n=value)`` its
  ``{% blocktranslate with n=value %}`` (the translation as written, each value escaped, a literal ``%`` written
  ``%%``); ``ngettext("%(n)s tile", "%(n)s tiles", count, n=count)`` is ``{% blocktranslate count %}``,
  ``pgettext("dynasty", "Lion")`` ``{% translate "Lion" context "dynasty" %}``, and ``gettext(value)``
  ``{% translate value %}`` of a variable (the translation escaped); ``{{ sep() }}``, ``{{ list_comma() }}`` and
  ``{{ list_semicolon() }}`` are the tags of the same names;
- Django's own ``truncatechars`` and the project's ``names`` (:func:`django_text_filters`), which write a
  name exactly as the Django templates do; ``localize`` (Django's ``formats.localize``, remembered per language
  and value: a number as a Django template writes it outside ``{% localize off %}``, ``3,5`` in Azerbaijani),
  ``widthratio`` (``{% widthratio %}``) and ``msgid`` (a catalogue entry named by a value); the globals ``url``,
  ``csrf_input`` and ``static`` (the tags ``{% url %}``, ``{% csrf_token %}`` and ``{% static %}``);
- the project's presentation filters ``get``, ``bdi``, ``bdi_joined`` and ``term``
  (``games/templatetags/companion.py``), and every game's own
  filters, as its adapter declares them (``WebAdapter.template_filters``; its ``template_words`` are
  shown in the page's language and remembered per language and value).

Numbers print as Python writes them (``377.3``, never localized): the templates draw SVG coordinates; a number in
a sentence that a Django template would localize goes through ``localize``.
Write a translated text as ``{{ _("text") }}`` with the literal inside: ``makemessages -e html,txt,py,jinja``
collects it (Django's template lexer reads that form in a ``.jinja`` file too, and only that form); a text with
values, a plural or a text in a context is listed once in Python for it, in the game's
``shelf/<slug>/template_words.py`` (the platform's templates: ``games/text/template_words.py``), and a word
translated from a variable (``gettext(colour)``) once in ``games/text/colours.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template import engines
from django.template.defaultfilters import truncatechars
from django.templatetags.static import static
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.translation import get_language, gettext, ngettext, override, pgettext
from jinja2 import ChainableUndefined, Environment, Template, pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from markupsafe import escape as markup_escape

from games.templatetags.companion import (
    bdi,
    bdi_joined,
    bdi_list,
    game_filters,
    get,
    list_comma,
    list_semicolon,
    msgid,
    names,
    seat_names,
    sep,
    term,
)
from games.web import parts as parts_tag


@lru_cache(maxsize=8192)
def _catalogue(language: str | None, look_up: Callable[..., str], *args: Any) -> str:
    """``look_up(*args)`` (Django's ``gettext``, ``ngettext`` or ``pgettext``) in ``language``, looked up once per
    language and arguments: Django walks the language's catalogues and their fallbacks on every call, and a
    board's templates say the same few dozen words on every draw. Emptied when the catalogues' settings change."""
    with override(language):
        return look_up(*args)


@receiver(setting_changed)
def _settings_changed(setting: str, **kwargs: Any) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS"):
        _catalogue.cache_clear()
    if setting == "ROOT_URLCONF":
        _reversed.cache_clear()


def _translate(message: str, **variables: Any) -> Markup:
    """``_("text")``: Django's ``{% translate "text" %}`` of a literal, the catalogue's text as written (a literal is
    safe to Django, and so is its translation); ``_("text %(n)s", n=value)``: its ``{% blocktranslate with
    n=value %}``, the same text with each value escaped. A literal ``%`` is written ``%%``."""
    return Markup(_catalogue(get_language(), gettext, message)) % variables


def _gettext(message: object) -> Markup:
    """``gettext(value)``: Django's ``{% translate value %}`` of a variable, HTML-escaped (a missing value translates
    to ``""``)."""
    return Markup(conditional_escape(_catalogue(get_language(), gettext, str(message))))


def _ngettext(singular: str, plural: str, number: int, **variables: Any) -> Markup:
    """``ngettext("%(n)s tile", "%(n)s tiles", count, n=count)``: Django's ``{% blocktranslate count n=count %}``, the
    form for ``number`` as written, each value escaped (``num`` is ``number`` unless given)."""
    variables.setdefault("num", number)
    return Markup(_catalogue(get_language(), ngettext, singular, plural, number)) % variables


def _pgettext(context: str, message: str) -> Markup:
    """``pgettext("dynasty", "Lion")``: Django's ``{% translate "Lion" context "dynasty" %}``, as written."""
    return Markup(_catalogue(get_language(), pgettext, context, message))


def _remembered(write: Callable[..., Any]) -> Callable[..., Any]:
    """``write`` (a filter that reads only its arguments and the active language) remembered per (language, arguments).

    A name is truncated, a hand of cards listed, a pawn or a square named, the same way on every draw of a board
    (the games' word filters and :func:`django_text_filters`); each argument is keyed
    with its type (a safe string and the same plain text are written differently), a list as a tuple of its items;
    arguments that cannot be a key are written without the memory.
    """

    def key(value: Any) -> tuple[Any, Any]:
        if type(value) is list:  # its items as they are: an item that cannot be a key leaves the memory out
            return (list, tuple((type(v), v) for v in value))
        return (type(value), value)

    def value(keyed: tuple[Any, Any]) -> Any:
        kind, held = keyed
        return [v for _, v in held] if kind is list else held

    @lru_cache(maxsize=2048)
    def remembered(language: str | None, *keyed: tuple[Any, Any]) -> Any:
        return write(*map(value, keyed))

    def written(*args: Any) -> Any:
        try:
            return remembered(get_language(), *map(key, args))
        except TypeError:
            return write(*args)

    written.__doc__ = write.__doc__
    return written


def _held(layout: Callable[..., Any]) -> Callable[..., Any]:
    """A game's layout filter (it regroups what its arguments hold, and reads nothing else), made once per snapshot
    for the same argument objects (:func:`games.web.parts.held`): the seat's legal taps and the view's pieces are
    objects of the snapshot, so every draw of a phone's region on it gets the same result object back, and a part
    drawn from that result finds its digest by the object instead of encoding it again. Drawn where the values
    hold no snapshot (a part's body), it regroups every time."""

    @pass_context
    def regrouped(context: Context, *args: Any) -> Any:
        return parts_tag.held(context.get("snapshot"), "layout", layout, args, lambda: layout(*args))

    regrouped.__doc__ = layout.__doc__
    return regrouped


def django_text_filters() -> dict[str, Callable[..., Any]]:
    """Django template filters a Jinja2 template uses to write text exactly as a Django template writes it:
    ``truncatechars`` (Django's, ``{{ name|truncatechars(9) }}``) and ``names`` (``games/templatetags/companion.py``:
    a list of names for a sentence, each isolated, escaped), each remembered per language and arguments
    (:func:`_remembered`). Each returns plain text, escaped on output, or safe markup."""
    return {"truncatechars": _remembered(truncatechars), "names": _remembered(names)}


class Group(tuple):  # noqa: SLOT001 - a named pair as Django's regroup gives it
    """One group of :func:`regroup`: ``group.grouper`` (the value) and ``group.list`` (its items, in order)."""

    __slots__ = ()

    @property
    def grouper(self) -> Any:
        """The value the group's items share."""
        return self[0]

    @property
    def list(self) -> list[Any]:
        """The group's items, in their order."""
        return self[1]


def _lookup(item: Any, path: str) -> Any:
    for name in path.split("."):
        if isinstance(item, Mapping):
            item = item.get(name)
        else:
            item = getattr(item, name, None)
        if item is None:
            return None
    return item


def regroup(items: Any, path: str) -> list[Group]:
    """``items | regroup("payload.pawn")``: Django's ``{% regroup items by payload.pawn as groups %}``, each run of
    consecutive items with the same value at ``path`` (keys or attributes, dot-separated; ``None`` where one is
    missing) as one :class:`Group`, in order (Jinja2's ``groupby`` sorts first)."""
    groups: list[Group] = []
    for item in items or ():
        value = _lookup(item, path)
        if groups and groups[-1].grouper == value:
            groups[-1].list.append(item)
        else:
            groups.append(Group((value, [item])))
    return groups


def widthratio(value: Any, max_value: float, max_width: int) -> int | str:
    """``size|widthratio(10, 8)``: Django's ``{% widthratio size 10 8 %}``, ``value / max_value * max_width`` rounded
    to an integer (half to even, as Django rounds); ``0`` for a ``max_value`` of 0 and ``""`` for a value that is not a
    number, as Django writes them."""
    try:
        return round(float(value) / float(max_value) * int(max_width))
    except ZeroDivisionError:
        return 0
    except (ValueError, TypeError, OverflowError):
        return ""


def _url(name: str, *args: Any) -> str:
    """``url("games:act", code)``: Django's ``{% url "games:act" code %}`` (the path, escaped on output), reversed
    once per script prefix, URL configuration, name and arguments."""
    try:
        return _reversed(get_script_prefix(), get_urlconf(), name, args)
    except TypeError:  # an argument that cannot be a key
        return reverse(name, args=args)


@lru_cache(maxsize=4096)
def _reversed(prefix: str, urlconf: str | None, name: str, args: tuple[Any, ...]) -> str:
    return reverse(name, args=args)


def _csrf_input(token: str | None) -> Markup:
    """``csrf_input(csrf_token)``: Django's ``{% csrf_token %}`` for the phone's own token (nothing without one)."""
    if not token or token == "NOTPROVIDED":
        return Markup("")
    return Markup('<input type="hidden" name="csrfmiddlewaretoken" value="%s">') % token


@lru_cache(maxsize=512)
def _globals(template: Template) -> dict[str, Any]:
    """The globals ``template`` sees, as one dictionary (Jinja2 merges its chain of them on every render)."""
    return dict(template.globals)


def draw(name: str, values: Mapping[str, Any]) -> str:
    """The Jinja2 template ``name`` drawn from exactly ``values`` (and the environment's globals): HTML, its
    values escaped. The one way the app draws a Jinja2 template: a region (games/read/regions.py), a part
    (:func:`part`) and Django's ``{% jinja %}`` tag.

    The same output as ``Template.render(values)``, without its merge of the globals on every call (a
    region drawn for every phone on every move is a few dozen characters). Raises ``TemplateNotFound`` for a
    name no template folder holds, and what the template raises.
    """
    env = engines["jinja2"].env
    template = env.get_template(name)
    context = env.context_class(env, {**_globals(template), **values}, template.name, template.blocks)
    try:
        return env.concat(template.root_render_func(context))  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - Jinja2's own render rewrites the traceback to the template's lines
        return env.handle_exception()


@pass_context
def part(context: Context, part_id: str, element: str, body: str | None, **inputs: Any) -> Markup:
    """``{{ part("my-card", "g", "<slug>/card.jinja", card=view.card) }}``: a part of a region drawn from exactly
    ``inputs`` by the template ``body`` (games/web/parts.py says what a part is and why).

    Its HTML is made once per digest (``body``, the id, the language, the inputs) on the region's snapshot (the
    context's ``snapshot``); drawn for a region's sink (the context's ``_parts``), it stands in the region as its
    marker and the part joins the sink; without a sink it is drawn in place. ``part_id`` is escaped. ``body``
    ``None``: an empty part (a place a later push fills).
    """
    drawn = parts_tag.made(context.get("snapshot"), body or "", part_id, str(markup_escape(part_id)), element, inputs,
                           lambda: draw(body, inputs) if body else "")
    return Markup(parts_tag.placed(drawn, context.get(parts_tag.SINK)))  # noqa: S704 - the body escaped by its template, the id here


class _Environment(Environment):
    """Jinja2's environment with Django's lookup order for dictionaries: ``item.key`` is ``item["key"]`` first.

    The views the templates draw are dictionaries; Jinja2 alone would try an attribute first (a failed
    ``getattr`` per field, and ``t.items`` the method rather than the key).
    """

    def getattr(self, obj: Any, attribute: str) -> Any:
        """``obj.attribute`` in a template: the key ``attribute`` of a dictionary, else Jinja2's own lookup."""
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


def environment(**options: Any) -> Environment:
    """A Jinja2 :class:`~jinja2.Environment` for Django's ``Jinja2`` backend (its ``OPTIONS["environment"]``).

    ``options`` are the backend's (loader, ``auto_reload``...). Autoescaping is forced on, and a missing
    value prints as nothing in every mode, and so does any key of it (``view.private.hand`` of a view without
    ``private``), as in Django templates (the backend's default would print ``{{ name }}`` with ``DEBUG`` on: a
    page would differ between development and production). Returns the
    environment with the i18n extension bound to Django's ``gettext`` and ``ngettext`` and the project's
    filters listed in the module docstring.
    """
    options["autoescape"] = True
    options["undefined"] = ChainableUndefined
    extensions = list(options.pop("extensions", ()))
    if "jinja2.ext.i18n" not in extensions:
        extensions.append("jinja2.ext.i18n")
    env = _Environment(extensions=extensions, **options)
    # Not Jinja2's new style: these take their values themselves, to escape a translation as Django's tag would.
    env.install_gettext_callables(_gettext, _ngettext, newstyle=False, pgettext=_pgettext)  # type: ignore[attr-defined]
    env.globals["_"] = _translate
    layout, words = game_filters()
    env.globals["sep"] = sep  # {{ sep() }}: the status-line separator of every language (games/text/words.py)
    env.globals["list_comma"] = list_comma  # {{ list_comma() }}: Django's {% list_comma %}, ", " or "، "
    env.globals["list_semicolon"] = list_semicolon  # {{ list_semicolon() }}: Django's {% list_semicolon %}
    env.globals["url"] = _url
    env.globals["csrf_input"] = _csrf_input
    env.globals["static"] = static  # {{ static("<slug>/<slug>.css") }}: Django's {% static %}
    env.globals["part"] = part
    env.filters.update({"get": get, "bdi": bdi, "bdi_joined": bdi_joined, "bdi_list": bdi_list, "term": term,
                        "seat_names": seat_names, "regroup": regroup,
                        "msgid": msgid, "localize": _remembered(localize), "widthratio": widthratio,
                        **django_text_filters(),
                        **{name: _held(regroup_) for name, regroup_ in layout.items()},
                        **{name: _remembered(shown) for name, shown in words.items()}})
    return env
