"""The engine contract shared by every game (see shared/DESIGN.md, "The engine contract").

Nothing below ``games/engines/`` imports Django. An engine is a subclass of
:class:`Game`, built once per table from the table's immutable options and
seats; its methods are pure functions of the state they are given.

Shapes at the boundary (what the web layer sees):

* state: whatever the engine likes internally (frozen dataclasses are
  preferred), converted with :meth:`Game.encode` / :meth:`Game.decode` to a
  JSON-serialisable ``dict``.
* action: a JSON ``dict`` with a ``"kind"`` key plus named fields, exactly
  what a phone posts, e.g. ``{"kind": "move", "pawn": 2, "card": "7"}``.
* chance actions (draw, roll, reveal) carry their outcome in the payload. In
  digital mode the server fills it with :meth:`Game.fill_chance` before
  :meth:`Game.apply`; in physical mode the player types it in and
  :meth:`Game.apply` checks it is still possible. ``apply`` never consults an
  RNG, so replaying the log needs no RNG.

A refusal is an :class:`~games.engines.errors.IllegalAction` (defined in
:mod:`games.engines.errors`, below this module and :mod:`games.engines.schema`,
and importable from here as well).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.engines import schema
from games.engines.errors import JSON, IllegalAction, gettext_noop, jsonable


@dataclass(frozen=True)
class SeatInfo:
    """One player at the table as the engine sees it.

    ``index`` is 0-based clockwise from the first player; ``colour`` is the
    game's colour name (``"red"``); ``team`` is used by team variants (Sorry!
    partners) and is ``None`` otherwise.
    """

    index: int
    name: str
    colour: str
    team: int | None = None


@dataclass(frozen=True)
class Prompt:
    """Who must act now, and how.

    ``seats``: the seat indexes that must act (several for simultaneous
    secret steps such as Amun-Re offerings; empty when the game is over).
    ``kinds``: the action kinds open to them. ``chance``: the step is a
    draw/roll/reveal whose outcome the server fills in digital mode.
    ``text``: an English sentence for the phones (marked with
    :func:`gettext_noop`), with ``{placeholders}`` filled from ``details``.
    ``step``: a short machine name of the step (``"draw"``, ``"war_support"``)
    that templates can switch on.
    """

    seats: tuple[int, ...]
    kinds: tuple[str, ...]
    text: str = ""
    chance: bool = False
    step: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)

    def as_json(self) -> JSON:
        """The prompt as sent to phones and the API."""
        return {
            "seats": list(self.seats),
            "kinds": list(self.kinds),
            "text": self.text,
            "chance": self.chance,
            "step": self.step,
            "details": jsonable(self.details),
        }


@dataclass(frozen=True)
class LogLine:
    """One log line as one viewer may read it.

    ``text`` is English with ``{placeholders}`` filled from ``details``;
    ``private`` is true when the line shows something only this viewer may
    see (their own draw).
    """

    text: str
    details: Mapping[str, Any] = field(default_factory=dict)
    private: bool = False


def fill(text: str, details: Mapping[str, Any] | None, translate: Any = None, term: Any = None,
         separator: str = ", ") -> str:
    """``text`` with ``{placeholders}`` filled from ``details``, for people to read.

    ``translate(s)`` translates a template (identity by default: English, as
    the golden transcripts print it); ``term(key, value)`` turns one plain
    detail value into what is shown (e.g. ``"black"`` into the reader's word
    for it; identity by default). A value that is a :class:`LogLine` is
    filled the same way (a sentence built from parts, e.g. a Sorry! move in
    words); a list or tuple is filled item by item and joined with
    ``separator``; a mapping is a bundle of counts (``{"wood": 2, "gold": 1}``:
    "2 wood and 1 gold"). A template whose placeholders the details miss is shown
    unfilled rather than raising.
    """
    translate = translate or (lambda s: s)
    term = term or (lambda key, value: value)

    def one(key: str, value: Any) -> Any:
        if isinstance(value, LogLine):
            return fill(value.text, value.details, translate, term, separator)
        if isinstance(value, (list, tuple)):
            return separator.join(str(one(key, v)) for v in value)
        if isinstance(value, Mapping):  # a bundle {"wood": 2, "gold": 1}: "2 wood and 1 gold"
            parts = [f"{count} {one(key, item)}" for item, count in value.items()]
            if len(parts) < 2:
                return "".join(parts)
            return translate(gettext_noop("{first} and {second}")).format(first=separator.join(parts[:-1]), second=parts[-1])
        return term(key, value)

    shown = translate(text) if text else ""
    if not details:
        return shown
    try:
        return shown.format(**{k: one(k, v) for k, v in details.items()})
    except (KeyError, IndexError, ValueError):
        return shown


@dataclass(frozen=True)
class OptionSpec:
    """One table option: name, default, allowed choices and the rule it toggles.

    ``choices`` is a tuple of allowed values (booleans allowed for flags);
    ``help`` cites the rules file section the option comes from.
    """

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    help: str = ""


#: The ways a table may decide who starts: the two asked questions, a card drawn by
#: every player (ties draw again), the table's seeded RNG, the host's pick, and the last game's winner.
START_RULES: tuple[str, ...] = ("youngest", "oldest", "highest_card", "random", "chosen", "winner")

COMPONENTS = OptionSpec(
    "components",
    "digital",
    ("digital", "physical"),
    gettext_noop("digital: the server draws and rolls; physical: you enter what the real deck, bag or die gave"),
)


def kept_view[T](holder: object | None, same: tuple[Any, ...], equal: tuple[Any, ...], make: Callable[[], T]) -> T:
    """``make()`` (what every viewer of a state sees), kept on ``holder`` (the engine) for the last state asked.

    The platform asks the view of every seat and of the table screen on each move; an engine builds their common
    part once and gives each viewer a new dictionary over its very pieces. Kept while the objects ``same`` (the
    state, and what else it is made of) are the very ones asked before and the values ``equal`` are equal; one
    slot per engine (the newest asked). ``holder`` ``None``: made for this call. Never mutate what it returns.
    """
    if holder is None:
        return make()
    held = holder.__dict__.get("_public_view")
    if held is not None and len(held[0]) == len(same) and all(a is b for a, b in zip(held[0], same, strict=True)) \
            and held[1] == equal:
        return held[2]
    made = make()
    holder.__dict__["_public_view"] = (same, equal, made)
    return made


class Game:
    """Base class of every engine: one ruleset (options + seats), no state.

    Subclasses set the class attributes and implement the methods marked
    "must". ``options`` are validated by :meth:`validate_options` at
    construction and never change for the table's life (except
    ``components``, which may switch between digital and physical).
    """

    slug: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    colours: ClassVar[tuple[str, ...]] = ("red", "blue", "yellow", "green")
    # Internal names an engine puts in a sentence's details ({"cutlass": "cutlass"}: value -> English msgid,
    # marked with gettext_noop): the web layer shows each in the reader's words (games/text/words.py).
    terms: ClassVar[Mapping[str, str]] = {}
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (COMPONENTS,)
    #: Chance action kinds and the payload fields that hold their outcome (``{"draw": ("card",)}``).
    #: In digital mode the server fills these; a phone that sends one is refused (it would pick its card).
    chance_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: Action kinds that reveal something hidden besides a chance outcome (a province card, a sealed
    #: offering): a player may not take such a move back, since the table has seen what it showed.
    reveal_kinds: ClassVar[tuple[str, ...]] = ()
    #: Refusal codes of a physical entry (a draw typed in by its drawer) that may depend on other seats'
    #: hidden values: the drawer is offered every outcome it cannot rule out, so such a refusal means only
    #: another seat's hidden hand rules the outcome out. The write path logs each one publicly.
    hidden_refusals: ClassVar[tuple[str, ...]] = ()

    #: Who starts: the printed rule of the game's rulebook, one of :data:`START_RULES`
    #: (``youngest``, ``oldest``, ``highest_card``, ``random``); ``start_alternatives`` are other printed
    #: ways the rulebook allows; ``start_source`` is the one sentence the lobby shows as the rule's help (no section number); ``next_game_start`` is the
    #: rule for a next game with the same players (``winner``: the winner of the last game starts), or
    #: ``None`` when the printed rule applies again. A game that sets ``start_rule`` implements :meth:`with_start`.
    start_rule: ClassVar[str | None] = None  # None: the engine has no start step (seat 0 starts)
    start_alternatives: ClassVar[tuple[str, ...]] = ()
    start_source: ClassVar[str] = ""
    next_game_start: ClassVar[str | None] = None

    #: The declared payload schema of every action kind, built with :mod:`games.engines.schema`. When left
    #: ``None`` it is read from ``SCHEMA`` in the engine package's ``actions`` module, if there is one.
    payload_schema: ClassVar[Mapping[str, Any] | None] = None

    def __init__(self, options: Mapping[str, Any] | None, seats: Sequence[SeatInfo]) -> None:
        self.seats = tuple(seats)
        if not self.min_seats <= len(self.seats) <= self.max_seats:
            raise IllegalAction(
                "seat_count",
                gettext_noop("{title} is played by {min} to {max} players, not {n}."),
                title=self.title,
                min=self.min_seats,
                max=self.max_seats,
                n=len(self.seats),
            )
        self.check_options_shape(options or {})
        self.options = self.validate_options(options or {})

    # -- options -----------------------------------------------------------

    @classmethod
    def default_options(cls) -> JSON:
        """Every option with its default value."""
        return {spec.name: spec.default for spec in cls.option_specs}

    def validate_options(self, options: Mapping[str, Any]) -> JSON:
        """Return the full option dict (defaults filled) or raise ``IllegalAction("bad_option")``.

        Subclasses may extend this for cross-option checks (call super first).
        """
        specs = {spec.name: spec for spec in self.option_specs}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            raise IllegalAction("bad_option", gettext_noop("Unknown option {name}."), name=unknown[0])
        result = self.default_options()
        for name, value in options.items():
            spec = specs[name]
            if spec.choices and value not in spec.choices:
                raise IllegalAction(
                    "bad_option",
                    gettext_noop("Option {name} must be one of {choices}, not {value}."),
                    name=name,
                    choices=list(spec.choices),
                    value=value,
                )
            result[name] = value
        return result

    def seat_colours(self) -> list[str]:
        """The colour each seat really plays, in seat order (default: the colours chosen in the lobby).

        A game whose edition or board fixes colours overrides this; the web
        layer stores these on the seats so chips and pieces agree.
        """
        return [seat.colour for seat in self.seats]

    def seat_teams(self) -> list[int | None]:
        """The team each seat plays in, in seat order: ``0``, ``1``, ... or ``None`` (no teams).

        Default: the teams given in the lobby (``SeatInfo.team``). A game whose rules form the teams (Sorry!'s
        team game pairs colours) overrides this; exports name these teams.
        """
        return [seat.team for seat in self.seats]

    @property
    def physical(self) -> bool:
        """True when a person enters what the real deck, bag or die gave."""
        return self.options.get("components") == "physical"

    # -- the contract ------------------------------------------------------

    def setup(self, rng: random.Random) -> Any:
        """Must: return the opening state. Random set-up uses ``rng`` only."""
        raise NotImplementedError

    def prompt(self, state: Any) -> Prompt:
        """Must: who must act now and which action kinds are open."""
        raise NotImplementedError

    def legal_actions(self, state: Any, seat: int) -> list[JSON]:
        """Must: every legal action of ``seat`` now, as ready-to-post payloads.

        In digital mode a chance action is listed without its outcome
        (``{"kind": "draw"}``); in physical mode one payload per possible
        outcome is listed. Empty when ``seat`` has nothing to do.
        """
        raise NotImplementedError

    def apply(self, state: Any, seat: int, action: Mapping[str, Any]) -> Any:
        """Must: return the state after ``seat`` plays ``action``; never mutate ``state``.

        Raises :class:`IllegalAction` with a code naming the rule.
        """
        raise NotImplementedError

    def fill_chance(self, state: Any, seat: int, action: Mapping[str, Any], rng: random.Random) -> JSON:
        """Return ``action`` with its chance outcome filled from ``rng`` (digital mode).

        Non-chance actions, and chance actions whose outcome is already
        present, are returned unchanged. The default returns a copy.
        """
        return dict(action)

    def canonical(self, state: Any, seat: int, action: Mapping[str, Any]) -> JSON:
        """The payload to store for ``action`` played by ``seat`` on ``state``: what the log line and replays read.

        The write path calls it after :meth:`fill_chance` and before
        :meth:`apply`, so a field the engine derives (not chosen by the player,
        nor a chance outcome) is stored the same whether the phone posted it
        or left it out: a posted action and the same action as
        :meth:`legal_actions` lists it are stored alike. A field the phone did
        post is kept as posted; :meth:`apply` still checks it. Never raises for
        an illegal action (``apply`` refuses it with its own code) and never
        consults an RNG. Default: a copy of ``action``. Yellow & Yangtze fills
        in the ``outcome`` of the move that settles a conflict and the
        ``owners`` of a war side (rules §5).
        """
        return dict(action)

    def refusal_is_hidden(self, exc: IllegalAction) -> bool:
        """True when refusal ``exc`` of a physical entry may depend on another seat's hidden values.

        Such a refusal tells its drawer something about the others' hands
        (the bag or pile is the whole set less the board and every hand), so
        the write path records every one as a public log line without
        content (``games.write.moves.submit_action``). Default: the code is in
        :attr:`hidden_refusals` and the components are physical.
        """
        return self.physical and exc.code in self.hidden_refusals

    def reveals(self, action: Mapping[str, Any]) -> bool:
        """True when logged ``action`` showed the table a chance outcome or something hidden.

        A draw, roll or deal whose payload carries its outcome (a field of
        :attr:`chance_fields`), or a kind listed in :attr:`reveal_kinds`.
        A player may not take such a move back (it would
        let them draw again); the host's undo and corrections still can.
        """
        if not isinstance(action, Mapping):
            return False
        kind = action.get("kind")
        if kind in self.reveal_kinds:
            return True
        return any(f in action for f in self.chance_fields.get(kind, ()))  # type: ignore[arg-type]

    def check_payload(self, action: Any) -> None:
        """Refuse a posted ``action`` whose shape its kind's declared schema does not allow.

        Checked at the edge (API, phone pages, corrections) before anything is
        stored. Raises ``IllegalAction`` (``bad_action``, ``unknown_action``,
        ``bad_payload``, ``too_large``, ``too_deep``, ``nul_character``); see
        :func:`games.engines.schema.check_action`. A game without a declared
        schema gets the generic checks only (an object with a kind, size, depth, no NUL).
        """
        schema.check_action(self.action_schemas(), action)

    @classmethod
    def check_options_shape(cls, options: Any) -> None:
        """Refuse edition data in ``options`` whose shape ``OPTIONS_SCHEMA`` of the engine's ``actions`` module
        forbids (``IllegalAction("bad_edition")``), before ``validate_options`` reads it."""
        cls.action_schemas()
        schema.check_options(getattr(cls, "_options_schema", None), options)

    @classmethod
    def action_schemas(cls) -> Mapping[str, Any] | None:
        """The declared schemas by kind: ``payload_schema``, else ``<engine package>.actions.SCHEMA``, else ``None``."""
        if "_schema_looked_up" not in cls.__dict__:
            try:
                module = importlib.import_module(f"{cls.__module__}.actions")
            except ModuleNotFoundError:
                module = None
            if cls.payload_schema is None:
                cls.payload_schema = getattr(module, "SCHEMA", None)
            cls._options_schema = getattr(module, "OPTIONS_SCHEMA", None)  # type: ignore[attr-defined]
            cls._schema_looked_up = True  # type: ignore[attr-defined]
        return cls.payload_schema

    def refuse_client_outcome(self, action: Mapping[str, Any]) -> None:
        """In digital mode, raise ``IllegalAction("outcome_from_server")`` if ``action`` names its own chance outcome.

        DESIGN.md "The engine contract": in digital mode the server draws,
        rolls and reveals; only in physical mode does a person type in what
        the real deck, bag or die gave.
        """
        if self.physical or not isinstance(action, Mapping):
            return
        fields = self.chance_fields.get(action.get("kind"), ())  # type: ignore[arg-type]
        named = [f for f in fields if f in action]
        if named:
            raise IllegalAction(
                "outcome_from_server",
                gettext_noop("In digital mode the app draws and rolls: leave out {field}, or switch the table "
                             "to physical components to enter what the real one gave."),
                field=named[0],
            )

    def with_start(self, state: Any, seat: int) -> Any:
        """Must: the opening ``state`` with ``seat`` as the start player; play then goes clockwise from it.

        Called once, before the first move, when the table decided who starts.
        Seat indexes are clockwise round the real table, so
        only the seat in turn (and any start-player token) changes. Raises
        ``IllegalAction("bad_start")`` for a seat that is not at the table.
        """
        raise NotImplementedError

    def setup_start(self, state: Any) -> int | None:
        """May: the start player :meth:`setup` drew at random into the opening ``state`` (a game whose rulebook
        has the start player drawn as part of the set-up), or ``None`` when the set-up draws none (seat 0
        starts until the table decides otherwise)."""
        return None

    def start_cards(self) -> dict[str, int] | None:
        """The deck a "highest card" start is drawn from (card -> copies), or ``None`` when the game has none."""
        return None

    def start_card_rank(self, card: str) -> int:
        """How high ``card`` counts when the start player is drawn (higher starts)."""
        return 0

    def check_start_seat(self, seat: Any) -> int:
        """``seat`` if it is a seat index of this table, else ``IllegalAction("bad_start")``."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise IllegalAction("bad_start", gettext_noop("The start player must be one of the seats at the table."))
        return seat

    def view(self, state: Any, seat: int | None) -> JSON:
        """Must: the state as ``seat`` may see it (``None``: the public/table view).

        Built from allowed pieces only: no other seat's hand, screen, sealed
        bid, and never the order of a bag or deck.
        """
        raise NotImplementedError

    def result(self, state: Any) -> JSON | None:
        """Must: ``None`` while the game runs; then the ranking with every tally step.

        Shape: ``{"winners": [seat, ...], "ranking": [{"seat", "place", "rank", ...}],
        "steps": [{"text", "details"}], "ties": [{"text", "details"}]}`` (games
        may add keys). ``rank`` comes from the game's full ordering key: equal
        after every tie-break, equal rank (1, 1, 3); ``ties`` names, for each
        pair of neighbours level on score, the tie-break that separated them
        (also among ``steps``); see :mod:`games.engines.ranking`.
        """
        raise NotImplementedError

    def standing(self, state: Any) -> JSON | None:
        """The count of an unfinished position, for a game the host stopped before its end; ``None`` by default.

        Shape: ``{"ranking": [{"seat", "place", "rank", "score", ...}], "steps": [{"text", "details"}],
        "ties": [{"text", "details"}]}``, best first, as :meth:`result` but with no ``winners``: nobody won a
        game that did not end. A game counts here only what its final tally would count now (Yellow &
        Yangtze: each screen's points; Sorry!: pawns HOME), and nothing that :meth:`ended_view` does not show
        every seat as well, since every phone reads the standing. A game whose score means nothing before
        its end keeps ``None``: the phones then say the game ended, without a ranking.
        """
        return None

    def score_track(self, state: Any) -> JSON | None:
        """What a chart of the finished game follows at ``state``, a position on the way; ``None`` by default.

        Shape: ``{"label": msgid, "scores": [int per seat]}``: each seat's count as the game's own tally counts
        it at that point (Yellow & Yangtze: the lowest colour with the yellow points spread, §7; Sorry!: pawns
        HOME or their points; Amun-Re: honour; Catan Junior: lairs). ``label`` (a ``gettext_noop`` text) names
        what is counted. The platform calls it on every position of the counted log once the game is over, so
        it may count what the end reveals (screened points), and must stay cheap. A game without a running
        count keeps ``None``: its tally has no chart.
        """
        return None

    def ended_view(self, state: Any, seat: int | None) -> JSON:
        """The view of ``seat`` once the host ended the game before its end (the table is closed for good).

        What the game's own end reveals (Yellow & Yangtze: every screen, rules §7) beside the
        position, and nothing more: a secret the end of the game does not open (a sealed Amun-Re offering
        still being made, a Sorry! points hand, a Yellow & Yangtze hand of tiles) stays on its owner's phone. Defaults to :meth:`view`.
        """
        return self.view(state, seat)

    def describe(self, seat: int, action: Mapping[str, Any], viewer: int | None) -> LogLine:
        """Must: the log line for ``action`` by ``seat`` as ``viewer`` may read it.

        ``action`` is the stored payload (outcome included); hide any part
        ``viewer`` may not see (another seat's drawn tiles).
        """
        raise NotImplementedError

    def label(self, seat: int, action: Mapping[str, Any]) -> LogLine:
        """The text of the button that posts ``action`` (imperative: "Draw a card").

        Defaults to the log line as the acting seat reads it; override for
        better button wording.
        """
        return self.describe(seat, action, seat)

    def encode(self, state: Any) -> JSON:
        """Must: the state as a JSON-serialisable dict (snapshot format)."""
        raise NotImplementedError

    def decode(self, data: Mapping[str, Any]) -> Any:
        """Must: the inverse of :meth:`encode`; ``decode(encode(s)) == s``."""
        raise NotImplementedError

    # -- helpers shared by every engine -----------------------------------

    def is_over(self, state: Any) -> bool:
        """True once :meth:`result` has a result."""
        return self.result(state) is not None

    def ensure_turn(self, state: Any, seat: int, kind: str) -> Prompt:
        """Raise unless ``seat`` may play an action of ``kind`` now; return the prompt.

        Codes: ``game_over``, ``not_your_turn``, ``wrong_step``.
        """
        if self.is_over(state):
            raise IllegalAction("game_over", gettext_noop("The game is over."))
        prompt = self.prompt(state)
        if seat not in prompt.seats:
            raise IllegalAction(
                "not_your_turn",
                gettext_noop("It is not your turn: waiting for {waiting}."),
                waiting=[self.seats[s].name for s in prompt.seats],
            )
        if kind not in prompt.kinds:
            raise IllegalAction(
                "wrong_step",
                gettext_noop("That move is not possible at this step of the turn."),
                kind=kind,
                kinds=list(prompt.kinds),
            )
        return prompt


def action_kind(action: Mapping[str, Any]) -> str:
    """Return ``action["kind"]`` or raise ``IllegalAction("bad_action")``."""
    kind = action.get("kind") if isinstance(action, Mapping) else None
    if not isinstance(kind, str) or not kind:
        raise IllegalAction("bad_action", gettext_noop("An action needs a kind."))
    return kind


def require(action: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    """Return field ``name`` of ``action`` checked against ``kind``, else ``IllegalAction("bad_action")``.

    Booleans are refused where an int is asked (JSON ``true`` is not a pawn number).
    """
    if name not in action:
        raise IllegalAction("bad_action", gettext_noop("The action lacks the field {name}."), name=name)
    value = action[name]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise IllegalAction("bad_action", gettext_noop("Field {name} has the wrong type."), name=name)
    if not isinstance(value, kind):
        raise IllegalAction("bad_action", gettext_noop("Field {name} has the wrong type."), name=name)
    return value
