"""What one seat (or the table screen) is shown: the per-seat view, prompt, legal taps, log.

Every page, fragment, API answer and websocket frame is built from
:func:`seat_context`, which reads the state only through the engine's
``view``, ``legal_actions`` and ``describe`` for that viewer
(shared/STYLE.md principle 7). No template or consumer touches the raw state.
"""

from __future__ import annotations

import functools
import hashlib
import json
import weakref
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from django.template import TemplateDoesNotExist, engines
from django.utils.translation import get_language, gettext, override

from games.engines import get_adapter
from games.engines.base import Game, IllegalAction, LogLine, Prompt, gettext_noop
from games.models import Action, Table
from games.read import end_chart
from games.read.chance_stats import chance_stats, counted_draws, drawn, public_draws, reads_log
from games.read.snapshots import LOG_LINES, Snapshot, for_table
from games.record import setup
from games.text.words import clause_separator, isolate, list_separator, names_list, show
from games.write.moves import own_undo_target


def tr(text: str, details: Mapping[str, Any] | None = None) -> str:
    """Translate an engine's English template, then fill ``{placeholders}`` from ``details``.

    Terms (colours, resources) in the details are translated too, names isolated
    and lists joined with the language's comma (:func:`games.text.words.show`).
    """
    return show(text, details)


def static_view_keys(slug: str) -> tuple[str, ...]:
    """The parts of a game's view that never change during a game (board geometry; its adapter's
    ``static_view_keys``): drawn by the static region, left out of the other regions' digests."""
    return get_adapter(slug).static_view_keys


def static_view(slug: str, view: Mapping[str, Any]) -> dict[str, Any]:
    """The fixed geometry of a game's board, taken from a view (the same for every viewer)."""
    return {key: view.get(key) for key in static_view_keys(slug)}


_LINE_FIELDS = ("seq", "kind", "text", "who", "private", "counted", "corrected", "original", "dropped")


class ShownLine(dict):
    """A log line as :func:`log_lines` builds it from a snapshot (a plain ``dict`` to every reader), with its
    :func:`line_key` made once, when it was built. Never mutated once built."""

    __slots__ = ("key",)


def line_key(line: Mapping[str, Any]) -> tuple[Any, ...]:
    """What identifies a log line's content: the fields its template shows (made once for a :class:`ShownLine`)."""
    key = getattr(line, "key", None)
    return key if key is not None else tuple(map(line.get, _LINE_FIELDS))


class _NotPlain(Exception):
    """A detail value :func:`_plain` does not know: the sentence is made without the cache."""


def _plain(value: Any) -> Any:
    """``value`` (a detail of a log line) as a hashable key that tells apart everything :func:`tr` may show
    differently: exact types (``1``, ``1.0``, ``True``, ``"1"``), order, nested lines. Raises :class:`_NotPlain`
    for anything else (a lazy string, an enum, an object)."""
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return (kind.__name__, value)
    if kind is list or kind is tuple:
        return ("l", tuple(_plain(v) for v in value))
    if kind is dict:
        return ("m", tuple((_plain(k), _plain(v)) for k, v in value.items()))
    if kind is LogLine:
        return ("L", value.text, _plain(value.details), value.private)
    raise _NotPlain


def shared_tr(snap: Snapshot, text: str, details: Mapping[str, Any] | None = None) -> str:
    """:func:`tr`, made once per sentence and language on ``snap`` (and the snapshots that follow it): the
    same line told to every phone of a table (each seat's ``describe`` of a move is often word for word the
    others') is translated once."""
    try:
        key = (get_language(), text, _plain(details))
    except _NotPlain:
        return tr(text, details)
    return snap.memo("text", key, lambda: tr(text, details))


def error_message(exc: IllegalAction) -> str:
    """The translated message of an ``IllegalAction``."""
    return tr(exc.template, exc.details)


def action_label(game: Game, seat: int, payload: Mapping[str, Any]) -> str:
    """The button text of a legal action (the engine's ``label``)."""
    line = game.label(seat, payload)
    return tr(line.text, line.details)


