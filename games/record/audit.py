"""Reading a table's log back: the opening position, the moves that count, replays and fair-draw checks.

Nothing here writes. The write path (:mod:`games.write.write_path`) and the
commands over it use these to decide what a write does; ``manage.py
replay_table`` and ``check_draws``, the export and the history pages use
them to read a log (DESIGN.md "The engine contract": every random outcome
is in the log, so the log replays exactly).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engines import get_game_class
from games.engines.base import Game, IllegalAction, gettext_noop
from games.engines.chance import draw_rng, start_rng, table_rng
from games.models import Action, Table
from games.models import seed_commitment as seed_commitment_of
from games.record import setup as pregame_rules

#: The sequence number of the ``setup`` row that records the opening position (moves count from 1).
OPENING_SEQ = 0


class IncompleteLog(Exception):
    """The log cannot be replayed from a recorded opening (no ``setup`` row, or the row is unreadable)."""


def opening_state(table: Table, game: Game, rows: Iterable[Action] | None = None, *, strict: bool = False) -> Any:
    """The opening position of ``table`` as ``game`` decodes it: the recorded ``setup`` row.

    ``rows`` is the log already loaded (any order), else it is read. A table
    created before the opening was logged has no such row: its opening is
    ``game.setup`` with seed ``(table.seed, 0)``, which is only right while
    the set-up does not depend on options changed since (the components);
    ``strict=True`` raises :class:`IncompleteLog` instead of falling back
    (``manage.py replay_table --fix`` writes only complete replays).
    DESIGN.md "The engine contract": every random outcome is in the log.
    """
    if rows is None:
        row = table.actions.filter(kind=Action.Kind.SETUP).order_by("seq").first()
    else:
        row = next((r for r in rows if r.kind == Action.Kind.SETUP), None)
    if row is not None and isinstance(row.payload.get("state"), dict):
        state = game.decode(row.payload["state"])
    elif strict:
        raise IncompleteLog(f"table {table.code}: the log has no recorded opening position")
    else:
        state = game.setup(table_rng(table.seed, 0))
    return with_logged_start(table, game, state, rows)


def _start_rows(table: Table, rows: Iterable[Action] | None) -> list[Action]:
    if rows is None:
        return list(table.actions.filter(kind=Action.Kind.START).order_by("seq"))
    return sorted((r for r in rows if r.kind == Action.Kind.START), key=lambda r: r.seq)


def with_logged_start(table: Table, game: Game, state: Any, rows: Iterable[Action] | None = None) -> Any:
    """``state`` (the opening) with the start player the log decided, if it decided one.

    The last ``start`` row counts: one naming a seat applies it
    (:meth:`Game.with_start`); one without (a tie still to draw again, or the
    host asking again) and a table without any keep the engine's own opening
    (seat 0, or Yellow & Yangtze's set-up draw).
    """
    starts = _start_rows(table, rows)
    seat = starts[-1].payload.get("seat") if starts else None
    return game.with_start(state, seat) if seat is not None else state


#: Log rows that only note something for every phone and change no state: a refused entry, a seat
#: opened on another phone.
NOTE_KINDS = (Action.Kind.REFUSED, Action.Kind.OPENED)


def effective_actions(rows: Iterable[Action]) -> list[Action]:
    """The game actions that count, after folding undo and correction rows in log order.

    ``undo`` drops the last counted game action (the host's ``{"undone": seq}``
    and a player's own take-back ``{"undone": seq, "by": seat}`` alike);
    ``correct`` replaces (or
    drops) its target. The returned rows for replaced targets carry the
    replacement payload (unsaved copies).
    """
    counted: list[Action] = []
    for row in rows:
        if row.kind == Action.Kind.GAME:
            counted.append(row)
        elif row.kind == Action.Kind.UNDO:
            if counted:
                counted.pop()
        elif row.kind == Action.Kind.CORRECT:
            if row.payload.get("rejected") or row.payload.get("void"):
                continue  # a correction the table said no to (or that no longer fits) changes nothing
            target = row.payload.get("target")
            replacement = row.payload.get("replacement")
            for i, old in enumerate(counted):
                if old.seq == target:
                    if replacement is None:
                        counted.pop(i)
                    else:
                        counted[i] = Action(
                            table_id=old.table_id, seq=old.seq, kind=old.kind, seat=old.seat, payload=replacement,
                            version=old.version,
                        )
                    break
    return counted


def replay_rows(table: Table, game: Game, rows: Iterable[Action], *, strict: bool = False) -> Any:
    """Fold the log: the recorded opening position, then every counted action applied in order.

    The opening comes from the log's ``setup`` row (:func:`opening_state`;
    ``strict`` refuses a log without one). Raises ``IllegalAction`` if a
    counted action no longer applies (a correction that the rest of the log
    contradicts), :class:`IncompleteLog` when ``strict`` and the opening is missing.
    """
    rows = list(rows)
    state = opening_state(table, game, rows, strict=strict)
    for row in effective_actions(rows):
        try:
            state = game.apply(state, row.seat, row.payload)
        except IllegalAction as exc:
            raise IllegalAction(
                "log_conflict",
                gettext_noop("With this change, move #{seq} would no longer be legal: {reason}"),
                seq=row.seq, reason=exc.message, rule=exc.code,
            ) from exc
    return state


def replay(table: Table, *, strict: bool = False) -> Any:
    """The state rebuilt from the whole log (the snapshot is only a cache of this).

    ``strict``: raise :class:`IncompleteLog` for a log without its recorded opening.
    """
    game = table.game()
    return replay_rows(table, game, table.actions.order_by("seq"), strict=strict)


def status_after(game: Game, state: Any, table: Table) -> str:
    if table.status == Table.Status.ENDED:
        return Table.Status.ENDED
    return Table.Status.FINISHED if game.result(state) is not None else Table.Status.PLAYING


#: Why a finished game whose seed was revealed is not reopened (undo or correction): the message of ``seed_revealed``.
SEED_REVEALED = gettext_noop(
    "The final tally revealed this table's seed, and every draw the app made can be worked out from it: "
    "reopening the game would show everyone the hidden hands and the draws still to come. The result stands; "
    "use Play again for a new game.")


def seeded_secrets(table: Table, rows: Iterable[Action]) -> bool:
    """True when ``table``'s seed drew something at some point: it was created or switched to digital components.

    Once the game has finished the seed is revealed (``Table.seed_revealed``),
    and with it every digital draw can be re-derived (``check_draws``):
    the opening hands, each hidden draw and every draw to come. A table
    played physically from its creation (only the start player was drawn
    from the seed, in public) keeps no secret in its seed.
    """
    rows = list(rows)
    return initial_mode(table, rows) == "digital" or any(
        r.kind == Action.Kind.OPTIONS and r.payload.get("components") == "digital" for r in rows)


def refuse_reopening(table: Table, rows: Iterable[Action], status: str) -> None:
    """Raise ``IllegalAction("seed_revealed")`` when a write would make a finished, seeded table playable again.

    DESIGN.md "The engine contract" (every random outcome comes from the
    table's seed) and docs/fair-draws.md: the seed is published at the end.
    A game reopened after that (the host undoes the last move, a correction
    is agreed) would go on with secrets anyone can compute (see :func:`seeded_secrets`).
    """
    if table.status == Table.Status.FINISHED and status == Table.Status.PLAYING and seeded_secrets(table, rows):
        raise IllegalAction("seed_revealed", SEED_REVEALED)


@dataclass(frozen=True)
class DrawCheck:
    """What :func:`check_draws` found.

    ``ok``: every digital chance outcome in the log is what the seed gives
    (keyed as ``table.draw_keys`` says) and the seed matches the published commitment;
    ``commitment_ok``: ``sha256(str(seed))`` equals the commitment stored when
    the table was created (``table.seed_commitment``) and the one the caller
    kept, when given;
    ``checked``: seqs whose outcome was re-derived; ``physical``: seqs of
    chance moves entered by hand (physical components: nothing to re-derive);
    ``mismatch``: the first seq whose outcome differs (``None`` if none);
    ``reason``: an English sentence naming it.
    """

    ok: bool
    commitment_ok: bool
    checked: tuple[int, ...]
    physical: tuple[int, ...]
    mismatch: int | None = None
    reason: str = ""


def initial_mode(table: Table, rows: list[Action]) -> str:
    """The components mode the table was created with (``digital`` or ``physical``), read back from the log."""
    first = next((r for r in rows if r.kind == Action.Kind.OPTIONS), None)
    if first is None:
        return table.options.get("components", "digital")
    if "from" in first.payload:
        return first.payload["from"]
    return "physical" if first.payload.get("components") == "digital" else "digital"  # a switch changes the mode


def holds_draw(game: Game, payload: Any) -> bool:
    """True when game action ``payload`` holds a chance outcome (a field of its kind's :attr:`Game.chance_fields`)."""
    if not isinstance(payload, Mapping):
        return False
    return any(f in payload for f in game.chance_fields.get(payload.get("kind"), ()))  # type: ignore[arg-type]


def draw_position(drawn: Mapping[int, Any], counted: Iterable[Action]) -> int:
    """The position key of the next digital draw: how many of the ``counted`` rows the app drew (seqs in ``drawn``).

    ``counted`` are the game actions that count at that point
    (:func:`effective_actions` of the log before it), ``drawn`` what
    :func:`app_drawn` gives for that log. An undo drops a draw from the count,
    so the draw made again at the same point gets the same key and, from the
    same deck or bag, the same outcome (DESIGN.md "Table truth"). Only the
    app's own draws count: an undo pops the newest move only and a correction
    may not drop or change what the app drew, so the key of a draw that counts
    never changes afterwards, whatever was undone or corrected around it, and
    an export (counted moves only) gives every draw the key it was drawn with.
    """
    return sum(1 for row in counted if row.seq in drawn)


def counted_draws(table: Table, game: Game, rows: Iterable[Action]) -> int:
    """How many of the app's draws count after the log ``rows`` (in ``seq`` order): what ``Table.draws`` caches.

    :func:`draw_position` of :func:`app_drawn` and :func:`effective_actions`
    of the same rows. Commands that fold the log anyway (undo, corrections,
    ``replay_table --fix``) store it; a move adds its own draw (:func:`move_rng`).
    """
    rows = list(rows)
    return draw_position(app_drawn(table, game, rows), effective_actions(rows))


def move_rng(table: Table, seq: int) -> random.Random:
    """The RNG that fills the digital move about to be logged as row ``seq`` of the locked ``table`` row.

    :func:`games.engines.chance.draw_rng` with the table's scheme
    (``Table.draw_keys``): the position is ``Table.draws``, the cached
    :func:`counted_draws` of the log so far (no log read on a move);
    ``check_draws`` and the import derive the same key from the log itself.
    """
    return draw_rng(table.seed, table.draw_keys, seq, table.draws)


def app_drawn(table: Table, game: Game, rows: Iterable[Action]) -> dict[int, dict[str, Any]]:
    """The game rows of ``rows`` that hold what the app drew from the seed: ``{seq: {field: value}}``.

    A row counts when it was logged in digital mode (the table's first mode,
    then each component switch before it) and its payload holds one of the
    kind's :attr:`Game.chance_fields` (a card, tiles, a die face, a Coco
    tile). DESIGN.md "Fair draws": such an outcome is the seed's, and stays
    as drawn; only what a player entered for a physical component may be
    corrected.
    """
    ordered = sorted(rows, key=lambda r: r.seq)
    mode = initial_mode(table, ordered)
    out: dict[int, dict[str, Any]] = {}
    for row in ordered:
        if row.kind == Action.Kind.OPTIONS:
            mode = row.payload.get("components", mode)
        elif row.kind == Action.Kind.GAME and mode == "digital" and holds_draw(game, row.payload):
            out[row.seq] = {f: row.payload[f] for f in game.chance_fields.get(row.payload.get("kind"), ())
                            if f in row.payload}
    return out


def _chance_of(game: Game, payload: Any) -> Any:
    """The chance fields of a replacement payload, or ``"nothing"`` for a drop (for a mismatch's sentence)."""
    if not isinstance(payload, dict):
        return "nothing (the move dropped)"
    return {f: payload.get(f) for f in game.chance_fields.get(payload.get("kind"), ())}


def check_draws(table: Table, seed: int | None = None, commitment: str | None = None) -> DrawCheck:
    """Re-derive every digital chance outcome of ``table``'s log from the seed, keyed as the table keys it.

    ``seed`` defaults to the table's own; it must hash to the commitment
    stored at creation and to ``commitment`` (hex, e.g. the hash a player
    noted when the table was made) when one is passed. Walks the whole log as it was
    written (undone moves included, each checked in the position it was
    played in): for a game row recorded in digital mode whose payload holds
    a chance outcome (:attr:`Game.chance_fields`), the outcome fields are
    removed, :meth:`Game.fill_chance` fills them again with the same RNG
    (:func:`games.engines.chance.draw_rng` with ``table.draw_keys``: the
    :func:`draw_position` at that point of the log, or the row's seq for
    older tables; a who-starts draw from :func:`games.engines.chance.start_rng`)
    and the result must equal the logged payload. Rows in physical mode are
    listed in ``physical``; a correction agreed by the table stands for what
    a player entered by hand (the physical table is the final authority),
    but one that drops or changes an outcome the app drew (:func:`app_drawn`)
    is a mismatch naming that move, however it got into the log. Raises
    nothing for a bad log: a move that no longer applies is the mismatch.
    """
    seed = table.seed if seed is None else seed
    keys = table.draw_keys
    rows = list(table.actions.order_by("seq"))
    mode = initial_mode(table, rows)
    game = get_game_class(table.slug)({**table.options, "components": "digital"}, table.seat_infos())
    hashed = seed_commitment_of(seed)
    kept_ok = commitment is None or hashed == commitment.strip().lower()
    commitment_ok = hashed == table.seed_commitment and kept_ok
    checked: list[int] = []
    physical: list[int] = []

    def failed(seq: int, reason: str) -> DrawCheck:
        return DrawCheck(False, commitment_ok, tuple(checked), tuple(physical), seq, reason)

    # The opening is dealt again in the mode the table was created with: a physically dealt table
    # (Yellow & Yangtze hands entered by hand) opens with an entry step, not a digital deal.
    dealer = get_game_class(table.slug)({**table.options, "components": mode}, table.seat_infos())
    opening = dealt = dealer.setup(table_rng(seed, 0))
    drawn_seqs = app_drawn(table, game, rows)
    counted: list[Action] = []
    befores: list[Any] = []
    state = opening
    drawing = list(range(len(game.seats)))
    for row in rows:
        if row.kind == Action.Kind.OPTIONS:
            mode = row.payload.get("components", mode)
            continue
        if row.kind == Action.Kind.START:  # who starts: a random seat or a card per seat
            rule, seat, rounds = row.payload.get("rule"), row.payload.get("seat"), row.payload.get("rounds")
            if row.payload.get("mode") == "physical":
                physical.append(row.seq)
            elif row.payload.get("mode") == "setup":  # drawn by the set-up from table_rng(seed, 0): dealt again
                if dealer.setup_start(dealt) != seat:
                    return failed(row.seq, f"move #{row.seq}: the log says seat {seat} starts, the seed's set-up "
                                           f"gives {dealer.setup_start(dealt)}.")
                checked.append(row.seq)
            elif row.payload.get("again"):
                pass  # the host asked again: nothing drawn in this row
            elif rule == "random":
                derived = start_rng(seed, keys, row.seq).randrange(len(game.seats))
                if derived != seat:
                    return failed(row.seq, f"move #{row.seq}: the log says seat {seat} starts, the seed gives {derived}.")
                checked.append(row.seq)
            elif rule == "highest_card":
                again, winner = pregame_rules.draw_highest(game, drawing, start_rng(seed, keys, row.seq))
                if (again, winner) != (rounds, seat):
                    return failed(row.seq, f"move #{row.seq}: the log says {rounds}, the seed gives {again}.")
                checked.append(row.seq)
            drawing = list(row.payload.get("tied") or range(len(game.seats)))
            try:
                opening = game.with_start(dealt, seat) if seat is not None else dealt
            except IllegalAction as exc:
                return failed(row.seq, f"move #{row.seq}: {exc.message}")
            state = opening
            continue
        if row.kind == Action.Kind.UNDO:
            if counted:
                counted.pop()
                state = befores.pop()
            continue
        if row.kind == Action.Kind.CORRECT:
            if row.payload.get("rejected") or row.payload.get("void"):
                continue
            target, replacement = row.payload.get("target"), row.payload.get("replacement")
            drawn = drawn_seqs.get(target)
            if drawn is not None and (not isinstance(replacement, dict)
                                      or any(replacement.get(f) != v for f, v in drawn.items())):
                return failed(target, f"move #{target}: the app drew {drawn} from the seed, and the correction "
                                      f"#{row.seq} changes it to {_chance_of(game, replacement)}.")
            counted = effective_actions([*counted, row])
            befores, state = [], opening
            for kept in counted:
                befores.append(state)
                state = game.apply(state, kept.seat, kept.payload)
            continue
        if row.kind != Action.Kind.GAME:
            continue
        fields = [f for f in game.chance_fields.get(row.payload.get("kind"), ()) if f in row.payload]
        if fields and mode == "physical":
            physical.append(row.seq)
        elif fields:
            bare = {k: v for k, v in row.payload.items() if k not in fields}
            try:
                rng = draw_rng(seed, keys, row.seq, draw_position(drawn_seqs, counted))
                again = game.fill_chance(state, row.seat, bare, rng)
            except (IllegalAction, ValueError, IndexError, KeyError) as exc:
                return failed(row.seq, f"move #{row.seq} cannot be drawn again from this seed ({exc}).")
            if again != row.payload:
                shown = {f: row.payload[f] for f in fields}
                derived = {f: again.get(f) for f in fields}
                return failed(row.seq, f"move #{row.seq}: the log says {shown}, the seed gives {derived}.")
            checked.append(row.seq)
        try:
            after = game.apply(state, row.seat, row.payload)
        except IllegalAction as exc:
            return failed(row.seq, f"move #{row.seq} no longer applies from this seed's opening: {exc.message}")
        counted.append(row)
        befores.append(state)
        state = after
    if hashed != table.seed_commitment:
        return DrawCheck(False, False, tuple(checked), tuple(physical), None,
                         "the seed does not match the commitment the table stored and published when it was created.")
    if not kept_ok:
        return DrawCheck(False, False, tuple(checked), tuple(physical), None,
                         "the seed does not match the commitment you passed.")
    return DrawCheck(True, True, tuple(checked), tuple(physical))
