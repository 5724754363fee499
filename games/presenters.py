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
from collections.abc import Mapping
from typing import Any

from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.translation import get_language, gettext

from games import pregame
from games.chance_stats import stats_for_context
from games.commands.moves import own_undo_target
from games.engines.base import Game, IllegalAction, LogLine, gettext_noop
from games.live import _LINES, LOG_LINES, ShownLine, Snapshot, _Store, line_key, snapshot_for, static_view
from games.models import Action, Table
from games.words import isolate, show


def tr(text: str, details: Mapping[str, Any] | None = None) -> str:
    """Translate an engine's English template, then fill ``{placeholders}`` from ``details``.

    Terms (colours, resources) in the details are translated too, names isolated
    and lists joined with the language's comma (:func:`games.words.show`).
    """
    return show(text, details)


_TEXTS = _Store(20000)  # (language, template, details) -> the sentence (this process)


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


def shared_tr(text: str, details: Mapping[str, Any] | None = None) -> str:
    """:func:`tr`, made once per sentence and language in this process: the same line told to every phone
    of a table (each seat's ``describe`` of a move is often word for word the others') is translated once."""
    try:
        key = (get_language(), text, _plain(details))
    except _NotPlain:
        return tr(text, details)
    found = _TEXTS.get(key)
    if found is None:
        found = tr(text, details)
        _TEXTS.put(key, found)
    return found


def error_message(exc: IllegalAction) -> str:
    """The translated message of an ``IllegalAction``."""
    return tr(exc.template, exc.details)


def action_label(game: Game, seat: int, payload: Mapping[str, Any]) -> str:
    """The button text of a legal action (the engine's ``label``)."""
    line = game.label(seat, payload)
    return tr(line.text, line.details)


_LABELS = _Store(20000)  # (game config, seat, action json, language) -> the button text (this process)


def game_config_key(snap: Snapshot) -> str:
    """What a table's engine is built from (slug, options, seats), as one digest: made once per snapshot.

    An engine's ``label(seat, action)`` reads no state, only its game (built from exactly these) and its
    arguments, so two snapshots with this key label every action alike.
    """
    found = snap.memo.get("config")
    if found is None:
        row = snap.table
        raw = json.dumps([row.slug, row.options, [[s["index"], s["name"], s["colour"], s["team"]] for s in snap.seats]],
                         sort_keys=True, default=str, separators=(",", ":"))
        found = snap.memo["config"] = hashlib.sha1(raw.encode()).hexdigest()
    return found


def legal_for(game: Game, state: Any, seat: int | None, config: str | None = None) -> list[dict[str, Any]]:
    """``seat``'s legal actions as ``{"payload", "json", "label", "kind"}`` (empty for the table screen).

    ``config`` (:func:`game_config_key` of the snapshot ``game`` was built from) lets the labels be made once
    per action, seat and language in this process instead of on every push (the active Yellow & Yangtze
    phone has hundreds of legal placements); ``None`` labels every action anew.
    """
    if seat is None or game.result(state) is not None:
        return []
    language = get_language() if config is not None else None
    items = []
    for payload in game.legal_actions(state, seat):
        encoded = json.dumps(payload, separators=(",", ":"), sort_keys=True)
        if config is None:
            label = action_label(game, seat, payload)
        else:
            key = (config, seat, encoded, language)
            label = _LABELS.get(key)
            if label is None:
                label = action_label(game, seat, payload)
                _LABELS.put(key, label)
        items.append({"payload": payload, "json": encoded, "label": label, "kind": payload.get("kind", "")})
    return items


_WINDOWS = _Store(4096)  # (code, viewer, language, limit) -> the last window of log lines built (this process)