class LegalItem(dict):  # type: ignore[type-arg]
    """One legal action as pages read it: ``{"payload", "json", "kind", "label"}``.

    ``json`` (the action as a page's ``data-action`` writes it, :data:`_ENCODE_ACTION`) and ``label`` (the
    engine's words for the action, translated in the language active when the item was made) are made the
    first time they are read: the active Yellow & Yangtze phone has hundreds of legal placements, and its page
    writes and names only a few of them (the rest are lit hexes). Read them as ``item["json"]`` and
    ``item["label"]`` (as templates do), not with ``get``. They are kept beside the dictionary, not in it, so the
    item's content (what a digest encodes) is the same whether or not they were read: the payload names them.
    """

    __slots__ = ("_encoded", "_labels", "_made")

    def __init__(self, payload: Mapping[str, Any], labels: _Labels) -> None:
        # Item by item rather than dict's keyword init, which costs twice as much (hundreds of items per seat).
        self["payload"] = payload
        self["kind"] = payload.get("kind", "")
        self._labels = labels
        self._encoded = None
        self._made = None

    def __missing__(self, key: str) -> str:
        if key == "json":
            if self._encoded is None:
                self._encoded = _ENCODE_ACTION(self["payload"])
            return self._encoded
        if key != "label":
            raise KeyError(key)
        if self._made is None:
            self._made = self._labels.label(self["payload"], self["json"])
        return self._made


class _Labels:
    """How the items of one :func:`legal_for` call make their labels: ``game``'s words for ``seat``'s action in
    ``language``, memoized on the snapshot ``held`` refers to (under the engine's configuration ``config``) when
    there is one. One per call, shared by its items."""

    __slots__ = ("game", "seat", "language", "held", "config")

    def __init__(self, game: Game, seat: int, language: str | None, snap: Snapshot | None) -> None:
        self.game, self.seat, self.language = game, seat, language
        # Items live in the snapshot's memo: they reach it through a weak reference, so a snapshot no longer in
        # use is freed as soon as it is dropped (a strong one would make a cycle, left to the garbage collector).
        self.held = weakref.ref(snap) if snap is not None else None
        self.config = snap.config_key if snap is not None else None

    def _make(self, payload: Mapping[str, Any]) -> str:
        with override(self.language):  # a label read later, under another language, keeps its own
            return action_label(self.game, self.seat, payload)

    def label(self, payload: Mapping[str, Any], encoded: str) -> str:
        """The label of ``payload`` (``encoded``: its :data:`_ENCODE_ACTION` form, which names it)."""
        snap = self.held() if self.held is not None else None
        if snap is None:
            return self._make(payload)
        return snap.memo("label", (self.config, self.seat, encoded, self.language), lambda: self._make(payload))


#: How a legal action is written in a page's ``data-action`` (compact, keys sorted): one encoder for every action,
#: as ``json.dumps`` with options builds a new one per call.
_ENCODE_ACTION = json.JSONEncoder(separators=(",", ":"), sort_keys=True).encode


def legal_for(game: Game, state: Any, seat: int | None, snap: Snapshot | None = None) -> list[LegalItem]:
    """``seat``'s legal actions as :class:`LegalItem` s (empty for the table screen).

    With ``snap`` (the snapshot ``game`` and ``state`` are from) each label is made once per action, seat,
    language and engine configuration on it and the snapshots that follow it; without it every action is
    labelled anew. Either way a label is made only when it is read.
    """
    if seat is None or game.result(state) is not None:
        return []
    labels = _Labels(game, seat, get_language(), snap)
    return [LegalItem(payload, labels) for payload in game.legal_actions(state, seat)]


#: How :func:`legal_content` writes a list of actions: compact, keys in the engine's order (no sorting).
_ENCODE_ACTIONS = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def legal_content(legal: list[LegalItem] | tuple[LegalItem, ...]) -> str:
    """The payloads of ``legal`` (a :func:`legal_for` list), in order, as one JSON text: what a digest of a
    seat's legal taps encodes (equal text, equal actions).

    One encoding of the whole list, its keys left in the engine's order, instead of one sorted text per action:
    the active Yellow & Yangtze seat has hundreds of actions, and its page writes only a few (``item["json"]``).
    The same actions written with their keys in another order read as other actions: a digest of them then
    differs where it could have matched, and the page is drawn again, never wrongly.
    """
    return _ENCODE_ACTIONS([item["payload"] for item in legal])


def _mark_corrected(entry: dict[str, Any], game: Game, row: Action, replacement: Any, viewer: int | None,
                    translate: Callable[[str, Mapping[str, Any]], str]) -> None:
    """Mark ``entry`` (its ``text`` made from ``replacement``, the agreed correction of ``row``, if any) as corrected
    as ``viewer`` reads it: ``corrected`` and the first entry's text (``original``) where the two read differently.

    An entry behind a screen reads the same before and after for everyone but its owner, so another seat learns
    nothing of whether a correction changed it.
    """
    entry["corrected"] = False
    if replacement is None or replacement == row.payload:
        return
    first = game.describe(row.seat, row.payload, viewer)
    original = translate(first.text, first.details)
    if original != entry["text"]:
        entry["corrected"], entry["original"] = True, original


