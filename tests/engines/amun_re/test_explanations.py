"""The referee explains every automatic decision (rules file 2.4-2.9).

The Ankh token after an auction, offering ties, income, Kingdom ankh ties
and the final tie-break are decided by the app; the view must say what
was counted and why, so the table can check it against the box.
"""

from __future__ import annotations

from shelf.amun_re.rules.income import start_income
from shelf.amun_re.rules.scoring import score_kingdom
from shelf.amun_re.state import INCOME, OFFER, OVER, Offerings, Player, State

from .conftest import ALICE, BOB, CAROL, auction_with_hands, card, enter_province, make_game, play

ROOMY = ((card(spaces=6),), (card(spaces=6),), (card(spaces=6),))


def _auction_one_won(game, ankhs: dict[int, int]):
    state = auction_with_hands(game, {ALICE: (0, 1), BOB: (0, 2), CAROL: (0, 3)})
    state = play(game, state, ALICE, kind="bid", province=0, card=1)
    state = play(game, state, BOB, kind="bid", province=1, card=2)
    state = play(game, state, CAROL, kind="bid", province=2, card=3)
    for seat in (ALICE, BOB, CAROL):
        state = enter_province(game, state, seat, ankhs=ankhs[seat])
    return state


def test_the_ankh_token_moving_after_an_auction_is_explained_with_the_counts_and_the_tie(game3):
    state = _auction_one_won(game3, {ALICE: 1, BOB: 2, CAROL: 2})
    note = game3.view(state, None)["ankh_note"]
    assert note["from"] == ALICE and note["to"] == BOB and not note["stayed"]
    assert note["counts"] == [1, 2, 2] and note["best"] == 2
    assert note["tied"] == [BOB, CAROL]  # Bob sits nearer the holder Alice


def test_the_holder_keeping_the_ankh_token_on_a_tie_is_explained(game3):
    state = _auction_one_won(game3, {ALICE: 2, BOB: 2, CAROL: 0})
    note = game3.view(state, CAROL)["ankh_note"]
    assert note["stayed"] and note["to"] == ALICE and note["tied"] == [ALICE, BOB]


def test_a_clear_ankh_winner_has_no_tie_in_the_note(game3):
    state = _auction_one_won(game3, {ALICE: 0, BOB: 0, CAROL: 3})
    note = game3.view(state, None)["ankh_note"]
    assert note["to"] == CAROL and note["tied"] == []


def test_offering_ties_are_listed_in_reward_order_from_the_start_player():
    game = make_game(3)
    players = tuple(Player(hand=(0, 4), set_aside=(), built=True, columns=ROOMY) for _ in range(3))
    state = State(players=players, phase=OFFER, auction=3, ankh=BOB, kingdom_start=BOB, turn=BOB)
    for seat in (ALICE, BOB, CAROL):
        state = play(game, state, seat, kind="offer", gold=4 if seat != BOB else 0)
    ties = game.view(state, None)["offerings"]["ties"]
    # Carol sits one seat after Bob (the start player), Alice two: Carol ranks first.
    assert ties == [
        {"amount": 4, "seats": [CAROL, ALICE], "first": CAROL, "others": [ALICE], "start": BOB, "distances": [1, 2]}
    ]
    assert state.offerings.rewards[CAROL] == 3 and state.offerings.rewards[ALICE] == 2


def test_income_is_spelled_out_per_player_as_cards_left_plus_farms_and_caravans_at_the_column_rates():
    game = make_game(2)
    cols = ((card(farms=2, caravans=1),), (card(),), (card(),))
    players = (
        Player(hand=(0, 3, 5), set_aside=(1, 2, 4, 6, 7, 8), built=True, columns=cols, offering=5),
        Player(hand=(0,), set_aside=(1, 2, 3, 4, 5, 6, 7, 8), built=True, columns=cols, offering=0),
    )
    state = State(players=players, phase=INCOME, auction=3, offerings=Offerings((5, 0), (3, 0), 5, 1))
    state = start_income(game.cfg, state)
    income = game.view(state, None)["income"]
    assert income["column"] == 1 and income["gold_per_farm"] == 1 and income["gold_per_caravan"] == 3
    alice = income["rows"][ALICE]
    assert (alice["unspent"], alice["farms"], alice["caravans"], alice["total"]) == (3, 2, 1, 8)
    assert alice["unspent"] + alice["farm_gold"] + alice["caravan_gold"] == alice["total"]


def test_after_the_reveal_the_public_hands_show_the_gold_left_instead_of_the_offered_cards():
    game = make_game(2)
    players = (
        Player(hand=(0, 3, 5), set_aside=(), built=True, columns=ROOMY),
        Player(hand=(0, 2), set_aside=(), built=True, columns=ROOMY),
    )
    state = State(players=players, phase=OFFER, auction=3)
    state = play(game, state, ALICE, kind="offer", gold=5)
    assert game.view(state, BOB)["players"][ALICE]["hand"] == [0, 3, 5]  # not yet revealed
    state = play(game, state, BOB, kind="offer", gold=2)
    alice = game.view(state, BOB)["players"][ALICE]
    assert alice["hand"] == [] and alice["unspent"] == 3
    assert game.view(state, ALICE)["private"]["hand"] == [], "her own phone no longer lists the spent cards either"
    assert game.view(state, BOB)["offerings"]["amounts"] == [5, 2]


def _scored(ankhs, vps=(0, 0, 0), pyramids=(0, 0, 0), kingdom=3):
    game = make_game(3)
    players = tuple(
        Player(
            built=True,
            bought=True,
            set_aside=(),
            vp=vps[i],
            columns=tuple(
                (card(ankhs=ankhs[i] if c == 0 else 0, pyramids=pyramids[i], kingdom=kingdom),) for c in range(3)
            ),
        )
        for i in range(3)
    )
    state = State(players=players, kingdom=kingdom, phase=INCOME, auction=3, ankh=ALICE, kingdom_start=ALICE)
    return game, score_kingdom(game.cfg, state)


def test_a_three_way_ankh_tie_names_every_tied_player():
    game, state = _scored((1, 1, 1))
    ks = game.view(state, None)["kingdom_scores"][0]
    assert ks["most"] == ALICE and ks["most_tied"] == [ALICE, BOB, CAROL]
    assert ks["fewest"] == CAROL and ks["fewest_tied"] == [ALICE, BOB, CAROL]


def test_the_ankh_holder_sentence_appears_only_when_ankhs_tied():
    game, state = _scored((3, 2, 1))
    assert state.phase == OVER
    texts = [s["text"] for s in game.result(state)["steps"]]
    assert not any("holds the Ankh token" in t for t in texts)
    game, state = _scored((2, 2, 1))
    texts = [s["text"] for s in game.result(state)["steps"]]
    assert any("holds the Ankh token" in t for t in texts)


def test_the_final_tie_break_states_the_pyramids_that_decided_it():
    # Ankhs 3/2/1: Alice +1, Carol -1. Alice (10+1+1) and Bob (10+2) end on 12 honour; Bob has more pyramids.
    game, state = _scored((3, 2, 1), vps=(10, 10, 0), pyramids=(1, 2, 0))
    steps = game.result(state)["steps"]
    tie = next(s for s in steps if "pyramids decide" in s["text"])
    assert tie["details"]["score"] == 12
    assert tie["details"]["pyramids"] == ["Bob 6", "Alice 3"]
    assert game.result(state)["ranking"][0]["seat"] == BOB