def _log_line(row: Action, game: Game, viewer: int | None, code: str, undone: Any, replaced: Mapping[int, Action],
              names: Mapping[int, str], who: Mapping[int, str], language: str | None) -> dict[str, Any]:
    """One row of :func:`log_lines` as ``viewer`` reads it (a game line from the per-content cache)."""
    if row.kind == Action.Kind.GAME:
        # A game line is built once per content (this row, its marks, the viewer, the language, the mover's
        # name) and then the same line object is shown on every later push: readers must not mutate it.
        fix = replaced.get(row.seq)
        name = who.get(row.seat, "")  # a Latin name in a Persian line stays whole
        key = (code, row.seq, fix.seq if fix else 0, row.seq in undone, viewer, language, name)
        entry = _LINES.get(key)
        if entry is None:
            shown = fix.payload.get("replacement") if fix else row.payload
            entry = ShownLine(seq=row.seq, kind=row.kind, seat=row.seat, private=False)
            entry["counted"] = row.seq not in undone and not (fix and shown is None)
            entry["dropped"] = bool(fix) and shown is None
            line: LogLine = game.describe(row.seat, shown if shown is not None else row.payload, viewer)
            entry["text"] = shared_tr(line.text, line.details)
            entry["private"] = line.private
            entry["corrected"] = bool(fix) and shown is not None and shown != row.payload
            if entry["corrected"]:  # the log keeps both: what was logged first, and the agreed correction
                first = game.describe(row.seat, row.payload, viewer)
                entry["original"] = shared_tr(first.text, first.details)
            entry["who"] = name
            entry.key = line_key(entry)
            _LINES.put(key, entry)
    else:
        entry = {"seq": row.seq, "kind": row.kind, "seat": row.seat, "private": False,
                 "text": _host_line(row, names)}
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
    :class:`~games.live.Snapshot`): an undo row names the move it dropped and a
    correction row its target, and both come after their target. A game line
    is a :class:`~games.live.ShownLine` shared by every later call for the same
    content and viewer (the cache of this process): read it, never mutate it.
    """
    if isinstance(table, Snapshot) and limit <= LOG_LINES:
        rows, undone, replaced, names = table.rows[-limit:], table.undone, table.replaced, {
            s["index"]: s["name"] for s in table.seats}
        code = table.table.code
    else:
        rows = list(table.actions.order_by("-seq")[:limit])
        rows.reverse()
        undone = {r.payload.get("undone") for r in rows if r.kind == Action.Kind.UNDO}
        replaced = {r.payload.get("target"): r for r in rows if r.kind == Action.Kind.CORRECT
                    and "replacement" in r.payload and not (r.payload.get("rejected") or r.payload.get("void"))}
        names = {s.index: s.name for s in table.seats.all()}
        code = table.code
    language = get_language()
    # A name is isolated once per snapshot and language, not once per line: isolate() reads the active language's
    # direction (a thread-local lookup), which cost most of a phone's log (40 lines) on every push.
    who = table.memo.get(("who", language)) if isinstance(table, Snapshot) else None
    if who is None:
        who = {index: isolate(name) for index, name in names.items()}
        if isinstance(table, Snapshot):
            table.memo[("who", language)] = who
    window = isinstance(table, Snapshot)
    if window:
        # The same viewer's lines at the snapshot before, when this window is that one plus newer rows (the same
        # row objects: a move's snapshot extends the one before) with the same marks and names: only the new rows'
        # lines are looked up, the others are the very line objects shown before.
        wkey = (code, viewer, language, limit)
        prev = _WINDOWS.get(wkey)
        if prev is not None:
            p_rows, p_undone, p_replaced, p_names, p_lines = prev
            last = p_rows[-1].seq if p_rows else -1
            kept = len(rows)
            while kept and rows[kept - 1].seq > last:
                kept -= 1
            if (kept <= len(p_rows) and undone == p_undone and replaced == p_replaced and names == p_names
                    and list(map(id, rows[:kept])) == list(map(id, p_rows[len(p_rows) - kept:]))):
                lines = [_log_line(row, game, viewer, code, undone, replaced, names, who, language)
                         for row in reversed(rows[kept:])]
                lines += p_lines[:kept]
                _WINDOWS.put(wkey, (list(rows), frozenset(undone), dict(replaced), dict(names), tuple(lines)))
                return lines
    lines = [_log_line(row, game, viewer, code, undone, replaced, names, who, language) for row in reversed(rows)]
    if window:
        _WINDOWS.put(wkey, (list(rows), frozenset(undone), dict(replaced), dict(names), tuple(lines)))
    return lines


def _host_line(row: Action, names: Mapping[int, str]) -> str:
    """The log line of a row that is not a game move (undo, correction, end, components)."""
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
        return start_line(row.payload, names)
    if row.kind == Action.Kind.REFUSED:  # never what was typed in: only that a refusal happened (issue 11 B)
        return gettext("The app refused the draw %(who)s entered; %(who)s is asked to enter it again.") % {
            "who": isolate(names.get(row.seat, "?"))}
    if row.kind == Action.Kind.OPENED:
        return gettext("The seat of %(who)s was opened on another phone.") % {"who": isolate(names.get(row.seat, "?"))}
    return gettext("The host switched the components to %(mode)s.") % {"mode": row.payload.get("components", "")}


_START_LINES = {
    "random": gettext_noop("%(who)s starts (drawn at random)."),
    "chosen": gettext_noop("%(who)s starts (chosen by the host)."),
    "winner": gettext_noop("%(who)s starts: the winner of the last game."),
    "youngest": gettext_noop("%(who)s starts: the youngest player."),
    "oldest": gettext_noop("%(who)s starts: the oldest player."),
}


def card_label(card: str) -> str:
    """A card as the start draw shows it: its number, or "Sorry!" in the reader's word for it (the game's title)."""
    return gettext("Sorry!") if card == "sorry" else str(card)


def start_line(payload: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """The log line of a ``start`` row (issue 10 item 1): who starts and why, with every card turned up.

    Everything in it is public: the start draw is made in front of the
    whole table, before any hand is dealt.
    """
    seat = payload.get("seat")
    who = names.get(seat, "?") if seat is not None else ""
    if payload.get("again"):
        return gettext("The host asks again who starts.")
    if payload.get("rule") != "highest_card":
        return gettext(_START_LINES.get(payload.get("rule"), _START_LINES["chosen"])) % {"who": who}
    rounds = "; ".join(", ".join(f"{names.get(int(s), '?')} {card_label(c)}" for s, c in sorted(
        r.items(), key=lambda kv: int(kv[0]))) for r in payload.get("rounds") or [])
    text = gettext("Cards turned up for the start: %(cards)s.") % {"cards": rounds}
    if seat is not None:
        return text + " " + gettext("%(who)s drew the highest card and starts.") % {"who": who}
    tied = ", ".join(names.get(s, "?") for s in payload.get("tied") or [])
    return text + " " + gettext("A tie: %(names)s draw again.") % {"names": tied}


def pregame_context(snap: Snapshot, game: Game, state: Any, viewer: int | None,
                    seats: list[dict[str, Any]]) -> dict[str, Any]:
    """What the phones show before, between and after games (issue 10 items 1, 2, 6).

    ``start``: ``None`` once decided (or never asked), else ``{"rule",
    "question", "source", "drawing", "tied", "physical", "cards",
    "can_answer"}``: the same for every seat (the start is public), but for
    ``can_answer`` (a seated phone). ``walk``: the set-up steps with their
    checked marks (``None`` when there is none, it was skipped, or every step is
    checked). ``next_code``: the next game's table once the host started it.
    """
    table = snap.table
    start = pregame.start_state(table.pregame)
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
            "cards": [(c, card_label(c)) for c, n in cards if n > 0],
            "can_answer": viewer is not None,
        }
    walk = pregame.walk_state(table.pregame)
    walk_ctx = None
    if walk["on"] and not walk["skipped"] and table.is_open:
        steps = [{"id": s.id, "text": tr(s.text, s.details), "source": s.source, "checked": s.id in walk["checked"]}
                 for s in pregame.walkthrough(game)]
        done = sum(1 for s in steps if s["checked"])
        if done < len(steps):
            walk_ctx = {"steps": steps, "done": done, "total": len(steps)}
    no_move_yet = bool(snap.rows) and snap.rows[0].seq == 0 and not any(r.kind == Action.Kind.GAME for r in snap.rows)
    asked_again = (start is not None and start.get("seat") is not None and no_move_yet and table.is_open
                   and start["rule"] in ("youngest", "oldest", "highest_card"))
    return {"start": start_ctx, "walk": walk_ctx, "next_code": table.pregame.get("next") or "",
            "start_again": seats[start["seat"]]["name"] if asked_again and start else ""}


@functools.cache
def game_template(slug: str, name: str, fallback: str) -> str:
    """``games/<slug>/<name>`` if the game ships it, else the generic ``fallback``."""
    try:
        get_template(f"games/{slug}/{name}")
    except TemplateDoesNotExist:
        return fallback
    return f"games/{slug}/{name}"


def result_ties(result: Mapping[str, Any] | None) -> list[str]:
    """The translated tie sentences of a final result (issue 10 item 5): who was level on score and what separated them."""
    return [tr(tie.get("text", ""), tie.get("details")) for tie in (result or {}).get("ties", [])]


def can_undo_own(snap: Snapshot, viewer: int | None) -> bool:
    """True when seat ``viewer`` may take back its own last move now (issue 10 item 4).

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
    """What every viewer of ``snap`` is shown alike, built once per snapshot and language in this process.

    Shape: ``{"prompt" (the engine's Prompt), "result", "seats", "prompt_json", "signature",
    "waiting_names", "result_steps", "result_ties", "before" (pregame_context as the screen sees it),
    "draws" ({screen: the draws dict}), "digests" ({"prompt", "seats", "result"}: ``(objects, digest)``, the
    region digests of those three with the very objects they were made from)}``. Nothing here reads a viewer: the prompt, the result,
    the seats and the start question are public (the start draw is made in front of the table), so N
    phones of a table cost one build instead of N. Callers must not mutate what it returns.
    """
    from games.live import region_part_digest

    key = ("public", language)
    found = snap.memo.get(key)
    if found is not None:
        return found
    row, game, state = snap.table, snap.game, snap.state
    prompt = game.prompt(state)
    result = game.result(state)
    seats = [{k: s[k] for k in ("index", "name", "colour", "team", "claimed")} for s in snap.seats]
    prompt_json = prompt.as_json()
    prompt_json["text_shown"] = tr(prompt.text, {**prompt.details, "names": [seats[i]["name"] for i in prompt.seats]})
    waiting = [(c["id"], [isolate(seats[i]["name"]) for i in c["waiting"]]) for c in snap.corrections]
    signature = hashlib.sha1(json.dumps(
        [row.code, row.version, row.status, waiting, [s["claimed"] for s in seats], row.pregame],
        sort_keys=True).encode()).hexdigest()[:12]
    result_steps = [tr(step.get("text", ""), step.get("details")) for step in (result or {}).get("steps", [])
                    if step not in (result or {}).get("ties", [])]  # the ties are shown beside the ranking
    ties = result_ties(result)
    found = {
        "prompt": prompt, "result": result, "seats": seats, "prompt_json": prompt_json, "signature": signature,
        "waiting_names": [isolate(seats[i]["name"]) for i in prompt.seats],  # shown inside sentences
        "result_steps": result_steps, "result_ties": ties,
        "before": pregame_context(snap, game, state, None, seats),
        "draws": {},  # filled per kind of viewer by _draws (the screen's tally may read the database)
        # Each digest with the objects it was made from: a context whose piece was replaced digests its own.
        "digests": {"prompt": ((prompt_json,), region_part_digest(prompt_json)),
                    "seats": ((seats,), region_part_digest(seats)),
                    "result": ((result, result_steps, ties), region_part_digest([result, result_steps, ties]))},
    }
    snap.memo[key] = found
    return found