def _game_line(snap: Snapshot, row: Action, viewer: int | None, name: str, language: str | None) -> ShownLine:
    """One game row of the log as ``viewer`` reads it; built once per content on ``snap`` and the snapshots
    that follow it (this row, its marks, the viewer, the language, the mover's name): never mutated."""
    fix = snap.replaced.get(row.seq)
    undone = row.seq in snap.undone

    def build() -> ShownLine:
        game = snap.game
        shown = fix.payload.get("replacement") if fix else row.payload
        entry = ShownLine(seq=row.seq, kind=row.kind, seat=row.seat, private=False)
        entry["counted"] = not undone and not (fix and shown is None)
        entry["dropped"] = bool(fix) and shown is None
        line: LogLine = game.describe(row.seat, shown if shown is not None else row.payload, viewer)
        entry["text"] = shared_tr(snap, line.text, line.details)
        entry["private"] = line.private
        _mark_corrected(entry, game, row, shown if fix else None, viewer, functools.partial(shared_tr, snap))
        entry["who"] = name
        entry.key = line_key(entry)
        return entry

    return snap.memo("line", (row.seq, fix.seq if fix else 0, undone, viewer, language, name), build)


def _log_line(row: Action, game: Game, viewer: int | None, undone: Any, replaced: Mapping[int, Action],
              names: Mapping[int, str], who: Mapping[int, str]) -> dict[str, Any]:
    """One row of :func:`log_lines` read from the database, as ``viewer`` reads it."""
    if row.kind == Action.Kind.GAME:
        fix = replaced.get(row.seq)
        shown = fix.payload.get("replacement") if fix else row.payload
        entry = {"seq": row.seq, "kind": row.kind, "seat": row.seat, "private": False}
        entry["counted"] = row.seq not in undone and not (fix and shown is None)
        entry["dropped"] = bool(fix) and shown is None
        line: LogLine = game.describe(row.seat, shown if shown is not None else row.payload, viewer)
        entry["text"] = tr(line.text, line.details)
        entry["private"] = line.private
        _mark_corrected(entry, game, row, shown if fix else None, viewer, tr)
        entry["who"] = who.get(row.seat, "")
    else:
        entry = {"seq": row.seq, "kind": row.kind, "seat": row.seat, "private": False,
                 "text": _host_line(row, who, game.slug)}
    return entry


def _hidden_from(game: Game, mover: int, payload: Any, viewer: int | None) -> bool:
    """True when move ``payload`` of seat ``mover`` says more to its mover than ``viewer`` may read (its
    mover's own line is private, or gives other details than ``viewer``'s): an entry only its mover sees."""
    if viewer == mover or not isinstance(payload, Mapping):
        return False
    own = game.describe(mover, payload, mover)
    theirs = game.describe(mover, payload, viewer)
    return own.private or theirs.private or dict(own.details) != dict(theirs.details)


def log_lines(table: Table | Snapshot, game: Game, viewer: int | None, limit: int = LOG_LINES) -> list[dict[str, Any]]:
    """The newest ``limit`` log rows as ``viewer`` may read them, newest first.

    Game rows go through the engine's ``describe`` (which hides other seats'
    private outcomes); undone and corrected rows are marked, never dropped.
    Reads only the rows it shows (one indexed query, or none from a
    :class:`~games.read.snapshots.Snapshot`): an undo row names the move it dropped and a
    correction row its target, and both come after their target. From a
    snapshot, the window is built once per viewer and language on it, and
    each game line is a :class:`ShownLine` built once per content
    (:func:`_game_line`): read them, never mutate them.
    """
    if isinstance(table, Snapshot) and limit <= LOG_LINES:
        snap = table
        return snap.memo("log", (viewer, get_language(), limit), lambda: _snapshot_lines(snap, viewer, limit))
    rows = list(table.actions.order_by("-seq")[:limit])
    rows.reverse()
    undone = {r.payload.get("undone") for r in rows if r.kind == Action.Kind.UNDO}
    replaced = {r.payload.get("target"): r for r in rows if r.kind == Action.Kind.CORRECT
                and "replacement" in r.payload and not (r.payload.get("rejected") or r.payload.get("void"))}
    names = {s.index: s.name for s in table.seats.all()}
    who = {index: isolate(name) for index, name in names.items()}
    return [_log_line(row, game, viewer, undone, replaced, names, who) for row in reversed(rows)]


