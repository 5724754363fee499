"""Exports replay whoever started: every game, started by every rule of "who starts", exports and imports to
the same positions and result (the ``start`` rows travel in the file and ``check_draws`` re-derives a drawn one)."""

from __future__ import annotations

import json
import random

import pytest
from django.utils import translation

from games.engines import get_game_class
from games.engines.base import IllegalAction
from games.models import Table
from games.record.audit import check_draws
from games.record.setup import start_choices
from games.write import export
from games.write.moves import submit_action
from games.write.pregame import create_table, decide_start, play_again
from tests.registry import GAMES

pytestmark = pytest.mark.django_db

PLAYERS = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}]


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def play_out(table: Table, seed: int) -> Table:
    """Legal moves through the write path until the game ends (physical draws: ones the real pile can give)."""
    rng = random.Random(seed)
    game = table.game()
    for _ in range(6000):
        table.refresh_from_db()
        state = game.decode(table.state)
        if game.result(state) is not None:
            break
        seat = game.prompt(state).seats[0]
        legal = game.legal_actions(state, seat)
        rng.shuffle(legal)
        for action in legal:
            try:
                game.apply(state, seat, game.fill_chance(state, seat, action, random.Random(0))
                           if not game.physical else action)
            except IllegalAction:
                continue
            submit_action(table.code, seat, action, table.version)
            break
    table.refresh_from_db()
    assert table.status == "finished"
    return table


def decide(table: Table, rule: str) -> None:
    """Answer the phones' question for an asked rule (a seat other than 0 wherever the rule lets us pick)."""
    if rule == "youngest":
        decide_start(table.code, seat=1)
    elif rule == "oldest":
        decide_start(table.code, seat=2)
    elif rule == "highest_card":
        if table.game().physical:  # a tie of seats 1 and 2 first, then seat 2 turns up the higher card
            decide_start(table.code, cards={"0": "1", "1": "12", "2": "12"})
            decide_start(table.code, cards={"1": "3", "2": "10"})
        else:
            decide_start(table.code, draw=True)


def first_mover(table: Table) -> int:
    return table.actions.filter(kind="game").order_by("seq").first().seat


def round_trip(table: Table) -> Table:
    """Export ``table``, import the file, and check the copy: same moves, positions (the import checks every
    ``after`` digest), result, first player; a digitally dealt copy passes ``check_draws``."""
    data = export.build_export(table)
    assert any(m["kind"] == "start" for m in data["moves"]) == table.actions.filter(kind="start").exists()
    copy = export.import_export(json.loads(json.dumps(data)))
    game = table.game()
    assert game.view(game.decode(copy.state), None) == game.view(game.decode(table.state), None)
    assert game.result(game.decode(copy.state)) == game.result(game.decode(table.state))
    assert first_mover(copy) == first_mover(table)
    if table.options.get("components") != "physical":
        assert check_draws(copy).ok
    return copy


CASES = [
    ("sorry", {}, "printed"), ("sorry", {"components": "physical"}, "printed"), ("sorry", {}, "youngest"),
    ("sorry", {}, "oldest"), ("sorry", {}, "random"), ("sorry", {}, "chosen"),
    ("yellow_yangtze", {}, "printed"), ("yellow_yangtze", {}, "youngest"), ("yellow_yangtze", {}, "oldest"),
    ("yellow_yangtze", {}, "chosen"),
    ("amun_re", {}, "printed"), ("amun_re", {}, "youngest"), ("amun_re", {}, "random"), ("amun_re", {}, "chosen"),
    ("catan_junior", {}, "printed"), ("catan_junior", {}, "oldest"), ("catan_junior", {}, "random"),
    ("catan_junior", {}, "chosen"),
]
CASES += [("sorry", {}, "highest_card"), ("sorry", {"components": "physical"}, "highest_card"),
          ("yellow_yangtze", {}, "random"), ("amun_re", {}, "oldest"), ("catan_junior", {}, "youngest")]
#: Only the rules each game offers (games/record/setup.py start_choices; a table is refused any other).
CASES = [c for c in CASES if c[2] == "printed" or c[2] in start_choices(get_game_class(c[0]))]
#: Every registered game: one not listed above is started by its printed rule and by a chosen seat.
CASES += [(slug, {}, rule) for slug in GAMES if slug not in {c[0] for c in CASES} for rule in ("printed", "chosen")]


@pytest.mark.parametrize(("slug", "options", "rule"), CASES)
def test_a_game_started_by_each_rule_exports_and_imports(slug, options, rule):
    table = create_table(slug, options, PLAYERS, seed=21, start=rule,
                                  start_seat=2 if rule == "chosen" else None)
    table.refresh_from_db()
    asked = table.pregame["start"]["rule"]
    decide(table, asked)
    table = play_out(table, seed=5)
    if rule == "chosen":
        assert first_mover(table) == 2
    round_trip(table)


@pytest.mark.parametrize("slug", GAMES)
def test_the_next_game_started_by_the_winner_or_the_printed_rule_exports_and_imports(slug):
    last = play_out(create_table(slug, {}, PLAYERS, seed=8, start="chosen", start_seat=1), seed=3)
    table = Table.objects.get(code=play_again(last.code).code)
    start = table.pregame["start"]
    assert start["rule"] == (table.game().next_game_start or table.game().start_rule)
    decide(table, start["rule"])
    round_trip(play_out(table, seed=4))


def test_a_start_row_after_a_move_or_naming_no_seat_of_the_table_is_refused():
    table = play_out(create_table("catan_junior", {}, PLAYERS, seed=21, start="chosen", start_seat=2), 5)
    data = export.build_export(table)
    start = next(m for m in data["moves"] if m["kind"] == "start")
    moved = json.loads(json.dumps(data))
    row = next(m for m in moved["moves"] if m["kind"] == "start")
    row["payload"]["seat"] = 7
    with pytest.raises(IllegalAction) as caught:
        export.import_export(moved)
    assert caught.value.code == "import_diverges" and caught.value.details["seq"] == start["seq"]
    zero = play_out(create_table("catan_junior", {}, PLAYERS, seed=21, start="chosen", start_seat=0), 5)
    late = export.build_export(zero)  # its start row put just after the first move (room made between seqs)
    start = next(m for m in late["moves"] if m["kind"] == "start")
    others = [dict(m, seq=m["seq"] * 10) for m in late["moves"] if m["kind"] != "start"]
    first_game = next(m for m in others if m["kind"] == "game")
    late["moves"] = sorted([*others, dict(start, seq=first_game["seq"] + 5)], key=lambda m: m["seq"])
    with pytest.raises(IllegalAction) as caught:
        export.import_export(late)
    assert caught.value.code == "import_diverges" and caught.value.details["seq"] == first_game["seq"] + 5