def _draws(public: dict[str, Any], row: Table, game: Game, screen: bool) -> dict[str, Any]:
    """The seed commitment, the revealed seed and (the table screen only) the roll/draw tally, once per kind of viewer."""
    found = public["draws"].get(screen)
    if found is None:
        found = {"commitment": row.seed_commitment, "seed": row.seed_revealed,
                 "stats": stats_for_context(row, game, screen)}
        public["draws"][screen] = found
    return found


def seat_context(table: Table | Snapshot, viewer: int | None) -> dict[str, Any]:
    """Everything a phone (``viewer`` = seat index) or the table screen (``None``) renders.

    Shape: ``{"table", "game", "view", "prompt", "legal", "result", "result_steps", "result_ties", "seats",
    "log", "corrections", "version", "waiting_names", "my_turn", "can_undo_own", "signature"}``;
    ``signature`` changes whenever what the phone shows may change, so a
    phone can skip a pushed fragment it already shows. Built from the
    table's :class:`~games.live.Snapshot` (one load per table version, shared
    by every phone): its public part once per language (:func:`_public_part`),
    then ``viewer``'s view, legal taps, log and corrections from ``viewer``'s own view only.
    """
    snap = table if isinstance(table, Snapshot) else snapshot_for(table)
    row, game, state = snap.table, snap.game, snap.state
    public = _public_part(snap, get_language() or "")
    # First: the table screen's tally may read the database, which a websocket render in the event loop may not
    # (it is redone in a thread, games/consumers.py _render_inline): better before the rest of the work than after.
    draws = _draws(public, row, game, viewer is None)
    prompt, result, seats, prompt_json = public["prompt"], public["result"], public["seats"], public["prompt_json"]
    open_corrections = []
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
        open_corrections.append(
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
    signature = public["signature"]
    view = game.view(state, viewer)
    static_template = game_template(row.slug, "static.html", "")
    before = public["before"]
    if before["start"] is not None and before["start"]["can_answer"] != (viewer is not None):
        before = {**before, "start": {**before["start"], "can_answer": viewer is not None}}
    waiting = before["start"] is not None  # nobody moves before the table decided who starts
    return {
        **before,
        "table": row,
        "game": game,
        "signature": signature,
        "board_template": game_template(row.slug, "board.html", "games/_board.html"),
        "controls_template": game_template(row.slug, "controls.html", "games/_controls.html"),
        "static_template": static_template,
        "static_view": static_view(row.slug, view) if static_template else None,
        "slug": row.slug,
        "view": view,
        "prompt": prompt_json,
        "legal": legal_for(game, state, viewer, game_config_key(snap)) if row.is_open and not waiting else [],
        "result": result,
        "seats": seats,
        "seat": viewer,
        "me": seats[viewer] if viewer is not None else None,
        "log": log_lines(snap, game, viewer),
        "corrections": open_corrections,
        "version": row.version,
        "waiting_names": public["waiting_names"],
        "my_turn": viewer is not None and viewer in prompt.seats and row.is_open and not waiting,
        "can_undo_own": can_undo_own(snap, viewer),
        "draws": draws,  # roll/draw counts beside chance (the screen's only)
        "result_steps": public["result_steps"],
        "result_ties": public["result_ties"],
        "_public_digests": public["digests"],
        "_view_memo": snap.memo.setdefault("views", []),
        "form_key": f"{row.code}-{row.version}-{viewer}",
        "screen": viewer is None,
        "is_host": False,
        "error": None,
    }