def _snapshot_lines(snap: Snapshot, viewer: int | None, limit: int) -> list[dict[str, Any]]:
    language = get_language()
    names = {s["index"]: s["name"] for s in snap.seats}
    # A name is isolated once per snapshot and language: isolate() reads the active language's direction.
    who = snap.memo("who", language, lambda: {index: isolate(name) for index, name in names.items()})
    rows = snap.rows[-limit:]
    before = snap.extended("log", (viewer, language, limit))
    if before is not None and rows:
        # This snapshot is the one before plus its newest row (a move: no mark, seat or name changed), so its
        # window is that row's line on top of the lines before, the oldest dropped when the window is full.
        row = rows[-1]
        return [_game_line(snap, row, viewer, who.get(row.seat, ""), language), *before][:len(rows)]
    lines: list[dict[str, Any]] = []
    for row in reversed(rows):
        if row.kind == Action.Kind.GAME:
            lines.append(_game_line(snap, row, viewer, who.get(row.seat, ""), language))
        else:
            lines.append({"seq": row.seq, "kind": row.kind, "seat": row.seat, "private": False,
                          "text": _host_line(row, who, snap.table.slug)})
    return lines


def _host_line(row: Action, names: Mapping[int, str], slug: str) -> str:
    """The log line of a row that is not a game move (undo, correction, end, components) of game ``slug``.

    ``names`` are the seats' names as sentences show them (isolated: :func:`games.text.words.isolate`)."""
    if row.kind == Action.Kind.UNDO:
        undone = row.payload.get("undone")
        if undone and row.payload.get("by") is not None:
            return gettext("%(who)s took back move #%(seq)s.") % {
                "who": names.get(row.payload["by"], "?"), "seq": undone}
        if undone:
            return gettext("The host undid move #%(seq)s.") % {"seq": undone}
        return gettext("The host undid the last move.")
    if row.kind == Action.Kind.CORRECT and row.payload.get("withdrawn"):
        return gettext("%(who)s withdrew the correction of move #%(seq)s; the move stands.") % {
            "seq": row.payload.get("target"), "who": names.get(row.payload.get("by"), "?")}
    if row.kind == Action.Kind.CORRECT and row.payload.get("rejected"):
        by = row.payload.get("by")
        return gettext("The correction of move #%(seq)s was turned down by %(who)s; the move stands.") % {
            "seq": row.payload.get("target"), "who": names.get(by, "?")}
    if row.kind == Action.Kind.CORRECT and row.payload.get("reason") == "seed_revealed":
        return gettext("The correction of move #%(seq)s would reopen a finished game whose seed is revealed; "
                       "it was dropped and the result stands.") % {"seq": row.payload.get("target")}
    if row.kind == Action.Kind.CORRECT and row.payload.get("void"):
        return gettext("The correction of move #%(seq)s no longer fits the later moves and was dropped.") % {
            "seq": row.payload.get("target")}
    if row.kind == Action.Kind.CORRECT:
        return gettext("Correction of move #%(seq)s agreed by the table.") % {"seq": row.payload.get("target")}
    if row.kind == Action.Kind.END:
        return gettext("The host ended the game.")
    if row.kind == Action.Kind.SETUP:  # its payload is the whole opening state: never shown, only named
        return gettext("The opening position was dealt.")
    if row.kind == Action.Kind.START:
        return start_line(row.payload, names, slug)
    if row.kind == Action.Kind.REFUSED:  # never what was typed in: only that a refusal happened
        return gettext("The app refused the draw %(who)s entered; %(who)s is asked to enter it again.") % {
            "who": isolate(names.get(row.seat, "?"))}
    if row.kind == Action.Kind.OPENED:
        return gettext("The seat of %(who)s was opened on another phone.") % {"who": isolate(names.get(row.seat, "?"))}
    if row.payload.get("components") == "physical":
        return gettext("The host switched the components to physical: players enter what the real box gives.")
    return gettext("The host switched the components to digital: the app draws and rolls.")


_START_LINES = {
    "random": gettext_noop("%(who)s starts (drawn at random)."),
    "chosen": gettext_noop("%(who)s starts (chosen by the host)."),
    "winner": gettext_noop("%(who)s starts: the winner of the last game."),
    "youngest": gettext_noop("%(who)s starts: the youngest player."),
    "oldest": gettext_noop("%(who)s starts: the oldest player."),
}


def card_label(card: str, slug: str) -> str:
    """A card of game ``slug`` as the start draw shows it: its number, or the word players name it by (the
    adapter's ``value_words``, in the reader's language)."""
    from games.text.words import translated

    word = get_adapter(slug).value_words.get(card)
    return translated(word) if word is not None else str(card)


