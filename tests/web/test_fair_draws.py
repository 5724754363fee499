"""Fair draws, provably: a published commitment, the seed revealed at the end, re-derived draws."""

from __future__ import annotations

import hashlib

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from games.models import Action
from games.record.audit import check_draws
from games.write.host import end_game, set_components, undo_last
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import play_through_write_path
from tests.registry import GAMES, game_class

pytestmark = pytest.mark.django_db


def finished_table(seed: int = 41, physical_from: int | None = None):
    """A Count-to-ten table played to the end through the write path (optionally switched to physical midway)."""
    table = create_table("counting", {}, [{"name": "Alice"}, {"name": "Bob"}], seed=seed)
    if physical_from is not None:
        play_through_write_path(table, seed, stop=physical_from)
        set_components(table.code, "physical")
        table.refresh_from_db()
    play_through_write_path(table, seed)
    table.refresh_from_db()
    assert table.status == "finished"
    return table


def test_the_commitment_is_public_from_the_start_and_the_seed_only_once_the_game_is_over(counting_table, client):
    """Revealed when the game finishes by its rules; a game the host stopped keeps it sealed (its seed would give
    the hidden hands held when it stopped: tests/secrecy/test_seed_after_an_early_end.py)."""
    commitment = hashlib.sha256(str(counting_table.seed).encode()).hexdigest()
    detail = APIClient().get(f"/api/tables/{counting_table.code}/").json()
    assert detail["draws"] == {"commitment": commitment, "seed": None}
    screen = client.get(f"/t/{counting_table.code}/screen/").content.decode()
    assert commitment in screen and str(counting_table.seed) not in screen
    play_through_write_path(counting_table, counting_table.seed)
    counting_table.refresh_from_db()
    assert counting_table.status == "finished"
    detail = APIClient().get(f"/api/tables/{counting_table.code}/").json()
    assert detail["draws"] == {"commitment": commitment, "seed": str(counting_table.seed)}
    screen = client.get(f"/t/{counting_table.code}/screen/").content.decode()
    assert f'<code class="seed">{counting_table.seed}</code>' in screen


def test_a_game_the_host_stopped_keeps_its_seed_sealed(counting_table):
    end_game(counting_table.code)
    assert APIClient().get(f"/api/tables/{counting_table.code}/").json()["draws"]["seed"] is None


def test_the_host_page_shows_the_commitment(db, fixture_game_registered):
    from django.test import Client

    from games.models import Table

    host = Client()
    response = host.post("/", {"game": "counting", "players": 2, "name_0": "Alice", "name_1": "Bob",
                               "opt-components": "digital"})
    code = response["Location"].split("/")[2]
    table = Table.objects.get(code=code)
    page = host.get(f"/t/{code}/host/").content.decode()
    assert table.seed_commitment in page and str(table.seed) not in page


def test_an_untampered_finished_table_passes(db, fixture_game_registered):
    table = finished_table()
    result = check_draws(table)
    assert result.ok and result.commitment_ok and result.mismatch is None
    draws = list(table.actions.filter(kind="game", payload__kind="draw").values_list("seq", flat=True))
    assert list(result.checked) == draws and draws
    call_command("check_draws", table.code)


def test_a_wrong_seed_is_rejected_naming_the_first_draw_it_does_not_give(db, fixture_game_registered):
    table = finished_table()
    result = check_draws(table, seed=table.seed + 1)
    assert not result.ok and not result.commitment_ok
    assert result.mismatch is not None and f"move #{result.mismatch}" in result.reason
    assert table.actions.get(seq=result.mismatch).payload["kind"] == "draw"
    with pytest.raises(CommandError, match=f"move #{result.mismatch}"):
        call_command("check_draws", table.code, seed=table.seed + 1)


def test_a_tampered_outcome_in_the_log_is_rejected_naming_the_move(db, fixture_game_registered):
    table = finished_table()
    draws = list(table.actions.filter(kind="game", payload__kind="draw").order_by("seq"))
    target = draws[2]
    other = next(c for c in "123" if c != target.payload["card"])
    Action.objects.filter(pk=target.pk).update(payload={**target.payload, "card": other})
    result = check_draws(table)
    assert not result.ok and result.commitment_ok
    assert result.mismatch == target.seq and f"move #{target.seq}" in result.reason
    with pytest.raises(CommandError, match=f"move #{target.seq}"):
        call_command("check_draws", table.code)


def test_draws_entered_by_hand_after_a_switch_to_physical_are_listed_not_checked(db, fixture_game_registered):
    table = finished_table(seed=5, physical_from=6)
    result = check_draws(table)
    assert result.ok
    switch = table.actions.get(kind="options").seq
    assert result.physical and all(seq > switch for seq in result.physical)
    assert result.checked and all(seq < switch for seq in result.checked)


def test_an_undone_draw_is_checked_in_the_position_it_was_drawn_in(db, fixture_game_registered):
    table = create_table("counting", {}, [{"name": "Alice"}, {"name": "Bob"}], seed=9)
    submit_action(table.code, 0, {"kind": "draw"}, 0)
    undo_last(table.code, 1)
    submit_action(table.code, 0, {"kind": "draw"}, 2)
    result = check_draws(table)
    assert result.ok and list(result.checked) == [1, 3]


@pytest.mark.parametrize("slug", [slug for slug in GAMES if game_class(slug).chance_fields])
def test_every_game_with_digital_chance_re_derives_its_draws_from_the_seed(db, slug):
    """Sorry! draws, Yellow & Yangtze bag draws, Catan Junior rolls and Coco tiles: the same RNG gives the same log."""
    from games.engines import get_game_class

    players = 2
    cls = get_game_class(slug)
    seats = [{"name": n, "colour": cls.colours[i]} for i, n in enumerate(["Ann", "Ben", "Cy", "Di"][:players])]
    table = create_table(slug, {}, seats, seed=17)
    play_through_write_path(table, 17, stop=80)
    result = check_draws(table)
    assert result.ok and result.checked, f"{slug}: {result.reason}"
    wrong = check_draws(table, seed=18)
    assert not wrong.ok and wrong.mismatch is not None


@pytest.mark.django_db
def test_a_yellow_yangtze_table_dealt_by_hand_checks_from_its_own_opening():
    """A physically dealt table opens with the hand-entry step (rules §1.3), not a digital deal: the check
    deals its opening in the mode the table was created with, lists the tiles entered by hand and passes."""
    import random

    table = create_table("yellow_yangtze", {"components": "physical"}, [{"name": "Ann"}, {"name": "Ben"}],
                                  seed=7)
    game, chooser = table.game(), random.Random(1)
    for _ in range(30):
        table.refresh_from_db()
        state = game.decode(table.state)
        seat = game.prompt(state).seats[0]
        submit_action(table.code, seat, chooser.choice(game.legal_actions(state, seat)), table.version)
    table.refresh_from_db()
    check = check_draws(table)
    assert check.ok, check
    assert check.physical, "the tiles entered by hand are listed, not checked"
