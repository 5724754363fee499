"""What the web platform needs to know about one game, declared beside its engine.

Each game package holds, next to its engine, a module ``web.py`` with one :class:`WebAdapter` named
``ADAPTER``. The platform (walkthrough, rules at hand, draw statistics, lobby options, glossary,
regions, exports, editors and URLs) reads these declarations through the registry
(:func:`games.engines.get_adapter`, :func:`games.engines.adapters`) and never names a game.

Everything here is plain data and plain functions, like the engines: no Django import (the
``engines-plain`` import contract checks it). Player-facing strings are ``gettext_noop`` templates
with ``{placeholders}``; the web layer translates them when it shows them (``games/text/words.py``).

A field left at its default means the game has no such thing (no chance device, no editor, no
walkthrough); a field the platform cannot do without has no default, so a game whose adapter lacks
it fails at import with a ``TypeError`` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import Game, LogLine

# -- the set-up walkthrough ------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One checkable step of the set-up walkthrough.

    ``id``: stable key (kept on the table when ticked); ``text``: a ``gettext_noop`` template;
    ``details``: its placeholders; ``source``: the rules-file section it comes from.
    """

    id: str
    text: str
    details: Mapping[str, Any]
    source: str


# -- rules at hand ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """One page of a game's rules-at-hand reference.

    ``key``: the URL slug and the ``== key:`` header in every language file
    (``shelf/<slug>/rules_at_hand/<lang>.txt``). ``cites``: the rules-file sections it is based on
    (``"2.3, 2.4"``). ``options``: table options (engine ``OptionSpec`` names) that change this
    section. ``variant``: the flag option that turns the whole section on (Sorry! team/points).
    """

    key: str
    cites: str
    options: tuple[str, ...] = ()
    variant: str | None = None


# -- lobby words -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionWords:
    """What a player reads about one option: ``label``, one-line ``explain``, ``values`` by machine value.

    ``values`` maps each allowed machine value to its name (booleans are checkboxes and need none);
    for an edition-profile option, ``values[None]`` names the shipped default. ``group`` is a key of
    ``games.text.option_words.GROUPS`` (or ``"first"``); ``rules`` is the maintainers' rules-file citation
    (never shown). All strings are ``gettext_noop`` templates, translated when the lobby builds its form.
    """

    label: str
    explain: str
    group: str
    rules: str
    values: Mapping[Any, str] = field(default_factory=dict)


# -- glossary --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """One game term: how English writes it (``english``, a regex) and the word each language uses for it.

    ``words[lang]`` is a tuple: the glossary word, then other forms of the same word (inflections,
    plural stems) accepted in running text. ``avoid[lang]`` lists drifted spellings that must not
    appear anywhere in that language's texts. ``reverse`` makes the first form of ``words[lang]`` belong
    to this term alone within its scope (checked in both directions). ``source``: where the word is
    taken from (a seed file and its phrase).
    """

    english: str
    words: Mapping[str, tuple[str, ...]]
    avoid: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    reverse: bool = False
    source: str = ""

    def word(self, lang: str) -> str:
        """The glossary word of this term in ``lang`` (``"fa"``, ``"az"`` or ``"ps"``)."""
        return self.words[lang][0]


def term(english: str, fa: tuple[str, ...] | str, az: tuple[str, ...] | str, ps: tuple[str, ...] | str, *,
         avoid: Mapping[str, tuple[str, ...]] | None = None, reverse: bool = False, source: str = "") -> Term:
    """A :class:`Term` written compactly: one word or a tuple of forms per language, in the order fa, az, ps."""
    def forms(w: tuple[str, ...] | str) -> tuple[str, ...]:
        return (w,) if isinstance(w, str) else w
    return Term(english, {"fa": forms(fa), "az": forms(az), "ps": forms(ps)}, avoid or {}, reverse, source)


# -- chance ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChanceDevice:
    """A game's die, deck or bag as the draw statistics count it.

    ``what``: ``"die"``, ``"cards"`` or ``"tiles"`` (the statistics' headings); ``kind``: the action
    kind that holds an outcome (``"roll"`` / ``"draw"``); ``field``: the payload field with the outcome
    (a value or a list of values); ``shares``: each value's chance of one draw (they sum to 1);
    ``hidden``: draws go into hidden hands, so their counts are shown only once the game is over.
    """

    what: str
    kind: str
    field: str
    shares: Mapping[str, float]
    hidden: bool = False


# -- editors ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Editor:
    """A page where a player copies their box's printed data into an edition profile.

    ``option``: the engine option the profile fills; ``path``: the URL part under
    ``/editions/<slug>/`` (the page is named ``games:<slug>_<path>``); ``view``: the dotted path of its
    Django view (``"module:function"``), imported by the URLconf; a module name starting with a dot is in the
    game's own package: ``".editor:calibrate"`` is ``shelf/<slug>/editor.py``, the one module of a game that
    imports Django (nothing else of it may); ``title``: the link on the editions page (``gettext_noop``).
    """

    option: str
    path: str
    view: str
    title: str


# -- the adapter -----------------------------------------------------------------------------------


def no_walkthrough(game: Game, players: int) -> list[Step]:
    """The walkthrough of a game that has none."""
    return []


def no_chance(game: Game) -> ChanceDevice | None:
    """The chance device of a game without one."""
    return None


@dataclass(frozen=True)
class WebAdapter:
    """Everything the platform needs about one game, declared once next to its rules.

    Required:

    - ``sections``: the rules-at-hand reference in reading order.
    - ``refusals``: every refusal code the engine raises -> the section (``"key"`` or ``"key#anchor"``)
      that explains it, the base engine's codes (``not_your_turn``, ``wrong_step``, ``game_over``,
      ``seat_count``) included.
    - ``option_words``: the lobby words of every engine option, by option name.
    - ``glossary``: the game's own terms (the colours are shared), by key; a ``"title"`` term names the box.

    Optional (default: the game has none):

    - ``walkthrough(game, players) -> [Step]``: the set-up steps for this player count and options.
    - ``step_sections``: prompt step -> the section explaining it ("How does this work?").
    - ``step_section(prompt) -> section | None``: overrides ``step_sections`` when the step alone does not
      say (Sorry!'s move step is explained by the card drawn).
    - ``chance(game) -> ChanceDevice | None``: the die, deck or bag the draw statistics count.
    - ``value_words``: machine values the platform shows bare (a card in the draw statistics and the
      start draw) that players name by a word: value -> ``gettext_noop`` word (a card called by its
      name rather than a number); any other value is shown as it is.
    - ``static_view_keys``: view keys that never change during a game (drawn once per page, not pushed).
    - ``board_needs_seat``: ``False`` when the board region is the same for every seat (drawn once per
      revision and language, not once per phone).
    - ``template_filters``: name -> function, registered for the game's board templates (both the
      Django ``companion`` library and the Jinja2 environment): pure layout helpers (tap targets regrouped
      from the legal actions). Prefix the names with the game's (``<slug>_destinations``): one name, one game.
    - ``template_words``: name -> function returning an engine ``LogLine`` (``text`` template + ``details``),
      registered the same way and shown translated in the page's language (a pawn's or a square's name).
    - ``editors``: the edition editors of the game.
    - ``bgg_id``: BoardGameGeek's id of the box (BG Stats export), only when verified.
    - ``positions(position, card, options) -> [str]``: the ``manage.py rules`` command's "legal moves of
      this position" question, for a game with a position notation (raises ``IllegalAction`` on a bad one).
    - ``rule_examples``: rules section key -> ``shows(game, state, seat, action) -> bool``, true for a position
      that shows what the section describes (``state`` after ``seat`` played ``action``; ``None`` for the
      opening): the section's page draws the first such position of a seeded self-played game with the
      game's own board templates, as the table screen shows it (games/pages/rule_pictures.py).
    """

    sections: tuple[Section, ...]
    refusals: Mapping[str, str]
    option_words: Mapping[str, OptionWords]
    glossary: Mapping[str, Term]
    walkthrough: Callable[[Game, int], list[Step]] = no_walkthrough
    step_sections: Mapping[str, str] = field(default_factory=dict)
    step_section: Callable[[Mapping[str, Any]], str | None] | None = None
    chance: Callable[[Game], ChanceDevice | None] = no_chance
    value_words: Mapping[str, str] = field(default_factory=dict)
    static_view_keys: tuple[str, ...] = ()
    board_needs_seat: bool = True
    template_filters: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    template_words: Mapping[str, Callable[[Any], LogLine]] = field(default_factory=dict)
    editors: tuple[Editor, ...] = ()
    bgg_id: int | None = None
    positions: Callable[[str, str, Mapping[str, Any]], list[str]] | None = None
    rule_examples: Mapping[str, Callable[[Game, Any, int | None, Mapping[str, Any] | None], bool]] = field(
        default_factory=dict)