def start_line(payload: Mapping[str, Any], names: Mapping[int, str], slug: str) -> str:
    """The log line of a ``start`` row: who starts and why, with every card turned up.

    ``names`` maps seat index to name; each name is isolated in the sentence and lists use the language's
    punctuation (:mod:`games.text.words`).

    Everything in it is public: the start draw is made in front of the
    whole table, before any hand is dealt.
    """
    seat = payload.get("seat")
    who = isolate(names.get(seat, "?")) if seat is not None else ""
    if payload.get("again"):
        return gettext("The host asks again who starts.")
    if payload.get("rule") != "highest_card":
        return gettext(_START_LINES.get(payload.get("rule"), _START_LINES["chosen"])) % {"who": who}
    # Each seat's name isolated, then its card ("Emma 11" keeps its order in a right-to-left line); the seats of a
    # round joined with the language's comma and the rounds with its semicolon.
    rounds = clause_separator().join(list_separator().join(
        f"{isolate(names.get(int(s), '?'))} {card_label(c, slug)}"
        for s, c in sorted(r.items(), key=lambda kv: int(kv[0]))) for r in payload.get("rounds") or [])
    text = gettext("Cards turned up for the start: %(cards)s.") % {"cards": rounds}
    if seat is not None:
        return text + " " + gettext("%(who)s drew the highest card and starts.") % {"who": who}
    tied = names_list([names.get(s, "?") for s in payload.get("tied") or []])
    return text + " " + gettext("A tie: %(names)s draw again.") % {"names": tied}


def pregame_context(snap: Snapshot, game: Game, state: Any, viewer: int | None,
                    seats: list[dict[str, Any]]) -> dict[str, Any]:
    """What the phones show before, between and after games.

    ``start``: ``None`` once decided (or never asked), else ``{"rule",
    "question", "source", "drawing", "tied", "physical", "cards",
    "can_answer"}``: the same for every seat (the start is public), but for
    ``can_answer`` (a seated phone). ``walk``: the set-up steps with their
    checked marks and ``playing`` (a move was played: the players' phones leave it out, the host and the screen
    keep it folded) (``None`` when there is none, it was skipped, or every step is checked). ``next_code``: the next game's table once the host started it.
    """
    table = snap.table
    start = setup.start_state(table.pregame)
    start_ctx = None
    if start is not None and start.get("seat") is None and table.is_open:
        rule = start["rule"]
        drawing = list(start.get("tied") or range(len(seats)))
        questions = {
            "youngest": gettext("Who is the youngest? Tap their seat."),
            "oldest": gettext("Who is the oldest? Tap their seat."),
            "highest_card": gettext("Each player turns up a card from the real deck; enter what each shows. "
                                    "The highest card starts; a tie draws again.") if game.physical else
            gettext("Each player draws a card; the highest starts and a tie draws again. The app draws for every seat."),
        }
        cards = sorted((game.start_cards() or {}).items(), key=lambda kv: game.start_card_rank(kv[0]))
        start_ctx = {
            "rule": rule,
            "question": questions.get(rule, ""),
            "source": tr(game.start_source),
            "drawing": [seats[i] for i in drawing],
            "tied": [seats[i]["name"] for i in start.get("tied") or []],
            "physical": game.physical,
            "cards": [(c, card_label(c, game.slug)) for c, n in cards if n > 0],
            "can_answer": viewer is not None,
        }
    no_move_yet = bool(snap.rows) and snap.rows[0].seq == 0 and not any(r.kind == Action.Kind.GAME for r in snap.rows)
    walk = setup.walk_state(table.pregame)
    walk_ctx = None
    if walk["on"] and not walk["skipped"] and table.is_open:
        steps = [{"id": s.id, "text": tr(s.text, s.details), "source": s.source, "checked": s.id in walk["checked"]}
                 for s in setup.walkthrough(game)]
        done = sum(1 for s in steps if s["checked"])
        if done < len(steps):  # once play began, the checklist is the host's closed fold only
            walk_ctx = {"steps": steps, "done": done, "total": len(steps), "playing": not no_move_yet}
    asked_again = (start is not None and start.get("seat") is not None and no_move_yet and table.is_open
                   and start["rule"] in ("youngest", "oldest", "highest_card"))
    return {"start": start_ctx, "walk": walk_ctx, "next_code": table.pregame.get("next") or "",
            "start_again": seats[start["seat"]]["name"] if asked_again and start else "",
            "before_play": no_move_yet and table.is_open}


#: The generic controls, for a game without its own: plain forms, each with a CSRF token inside.
GENERIC_CONTROLS = "games/_controls.jinja"


@functools.cache
def game_template(slug: str, name: str, fallback: str) -> str:
    """``<slug>/<name>`` if the game ships that Jinja2 template (``shelf/<slug>/templates/<slug>/<name>``), else the
    generic ``fallback``; looked for once per process (the templates a game ships do not change while it runs)."""
    try:
        engines["jinja2"].get_template(f"{slug}/{name}")
    except TemplateDoesNotExist:
        return fallback
    return f"{slug}/{name}"


