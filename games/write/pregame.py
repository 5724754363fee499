"""Before, between and after games: creating a table, who starts, the set-up walkthrough, play again."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.engines import get_game_class
from games.engines.base import Game, IllegalAction, SeatInfo, gettext_noop
from games.engines.chance import start_rng, table_rng
from games.models import Action, Seat, Table
from games.record import setup as pregame_rules
from games.record.audit import OPENING_SEQ, effective_actions, opening_state
from games.write.write_path import HOST, Change, Forbidden, Locked, Outcome, WriteRequest, prompt_key, write


def _same_name_key(name: str) -> str:
    """``name`` as a reader tells names apart: invisible format characters (bidi marks) dropped, NFKC,
    case folded, inner spaces collapsed. Two seats with the same key would be ambiguous in every log line."""
    shown = "".join(ch for ch in unicodedata.normalize("NFKC", name) if unicodedata.category(ch) != "Cf")
    return " ".join(shown.casefold().split())


def create_table(
    slug: str,
    options: Mapping[str, Any],
    seats: Iterable[Mapping[str, Any]],
    device: str = "",
    seed: int | None = None,
    start: str | None = None,
    start_seat: int | None = None,
    walkthrough: bool = False,
    devices: list[str] | None = None,
    previous: str = "",
) -> Table:
    """Create a table and its seats, deal the opening position and log it as row #0 (kind ``setup``).

    Who starts: ``start`` is one of :data:`START_RULES` or
    ``"printed"`` (the game's own rule, :attr:`Game.start_rule`); ``None``
    (the API default) keeps the engine's opening (seat 0 starts). ``random``,
    ``chosen`` and ``winner`` (with ``start_seat``) are decided at once and
    logged as row #1 (kind ``start``, still version 0: ``random`` draws from
    :func:`games.engines.chance.start_rng`); ``youngest``, ``oldest`` and ``highest_card``
    are asked on the phones before the first move (:func:`decide_start`). A rule the lobby does not offer
    for this game (:func:`games.record.setup.start_choices`; ``winner`` only for a next game) is ``bad_start``.
    ``walkthrough`` turns on the set-up walkthrough. ``devices``
    (one per seat) and ``previous`` (the last game's code) come from
    :func:`play_again`. ``IllegalAction("bad_start")`` for a bad rule or seat.

    ``seats`` is a list of ``{"name": str, "colour": str, "team": int | None}``
    (2 to the game's maximum). ``seed`` fixes the table's RNG (tests, demos);
    by default it is random. Raises ``IllegalAction`` for a bad option,
    seat count or colour, or two typed names that read the same (``same_name``:
    case, spacing and invisible format characters aside), before anything is written. ``KeyError`` for an
    unknown slug.
    """
    cls = get_game_class(slug)
    seat_list = list(seats)
    if not cls.min_seats <= len(seat_list) <= cls.max_seats:  # said before colours: six seats have no sixth colour
        raise IllegalAction("seat_count", gettext_noop("{title} is played by {min} to {max} players, not {n}."),
                            title=cls.title, min=cls.min_seats, max=cls.max_seats, n=len(seat_list))
    infos = []
    for index, seat in enumerate(seat_list):
        colour = seat.get("colour") or cls.colours[index % len(cls.colours)]
        name = (seat.get("name") or "").strip() or gettext(colour).capitalize()
        infos.append(SeatInfo(index, name[:40], colour, seat.get("team")))
    typed = [_same_name_key(seat.get("name") or "") for seat in seat_list]
    typed = [t for t in typed if t]
    if len(set(typed)) != len(typed):  # every log line and prompt names a seat: two alike would be ambiguous
        raise IllegalAction("same_name", gettext_noop("Two players have the same name; give each a name of their own."))
    colours = [info.colour for info in infos]
    if len(set(colours)) != len(colours) or any(c not in cls.colours for c in colours):
        raise IllegalAction(
            "bad_colours",
            gettext_noop("Each seat needs its own colour from {colours}."),
            colours=list(cls.colours),
        )
    game = cls(options, infos)
    played = game.seat_colours()
    if played != colours:  # the edition fixes colours: store what the pieces really are
        infos = [SeatInfo(i.index, i.name if (seat_list[i.index].get("name") or "").strip()
                          else gettext(played[i.index]).capitalize(), played[i.index], i.team) for i in infos]
        game = cls(options, infos)
    pregame: dict[str, Any] = {}
    if start is not None and cls.start_rule is not None:
        offered = pregame_rules.start_choices(cls) + (["winner"] if previous else [])  # what the lobby offers
        if start != "printed" and start not in offered:
            raise IllegalAction("bad_start", gettext_noop("This game decides who starts in one of these ways: {rules}."),
                                rules=offered)
        rule, seat = pregame_rules.check_rule(game, cls.start_rule if start == "printed" else start, start_seat)
        pregame["start"] = {"rule": rule, "seat": seat}
    if walkthrough:
        pregame["walk"] = {"checked": [], "skipped": False}
    if previous:
        pregame["previous"] = previous
    with transaction.atomic():
        table = Table(slug=slug, options=game.options, created_by_device=device, pregame=pregame)
        if seed is not None:
            table.seed = seed
        opening = game.setup(table_rng(table.seed, 0))
        table.state = game.encode(opening)
        table.save()
        claimed, devs = timezone.now(), list(devices or [])
        devs += [""] * (len(infos) - len(devs))
        Seat.objects.bulk_create(
            [Seat(table=table, index=i.index, name=i.name, colour=i.colour, team=i.team,
                  claimed_by_device=devs[i.index], claimed_at=claimed if devs[i.index] else None) for i in infos]
        )
        # The outcome of the set-up randomness is in the log like every other chance outcome, so the table
        # replays exactly after a component switch (DESIGN.md "The engine contract": randomness is an action).
        Action.objects.create(
            table=table, seq=OPENING_SEQ, kind=Action.Kind.SETUP, seat=None, payload={"state": table.state},
            version=0, prompt_step=prompt_key(game, opening),
        )
        start_now = pregame.get("start")
        if start_now and start_now["rule"] in ("random", "chosen", "winner"):
            _log_start_at_creation(table, game, opening, start_now)
        elif not start_now and game.setup_start(opening) is not None:
            # No start rule given, and the set-up itself drew the start player (Yellow & Yangtze, rules §1.3):
            # that random outcome is a log line like every other (DESIGN.md "The engine contract").
            Action.objects.create(table=table, seq=OPENING_SEQ + 1, kind=Action.Kind.START, seat=None,
                                  payload={"rule": "random", "seat": game.setup_start(opening), "mode": "setup"},
                                  version=0, prompt_step=prompt_key(game, opening))
    return table


def _log_start_at_creation(table: Table, game: Game, opening: Any, start: dict[str, Any]) -> None:
    """Log row #1 (kind ``start``, version 0) for a start decided when the table is made: ``random`` from
    :func:`games.engines.chance.start_rng` (re-derived by :func:`check_draws`), or the seat the host chose / the last
    winner."""
    seq = OPENING_SEQ + 1
    seat = start["seat"]
    if start["rule"] == "random":
        seat = start_rng(table.seed, table.draw_keys, seq).randrange(len(game.seats))
    payload = {"rule": start["rule"], "seat": seat, "mode": "digital" if start["rule"] == "random" else "chosen"}
    state = game.with_start(opening, seat)
    table.state = game.encode(state)
    table.pregame = {**table.pregame, "start": {"rule": start["rule"], "seat": seat}}
    table.save(update_fields=["state", "pregame", "updated_at"])
    # Version 0 like the opening deal: who starts is part of the table as it was made.
    Action.objects.create(table=table, seq=seq, kind=Action.Kind.START, seat=None, payload=payload, version=0,
                          prompt_step=prompt_key(game, state))


def decide_start(code: str, *, seat: int | None = None, cards: Mapping[Any, Any] | None = None,
                 draw: bool = False, key: str = "", by: int | str | None = None) -> Outcome:
    """Answer the table's "who starts?" question before the first move.

    ``youngest`` / ``oldest``: ``seat`` is the tapped seat. ``highest_card``:
    in digital mode ``draw=True`` turns up a card for every seat still
    drawing from :func:`games.engines.chance.start_rng` (ties draw again in the same row,
    :func:`games.record.setup.draw_highest`; one key per table, so asking again draws the same cards); in physical mode ``cards`` maps each
    seat still drawing to the card its real card showed, one round per call
    (a tie leaves the tied seats to draw again). Logged as a ``start`` row
    ``{"rule", "seat" (or None while tied), "rounds", "tied", "mode"}``
    through the write path; the snapshot gets the opening with that start
    player (:meth:`Game.with_start`). Raises ``IllegalAction``:
    ``start_decided`` (already decided, or a move was played),
    ``bad_start`` / ``bad_start_cards``; ``Forbidden("table_closed")``.
    ``by`` is the asker (a seat index, or :data:`HOST`; ``None``: the host):
    ``key`` is stored under the asker's own scope.
    """

    def compute(at: Locked) -> Change:
        table, game, seq = at.table, at.game, at.seq
        if not table.is_open:
            raise Forbidden("table_closed", "This table is closed: the game has ended.")
        start = pregame_rules.start_state(table.pregame)
        rows = list(table.actions.order_by("seq"))
        if start is None or start.get("seat") is not None or effective_actions(rows):
            raise IllegalAction("start_decided", gettext_noop("Who starts is already decided."))
        rule = start["rule"]
        payload: dict[str, Any] = {"rule": rule}
        chosen: int | None
        if rule in ("youngest", "oldest"):
            chosen = game.check_start_seat(seat)
            payload.update(seat=chosen, mode="asked")
        elif rule == "highest_card":
            drawing = pregame_rules.still_drawing(rows, len(game.seats))
            if game.physical:
                round_, top = pregame_rules.tapped_round(game, drawing, cards or {})
                chosen = top[0] if len(top) == 1 else None
                payload.update(rounds=[round_], seat=chosen, tied=top if chosen is None else [], drawing=drawing,
                               mode="physical")
            else:
                if not draw:
                    raise IllegalAction("bad_start", gettext_noop("In digital mode the app draws the cards."))
                rounds, chosen = pregame_rules.draw_highest(game, drawing, start_rng(table.seed, table.draw_keys, seq))
                payload.update(rounds=rounds, seat=chosen, tied=[], drawing=drawing, mode="digital")
        else:
            raise IllegalAction("start_decided", gettext_noop("Who starts is already decided."))
        state = game.decode(table.state)
        if chosen is not None:
            state = game.with_start(opening_state(table, game, rows), chosen)
        table.pregame = {**table.pregame, "start": {"rule": rule, "seat": chosen, "tied": payload.get("tied", [])}}
        return Change(Action.Kind.START, None, payload, game.encode(state), fields=("pregame",))

    return write(WriteRequest(code, HOST if by is None else by, compute, key=key, kind=Action.Kind.START))


def _lock_and_walk(code: str, change: Callable[[dict[str, Any]], None]) -> Table:
    """Change the walkthrough's ticks on the locked row (a change every phone sees: ``revision`` moves)."""
    done: list[Table] = []

    def compute(at: Locked) -> Change:
        table = at.table
        walk = pregame_rules.walk_state(table.pregame)
        if not walk["on"]:
            raise IllegalAction("no_walkthrough", gettext_noop("This table has no set-up walkthrough."))
        change(walk)
        table.pregame = {**table.pregame, "walk": {"checked": walk["checked"], "skipped": walk["skipped"]}}
        done.append(table)
        return Change(None, fields=("pregame",))

    write(WriteRequest(code, HOST, compute))
    return done[0]


def check_walk_step(code: str, step: str, checked: bool = True) -> Table:
    """The host checks (or unchecks) set-up step ``step``; kept on the table, pushed to phones.

    Raises ``IllegalAction("no_such_step")`` for a step this table's
    walkthrough does not have, ``IllegalAction("no_walkthrough")``.
    """
    table = Table.objects.get(code=code)
    ids = [s.id for s in pregame_rules.walkthrough(table.game())]
    if step not in ids:
        raise IllegalAction("no_such_step", gettext_noop("This set-up has no such step."))

    def change(walk: dict[str, Any]) -> None:
        marked = [s for s in walk["checked"] if s != step]
        walk["checked"] = [s for s in ids if s in (marked + [step] if checked else marked)]

    return _lock_and_walk(code, change)


def skip_walkthrough(code: str) -> Table:
    """The host skips the rest of the set-up walkthrough."""

    def change(walk: dict[str, Any]) -> None:
        walk["skipped"] = True

    return _lock_and_walk(code, change)


def next_game_start(table: Table) -> tuple[str, int | None]:
    """Who starts the next game with the same players: ``(rule, seat)``.

    A game whose rulebook says the winner starts (:attr:`Game.next_game_start`
    ``"winner"``, Sorry! section 2.3) gives the seat that won (the one who
    finished, in team play); the others their printed rule, asked again.
    """
    game = table.game()
    if game.next_game_start == "winner":
        state = game.decode(table.state)
        winner = getattr(state, "winner", None)
        if winner is None:
            winners = (game.result(state) or {}).get("winners") or []
            winner = winners[0] if winners else None
        if winner is not None:
            return "winner", int(winner)
    return game.start_rule, None


def play_again(code: str, device: str = "") -> Table:
    """From the final tally, a new table with the same seats, phones and options.

    Same game, options (components included), seat names, colours and
    teams; each new seat is claimed by the device that held the old one
    (:func:`follow_seat` moves each phone's cookie); who starts follows
    :func:`next_game_start`; the walkthrough is on when it was on before.
    The old table records the new code (``pregame["next"]``) and every phone
    is told, so each shows a "Next game" button. Idempotent: a second call
    returns the same new table. Raises ``Forbidden("table_open")`` while the
    game is still played.
    """
    made: list[Table] = []

    def compute(at: Locked) -> Change:
        table = at.table
        if table.is_open:
            raise Forbidden("table_open", "The next game starts from the final tally of this one.")
        existing = table.pregame.get("next")
        if existing and Table.objects.filter(code=existing).exists():
            made.append(Table.objects.get(code=existing))
            raise _Existing()
        seats = list(table.seats.order_by("index"))
        rule, seat = next_game_start(table)
        made.append(create_table(
            table.slug, table.options, [{"name": s.name, "colour": s.colour, "team": s.team} for s in seats],
            device=table.created_by_device or device, start=rule, start_seat=seat,
            walkthrough=pregame_rules.walk_state(table.pregame)["on"],
            devices=[s.claimed_by_device for s in seats], previous=table.code,
        ))
        table.pregame = {**table.pregame, "next": made[0].code}
        return Change(None, fields=("pregame",))

    try:
        write(WriteRequest(code, HOST, compute))
    except _Existing:
        pass  # asked twice: the same next game
    return made[0]


class _Existing(Exception):
    """Internal: the next game exists already; nothing is written."""


def follow_seat(old: Table, old_seat: Seat) -> Seat:
    """The seat of the next game that the phone holding ``old_seat`` of ``old`` takes (same index).

    Only the current secret of the old seat leads here (the caller read it
    from the phone's cookie), so no other phone can take it. Raises
    ``Forbidden("no_next_game")`` before the host started the next game.
    """
    code = old.pregame.get("next")
    seat = Seat.objects.filter(table__code=code, index=old_seat.index).select_related("table").first() if code else None
    if seat is None:
        raise Forbidden("no_next_game", "The host has not started the next game yet.")
    return seat
