"""What the app drew stays drawn, through the host's undo too (DESIGN.md "Table truth"; docs/fair-draws.md "An undone draw comes back").

A host who also plays must not fish for a card by undoing a draw and drawing again: the digital RNG is
keyed on the game's position (how many of the app's draws count before this one), so an undone draw made
again from the same point gives the same card, tiles or die face. Tables created before keep drawing by
log row and still verify; exports carry which scheme a table uses.
"""

from __future__ import annotations

import json
import random

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from games.engines import get_game_class
from games.engines.base import IllegalAction
from games.engines.chance import table_rng
from games.models import Action, Table
from games.record.audit import check_draws, counted_draws, holds_draw, opening_state, replay_rows
from games.write import export
from games.write.host import ask_start_again, undo_last
from games.write.moves import submit_action
from games.write.pregame import create_table, decide_start
from tests.trust.test_start_round_trip import play_out, round_trip

pytestmark = pytest.mark.django_db

#: The chance move of each game the QA tester fished with: a Sorry! card, a Yellow & Yangtze bag draw,
#: a Catan Junior roll.
DRAWS = [("sorry", "draw", "card"), ("yellow_yangtze", "draw", "tiles"), ("catan_junior", "roll", "value")]


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def seats(slug: str, n: int = 2) -> list[dict]:
    cls = get_game_class(slug)
    return [{"name": name, "colour": cls.colours[i]} for i, name in enumerate(["Ann", "Ben", "Cy"][:n])]


def fresh(code: str) -> Table:
    return Table.objects.get(code=code)


def counts_its_draws(table: Table) -> bool:
    """The count a draw reads (``Table.draws``) is what the log gives."""
    table = fresh(table.code)
    return table.draws == counted_draws(table, table.game(), table.actions.order_by("seq"))


def play_until(table: Table, kind: str, seed: int, after: int) -> None:
    """Random legal moves (none of kind ``kind`` once ``after`` moves are played) until ``kind`` is legal,
    the last counted move is not a chance move, and at least ``after`` moves were played."""
    game, chooser = table.game(), random.Random(seed)
    for played in range(400):
        table = fresh(table.code)
        state = game.decode(table.state)
        seat = game.prompt(state).seats[0]
        legal = game.legal_actions(state, seat)
        last = table.actions.filter(kind="game").order_by("-seq").first()
        if (played >= after and any(a.get("kind") == kind for a in legal)
                and last is not None and not game.reveals(last.payload)):
            return
        others = [a for a in legal if a.get("kind") != kind] if played >= after else legal
        submit_action(table.code, seat, chooser.choice(others or legal), table.version)
    raise AssertionError(f"no {kind} came up")


def draw(table: Table, kind: str) -> Action:
    """The prompted seat makes its chance move; the logged row (outcome filled by the app)."""
    table = fresh(table.code)
    seat = table.game().prompt(table.game().decode(table.state)).seats[0]
    outcome = submit_action(table.code, seat, {"kind": kind}, table.version)
    return table.actions.get(seq=outcome.seq)


@pytest.mark.parametrize(("slug", "kind", "field"), DRAWS)
def test_a_draw_the_host_undid_comes_back_the_same_however_often_it_is_drawn_again(slug, kind, field):
    table = create_table(slug, {}, seats(slug), seed=23)
    assert table.draw_keys == Table.DrawKeys.POSITION
    play_until(table, kind, seed=5, after=6)
    first = draw(table, kind)
    outcomes = [first.payload[field]]
    for _ in range(4):  # the host fishes: undo, draw again
        undo_last(table.code, fresh(table.code).version)
        outcomes.append(draw(table, kind).payload[field])
    assert outcomes == [first.payload[field]] * 5, "every redraw at the same point gives what the first gave"
    assert counts_its_draws(table)
    check = check_draws(fresh(table.code))
    assert check.ok, check.reason
    redraws = list(table.actions.filter(kind="game", payload__kind=kind, seq__gte=first.seq).values_list("seq",
                                                                                                          flat=True))
    assert set(redraws) <= set(check.checked) and len(redraws) == 5