def board_template(slug: str) -> str:
    """The template of the game's board (its ``board.jinja``), else the generic one, which shows the view as text."""
    return game_template(slug, "board.jinja", "games/_board.jinja")


def static_template(slug: str) -> str:
    """The template of the game's fixed geometry, drawn once with the page (its ``static.jinja``), else ``""``."""
    return game_template(slug, "static.jinja", "")


def result_ties(result: Mapping[str, Any] | None) -> list[str]:
    """The translated tie sentences of a final result: who was level on score and what separated them."""
    return [tr(tie.get("text", ""), tie.get("details")) for tie in (result or {}).get("ties", [])]


def can_undo_own(snap: Snapshot, viewer: int | None) -> bool:
    """True when seat ``viewer`` may take back its own last move now.

    Read from the snapshot's newest log rows only (no query): when they do
    not reach the move, the button is not shown (the service decides anyway).
    """
    if viewer is None or not snap.table.is_open or not snap.rows:
        return False
    try:
        own_undo_target(snap.rows, viewer, snap.game, complete=len(snap.rows) < LOG_LINES)
    except IllegalAction:
        return False
    return True


def _public_part(snap: Snapshot, language: str) -> dict[str, Any]:
    """What every viewer of ``snap`` is shown alike, built once per snapshot and language.

    Shape: ``{"prompt" (the engine's Prompt; :data:`ENDED_PROMPT` once the host ended the game), "result",
    "standing" (the engine's ``standing`` of a game the host ended, else ``None``), "ended" (the host ended it
    before its end), "seats", "prompt_json", "signature", "waiting_names", "result_steps", "result_ties" (the
    steps and tie sentences of the result, or of the standing), "before" (pregame_context as the screen sees it)}``.
    Nothing here reads a viewer: the prompt, the result, the seats and the start question are public (the
    start draw is made in front of the table), so N phones of a table cost one build instead of N. Callers
    must not mutate what it returns.
    """
    return snap.memo("public", language, lambda: _build_public_part(snap))


#: The prompt of a table the host ended before the game's end: nobody is asked anything any more, whatever step
#: the position stood at (a turn, a war, an auction). Every page, fragment and API answer shows this one.
ENDED_PROMPT = Prompt((), (), gettext_noop("The host ended this game."), step="ended")


def stopped_early(table: Table, result: Mapping[str, Any] | None) -> bool:
    """True when the host ended ``table`` before its game reached an end of its own (no ``result``)."""
    return table.status == Table.Status.ENDED and result is None


def _build_public_part(snap: Snapshot) -> dict[str, Any]:
    row, game, state = snap.table, snap.game, snap.state
    result = game.result(state)
    ended = stopped_early(row, result)
    prompt = ENDED_PROMPT if ended else game.prompt(state)
    # A game the host ended: the position counted as the final tally would count it now (None where the game
    # cannot tell one); shown to every phone, with what the engine's ended_view lifts for everyone.
    standing = game.standing(state) if ended else None
    tally = result if result is not None else standing
    seats = [{k: s[k] for k in ("index", "name", "colour", "team", "claimed")} for s in snap.seats]
    prompt_json = prompt.as_json()
    prompt_json["text_shown"] = tr(prompt.text, {**prompt.details, "names": [seats[i]["name"] for i in prompt.seats]})
    waiting = [(c["id"], [isolate(seats[i]["name"]) for i in c["waiting"]]) for c in snap.corrections]
    signature = hashlib.sha1(json.dumps(
        [row.code, row.version, row.status, waiting, [s["claimed"] for s in seats], row.pregame],
        sort_keys=True).encode()).hexdigest()[:12]
    result_steps = [tr(step.get("text", ""), step.get("details")) for step in (tally or {}).get("steps", [])
                    if step not in (tally or {}).get("ties", [])]  # the ties are shown beside the ranking
    return {
        "prompt": prompt, "result": result, "standing": standing, "ended": ended, "seats": seats,
        "prompt_json": prompt_json, "signature": signature,
        "waiting_names": [isolate(seats[i]["name"]) for i in prompt.seats],  # shown inside sentences
        "result_steps": result_steps, "result_ties": result_ties(tally),
        "before": pregame_context(snap, game, state, None, seats),
    }


