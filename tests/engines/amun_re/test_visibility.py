"""Public hands (rules file 2.3) and sealed offerings (2.5; shared/STYLE.md principle 7)."""

from __future__ import annotations

import json
import random

from shelf.amun_re.state import OFFER, Player, State

from .conftest import ALICE, BOB, CAROL, auction_with_hands, card, make_game, play, random_playout, with_player

COLS = ((card(),), (card(),), (card(),))


def offering_state() -> State:
    players = (
        Player(hand=(0, 3, 5), set_aside=(1, 2, 4, 6, 7, 8), built=True, columns=COLS),
        Player(hand=(0, 1, 2), set_aside=(3, 4, 5, 6, 7, 8), built=True, columns=COLS),
        Player(hand=(0, 4, 6), set_aside=(1, 2, 3, 5, 7, 8), built=True, columns=COLS),
    )
    return State(players=players, phase=OFFER, auction=3)


def test_a_sealed_offering_is_invisible_to_everyone_else_until_the_reveal():
    game = make_game(3)
    three = play(game, offering_state(), ALICE, kind="offer", gold=3)
    eight = play(game, offering_state(), ALICE, kind="offer", gold=8)
    for viewer in (BOB, CAROL, None):
        assert game.view(three, viewer) == game.view(eight, viewer)
    assert game.view(three, ALICE)["private"]["offering"] == 3
    assert game.view(three, CAROL)["players"][ALICE]["offered"] is True
    assert game.view(three, CAROL)["offerings"] is None


def test_the_offering_log_line_shows_the_gold_only_to_the_offering_seat():
    game = make_game(3)
    action = {"kind": "offer", "gold": 8}
    mine = game.describe(ALICE, action, ALICE)
    assert mine.private and mine.details["gold"] == 8
    for viewer in (BOB, CAROL, None):
        line = game.describe(ALICE, action, viewer)
        assert "8" not in json.dumps([line.text, line.details])
        assert not line.private


def test_every_offering_is_shown_once_all_have_offered():
    game = make_game(3)
    state = play(game, offering_state(), ALICE, kind="offer", gold=8)
    state = play(game, state, BOB, kind="offer", gold=0)
    state = play(game, state, CAROL, kind="offer", gold=4)
    assert game.view(state, BOB)["offerings"]["amounts"] == [8, 0, 4]


def test_hands_are_public_so_every_seat_and_the_table_screen_see_the_kept_cards():
    """Rules 2.3: "Hands are public ... The app may show every hand to everyone"."""
    game = make_game(3)
    state = play(game, game.setup(random.Random(0)), ALICE, kind="build_hand", cards=[0, 1, 5, 8])
    for viewer in (ALICE, BOB, CAROL, None):
        assert game.view(state, viewer)["players"][ALICE]["hand"] == [0, 1, 5, 8]
        assert game.view(state, viewer)["players"][ALICE]["hand_count"] == 4
    assert game.view(state, ALICE)["private"]["hand"] == [0, 1, 5, 8]
    assert game.view(state, ALICE)["private"]["set_aside"] == [2, 3, 4, 6, 7]
    assert "private" not in game.view(state, None)


def test_the_hand_building_log_line_names_the_kept_cards_to_everyone():
    game = make_game(3)
    action = {"kind": "build_hand", "cards": [0, 6, 8]}
    assert game.describe(ALICE, action, ALICE).details["cards"] == [0, 6, 8]
    other = game.describe(ALICE, action, CAROL)
    assert other.details["cards"] == [0, 6, 8] and not other.private


def test_a_bid_that_displaces_a_card_shows_it_going_back_to_its_owner():
    game = make_game(3)
    state = play(
        game,
        auction_with_hands(game, {ALICE: (0, 3), BOB: (0, 5), CAROL: (0, 2)}),
        ALICE,
        kind="bid",
        province=0,
        card=3,
    )
    assert game.view(state, None)["returned"] is None
    state = play(game, state, BOB, kind="bid", province=0, card=5)
    for viewer in (ALICE, BOB, CAROL, None):
        assert game.view(state, viewer)["returned"] == {"owner": ALICE, "card": 3, "province": 0}
    assert 3 in game.view(state, CAROL)["players"][ALICE]["hand"]
    state = play(game, state, CAROL, kind="bid", province=1, card=2)
    assert game.view(state, None)["returned"] is None


def test_no_view_in_a_random_game_carries_another_seats_sealed_offering():
    game = make_game(4)

    def check(state):
        for viewer in (None, *range(4)):
            view = game.view(state, viewer)
            for seat, entry in enumerate(view["players"]):
                assert "offering" not in entry and "set_aside" not in entry
                # After the reveal the offered cards are spent (2.5 step 7): only the gold left shows.
                revealed = state.offerings is not None
                assert entry["hand"] == ([] if revealed else list(state.players[seat].hand))
            if viewer is None:
                assert "private" not in view
            else:
                assert view["private"]["seat"] == viewer
                assert view["private"]["offering"] == state.players[viewer].offering
            if state.phase == OFFER:
                assert view["offerings"] is None

    random_playout(game, seed=11, check=check)


def test_changing_another_seats_sealed_offering_or_set_aside_cards_never_changes_my_view():
    game = make_game(3, hand_sum_mode="at_most")

    def check(state):
        for owner in range(3):
            p = state.players[owner]
            twin = with_player(
                state,
                owner,
                set_aside=tuple(reversed(p.set_aside)),
                offering=None if p.offering is None else p.offering + 1,
            )
            for viewer in (None, *[v for v in range(3) if v != owner]):
                assert game.view(twin, viewer) == game.view(state, viewer)

    random_playout(game, seed=5, check=check)


def test_every_scored_kingdom_is_explained_with_the_ankh_holder_named():
    game = make_game(3)
    state, _ = random_playout(game, seed=3)
    scores = game.view(state, None)["kingdom_scores"]
    assert [k["kingdom"] for k in scores] == [1, 2, 3]
    for k in scores:
        assert k["ankh_holder"] in range(3) and k["most"] != k["fewest"]
        for row in k["rows"]:
            assert row["total"] == row["weakest_points"] + row["farm_points"] + row["ankh_points"]
            assert row["farm_points"] == (1 if row["farms"] >= k["farm_bonus"] else 0)
        assert max(r["ankhs"] for r in k["rows"]) == k["rows"][k["most"]]["ankhs"]
    assert sum(r["total"] for k in scores for r in k["rows"] if r["seat"] == ALICE) == state.players[ALICE].vp