@pytest.mark.parametrize(("slug", "kind", "field"), DRAWS)
def test_undoing_the_move_before_a_draw_and_playing_it_again_draws_the_same(slug, kind, field):
    table = create_table(slug, {}, seats(slug), seed=31)
    play_until(table, kind, seed=8, after=6)
    before = table.actions.filter(kind="game").order_by("-seq").first()
    first = draw(table, kind)
    undo_last(table.code, fresh(table.code).version)  # the draw
    undo_last(table.code, fresh(table.code).version)  # the move before it
    submit_action(table.code, before.seat, before.payload, fresh(table.code).version)  # the same move again
    again = draw(table, kind)
    assert again.seq > first.seq and again.payload[field] == first.payload[field]
    assert counts_its_draws(table)
    assert check_draws(fresh(table.code)).ok


def test_the_host_fishing_through_the_api_gets_the_same_card_back():
    table = create_table("sorry", {}, seats("sorry"), seed=3)
    alice, host = APIClient(), APIClient()
    alice.credentials(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=0).token}")
    host.credentials(HTTP_X_HOST_TOKEN=table.host_token)
    cards = []
    for _ in range(3):
        version = fresh(table.code).version
        drawn = alice.post(f"/api/tables/{table.code}/actions/", {"action": {"kind": "draw"}, "version": version},
                           format="json")
        assert drawn.status_code == 200, drawn.content
        cards.append(table.actions.get(seq=drawn.json()["seq"]).payload["card"])
        undone = host.post(f"/api/tables/{table.code}/undo/", {"version": version + 1}, format="json")
        assert undone.status_code == 200, undone.content
    assert cards[0] == cards[1] == cards[2]
    assert check_draws(fresh(table.code)).ok


def test_the_next_draw_after_an_undone_one_is_a_draw_of_its_own():
    """The key counts the draws that still count: the draw after the redrawn one is keyed one further on, so
    a table does not deal one card over and over (two Sorry! draws in a row differ in key, not by luck)."""
    table = create_table("sorry", {}, seats("sorry"), seed=3)
    game = table.game()
    first = draw(table, "draw")
    undo_last(table.code, fresh(table.code).version)
    draw(table, "draw")
    table = fresh(table.code)
    state = game.decode(table.state)
    seat = game.prompt(state).seats[0]
    submit_action(table.code, seat, next(a for a in game.legal_actions(state, seat) if a["kind"] != "draw"),
                  table.version)
    second = draw(table, "draw")
    assert fresh(table.code).draws == 2 and counts_its_draws(table)
    check = check_draws(fresh(table.code))
    assert check.ok and second.seq in check.checked and first.seq in check.checked


def test_a_digital_highest_card_asked_again_turns_up_the_same_cards():
    table = create_table("sorry", {}, seats("sorry", 3), start="highest_card", seed=77)
    decide_start(table.code, draw=True)
    first = table.actions.filter(kind="start").order_by("-seq").first().payload
    ask_start_again(table.code)
    decide_start(table.code, draw=True)
    again = table.actions.filter(kind="start").order_by("-seq").first().payload
    assert again["rounds"] == first["rounds"] and again["seat"] == first["seat"]
    assert check_draws(fresh(table.code)).ok