def draws_for(snap: Snapshot, screen: bool) -> dict[str, Any]:
    """The seed commitment, the revealed seed and (the table screen only) the roll/draw tally, once per kind of
    viewer on ``snap`` (:func:`games.read.chance_stats.chance_stats`)."""
    row = snap.table
    return snap.memo("draws", screen, lambda: {"commitment": row.seed_commitment, "seed": row.seed_revealed,
                                               "stats": _screen_stats(snap) if screen else None})


def _screen_stats(snap: Snapshot) -> dict[str, Any] | None:
    """The table screen's roll/draw tally on ``snap``. Draws every phone saw are counted once per snapshot: a
    snapshot that is the one before plus a move adds that move's draws to the count before (no query); only a
    snapshot with no such count before it reads the whole log. A game whose draws are hidden counts them from
    the log, and only once it is over (:func:`games.read.chance_stats.chance_stats`)."""
    row, game = snap.table, snap.game
    if not public_draws(row, game):
        return chance_stats(row, game)

    def count() -> Counter[str]:
        before = snap.extended("tally", None)
        if before is not None and snap.rows:
            return before + drawn(row, game, snap.rows[-1:])
        return counted_draws(row, game)

    return chance_stats(row, game, seen=snap.memo("tally", None, count))


def _tally_reads_log(snap: Snapshot) -> bool:
    """True when :func:`_screen_stats` of ``snap`` would read the log (it is not built on ``snap`` yet)."""
    if snap.memoized("draws", True):
        return False
    if public_draws(snap.table, snap.game):
        return not snap.memoized("tally", None) and snap.extended("tally", None) is None
    return reads_log(snap.table, snap.game)


def needs_database(snap: Snapshot, viewer: int | None) -> bool:
    """True when :func:`seat_context` of ``snap`` for ``viewer`` would read the database (the table screen's
    draw tally when no count before it extends, or a finished game's chart, until it is built on this snapshot);
    every other piece comes from the snapshot alone."""
    return ((viewer is None and _tally_reads_log(snap))
            or (snap.table.status == Table.Status.FINISHED and not snap.memoized("chart_series", None)))


def chart_for(snap: Snapshot, seats: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The end chart of a game over by its rules (:func:`games.read.end_chart.layout`), else ``None``.

    Its series replays the whole log (a database read) once per snapshot; its layout is made once per language.
    The same for every viewer: the game's end reveals what its counts read.
    """
    if snap.table.status != Table.Status.FINISHED:
        return None
    data = snap.memo("chart_series", None, lambda: end_chart.series(snap.table, snap.game))
    if data is None:
        return None
    return snap.memo("chart", get_language() or "", lambda: end_chart.layout(data, seats))


def _corrections_for(snap: Snapshot, viewer: int | None, seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    game = snap.game
    out = []
    for c in snap.corrections:
        mover = c["mover"]
        before = replacement = None
        hidden = any(_hidden_from(game, mover, p, viewer) for p in (c.get("original"), c["replacement"]) if p)
        if c.get("original"):
            line = game.describe(mover, c["original"], viewer)
            before = tr(line.text, line.details)
        if c["replacement"] and not hidden:  # a hidden entry: whose it is, never what it would become
            line = game.describe(mover, c["replacement"], viewer)
            replacement = tr(line.text, line.details)
        out.append(
            {
                "id": c["id"],
                "proposer": isolate(seats[c["proposer"]]["name"]) if c["proposer"] < len(seats) else "?",
                "target": c["target"],
                "before": before,
                "hidden": hidden and bool(c["replacement"]),
                "mover": isolate(seats[mover]["name"]) if mover < len(seats) else "?",
                "replacement": replacement,
                "reason": c["reason"],
                "waiting": [isolate(seats[i]["name"]) for i in c["waiting"]],
                "can_confirm": viewer is not None and viewer in c["waiting"],
                "can_withdraw": viewer is not None and viewer == c["proposer"],
            }
        )
    return out


#: The legal taps of a seat that may tap nothing now: one object for every such seat, so a part that reads them is
#: digested once per snapshot (:func:`games.web.parts.held_digest`).
NO_LEGAL: tuple[LegalItem, ...] = ()


def share_equal(value: Any, public: Any) -> Any:
    """``value`` with each of its pieces that equals the same piece of ``public`` replaced by ``public``'s object.

    ``value`` is a seat's view and ``public`` the table screen's (the view of nobody's seat): what a seat is
    shown alike with the screen (the board, the market, another player's open counts) then is one object per
    snapshot for every phone, whose digest is made once (:func:`games.web.parts.held_digest`), while
    the seat's own pieces (its hand, its screen) stay its own. Pieces are compared with ``==`` (an engine gives
    one field the same type for every viewer); dictionaries by key and lists of equal length item by item, down
    to the first equal piece. ``value`` is not changed: a piece holding a shared one is a new container.
    """
    if value is public:
        return value
    if type(value) is type(public) and value == public:
        return public
    if isinstance(value, dict) and isinstance(public, dict):
        return {k: share_equal(v, public[k]) if k in public else v for k, v in value.items()}
    if isinstance(value, list) and isinstance(public, list) and len(value) == len(public):
        return [share_equal(v, p) for v, p in zip(value, public, strict=True)]
    return value


def _seat_view(snap: Snapshot, see: Callable[[Any, int | None], Any], viewer: int | None) -> Any:
    """``see(state, viewer)`` (the engine's ``view`` or ``ended_view``), with what it shares with the table
    screen's view taken from that view (:func:`share_equal`); the screen's own view as the engine made it."""
    own = see(snap.state, viewer)
    if viewer is None:
        return own
    return share_equal(own, snap.memo("view", None, lambda: see(snap.state, None)))


def seat_context(table: Table | Snapshot, viewer: int | None) -> dict[str, Any]:
    """Everything a phone (``viewer`` = seat index) or the table screen (``None``) renders.

    Shape: ``{"table", "game", "snapshot", "view", "prompt", "legal", "result", "standing", "result_steps",
    "result_ties", "seats", "log", "corrections", "version", "waiting_names", "my_turn", "can_undo_own",
    "signature", ...}``. Once the host ended the game before its end, ``prompt`` asks nobody anything
    (:data:`ENDED_PROMPT`), ``view`` is the engine's ``ended_view`` and ``standing`` its count of the
    position (``result_steps`` and ``result_ties`` are then the standing's). ``signature`` changes whenever
    what the phone shows may change, so a phone can skip a pushed fragment it already shows. Built from the table's :class:`~games.read.snapshots.Snapshot`
    (one per table revision, shared by every phone): its public part once per language
    (:func:`_public_part`), ``viewer``'s view, legal taps, log and corrections once per viewer (and
    language) on the snapshot, from ``viewer``'s own view only. The returned dict is the caller's own;
    the values in it are shared: never mutate them.
    """
    snap = table if isinstance(table, Snapshot) else for_table(table)
    row, game, state = snap.table, snap.game, snap.state
    language = get_language() or ""
    public = _public_part(snap, language)
    draws = draws_for(snap, viewer is None)
    prompt, result, seats, prompt_json = public["prompt"], public["result"], public["seats"], public["prompt_json"]
    open_corrections = snap.memo("corrections", (viewer, language), lambda: _corrections_for(snap, viewer, seats))
    signature = public["signature"]
    # Once the host ended the game, each phone sees what the game's own end would show it (a screen lifted, say), as
    # the standing every phone reads counts it; while the table is open, its own view only.
    see = game.ended_view if public["ended"] else game.view
    view = snap.memo("view", viewer, lambda: _seat_view(snap, see, viewer))
    static = static_template(row.slug)
    before = public["before"]
    if before["start"] is not None and before["start"]["can_answer"] != (viewer is not None):
        before = {**before, "start": {**before["start"], "can_answer": viewer is not None}}
    waiting = before["start"] is not None  # nobody moves before the table decided who starts
    legal = snap.memo("legal", (viewer, language), lambda: (legal_for(game, state, viewer, snap)
                      if row.is_open and not waiting else None) or NO_LEGAL)
    return {
        **before,
        "table": row,
        "game": game,
        "signature": signature,
        "board_template": board_template(row.slug),
        "controls_template": game_template(row.slug, "controls.jinja", GENERIC_CONTROLS),
        "static_template": static,
        "static_view": snap.memo("static_view", viewer, lambda: static_view(row.slug, view)) if static else None,
        "slug": row.slug,
        "view": view,
        "prompt": prompt_json,
        "legal": legal,
        "result": result,
        "standing": public["standing"],
        "chart": chart_for(snap, seats),
        "seats": seats,
        "seat": viewer,
        "me": seats[viewer] if viewer is not None else None,
        "log": log_lines(snap, game, viewer),
        "corrections": open_corrections,
        "version": row.version,
        "waiting_names": public["waiting_names"],
        "my_turn": viewer is not None and viewer in prompt.seats and row.is_open and not waiting,
        "can_undo_own": snap.memo("can_undo_own", viewer, lambda: can_undo_own(snap, viewer)),
        "draws": draws,  # roll/draw counts beside chance (the screen's only)
        "result_steps": public["result_steps"],
        "result_ties": public["result_ties"],
        "snapshot": snap,
        "form_key": f"{row.code}-{row.version}-{viewer}",
        "screen": viewer is None,
        "is_host": False,
        "error": None,
    }