@pytest.mark.parametrize(("slug", "kind", "field"), DRAWS)
def test_a_table_keyed_by_log_row_still_verifies(slug, kind, field):
    """A table created before draws were keyed by position (migrated with ``draw_keys = "seq"``) keeps drawing
    and verifying by log row: each logged outcome is ``fill_chance`` with ``table_rng(seed, seq)``."""
    table = create_table(slug, {}, seats(slug), seed=41)
    Table.objects.filter(pk=table.pk).update(draw_keys=Table.DrawKeys.SEQ)
    play_until(table, kind, seed=2, after=4)
    draw(table, kind)
    undo_last(table.code, fresh(table.code).version)
    draw(table, kind)
    play_until(table, kind, seed=3, after=3)
    table = fresh(table.code)
    check = check_draws(table)
    assert check.ok, check.reason
    game = table.game()
    rows = list(table.actions.order_by("seq"))
    state = opening_state(table, game, rows)
    for row in rows:  # the old scheme, spelled out: every digital draw is the log row's RNG
        if row.kind == "undo":
            state = replay_rows(table, game, [r for r in rows if r.seq <= row.seq])
        elif row.kind == "game":
            if holds_draw(game, row.payload):
                bare = {k: v for k, v in row.payload.items() if k not in game.chance_fields[row.payload["kind"]]}
                assert game.fill_chance(state, row.seat, bare, table_rng(table.seed, row.seq)) == row.payload
            state = game.apply(state, row.seat, row.payload)
    Table.objects.filter(pk=table.pk).update(draw_keys=Table.DrawKeys.POSITION)
    assert not check_draws(fresh(table.code)).ok, "the scheme is read from the table: the other one does not fit"


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_old_tables_keyed_by_log_row_and_new_ones_by_position():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0010_table_seed_commitment")])
    old_apps = executor.loader.project_state([("games", "0010_table_seed_commitment")]).apps
    old = old_apps.get_model("games", "Table").objects.create(slug="sorry", seed=5, seed_commitment="x")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Table.objects.get(pk=old.pk).draw_keys == "seq"
    assert create_table("sorry", {}, seats("sorry"), seed=6).draw_keys == "position"


@pytest.mark.parametrize("keys", ["position", "seq"])
def test_a_game_with_undone_draws_exports_and_imports_with_its_scheme(keys):
    table = create_table("sorry", {}, seats("sorry"), seed=12)
    Table.objects.filter(pk=table.pk).update(draw_keys=keys)
    play_until(table, "draw", seed=4, after=5)
    draw(table, "draw")
    undo_last(table.code, fresh(table.code).version)
    draw(table, "draw")
    table = play_out(fresh(table.code), 9)
    assert check_draws(table).ok
    data = export.build_export(table)
    assert data["draws"]["keys"] == keys
    copy = round_trip(table)
    assert copy.draw_keys == keys and check_draws(copy).ok
    if keys == "position":
        assert counts_its_draws(table) and copy.draws == table.draws


def test_a_yellow_yangtze_game_with_sealed_draws_and_an_undone_one_imports():
    """Sealed moves (a bag draw into a hand) are found again by the import from the seed at their position."""
    table = create_table("yellow_yangtze", {}, seats("yellow_yangtze"), seed=19)
    play_until(table, "draw", seed=6, after=4)
    draw(table, "draw")
    undo_last(table.code, fresh(table.code).version)
    undo_last(table.code, fresh(table.code).version)
    table = play_out(fresh(table.code), 13)
    data = export.build_export(table)
    assert any(m.get("sealed") for m in data["moves"])
    copy = round_trip(table)
    assert copy.draw_keys == "position"


def test_a_file_that_names_no_scheme_is_of_a_table_keyed_by_log_row():
    table = create_table("sorry", {}, seats("sorry"), seed=12)
    Table.objects.filter(pk=table.pk).update(draw_keys="seq")
    table = play_out(fresh(table.code), 9)
    data = json.loads(json.dumps(export.build_export(table)))
    del data["draws"]["keys"]
    copy = export.import_export(data)
    assert copy.draw_keys == "seq" and check_draws(copy).ok
    data["draws"]["keys"] = "shuffled"
    with pytest.raises(IllegalAction) as refused:
        export.import_export(data)
    assert refused.value.code == "bad_import"


def test_replay_table_names_and_repairs_a_wrong_count_of_the_app_s_draws():
    from django.core.management import call_command
    from django.core.management.base import CommandError

    table = create_table("sorry", {}, seats("sorry"), seed=3)
    draw(table, "draw")
    undo_last(table.code, fresh(table.code).version)
    draw(table, "draw")
    Table.objects.filter(pk=table.pk).update(draws=5)
    with pytest.raises(CommandError):
        call_command("replay_table", table.code)
    call_command("replay_table", table.code, fix=True)
    assert fresh(table.code).draws == 1 and counts_its_draws(table)
    call_command("replay_table", table.code)
