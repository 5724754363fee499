"""The Amun-Re board says in words what the referee decided (rules 2.4-2.7).

Draws ``amun_re/board.jinja`` from engine views of hand-made
positions, the way the board region of the phone page and the table screen draws it.
"""

from __future__ import annotations

import re

from games.web.jinja2env import draw
from shelf.amun_re.rules.income import start_income
from shelf.amun_re.rules.scoring import score_kingdom
from shelf.amun_re.state import INCOME, Offerings, Player, State
from tests.engines.amun_re.conftest import (
    ALICE,
    BOB,
    CAROL,
    auction_with_hands,
    card,
    enter_province,
    make_game,
    play,
)


def board(game, state, seat=None) -> str:
    seats = [{"index": s.index, "name": s.name, "colour": s.colour, "team": None} for s in game.seats]
    prompt = game.prompt(state).as_json()
    html = draw(
        "amun_re/board.jinja",
        {
            "view": game.view(state, seat),
            "seat": seat,
            "prompt": prompt,
            "legal": [],
            "result": game.result(state),
            "seats": seats,
        },
    )
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def won_auction(ankhs):
    game = make_game(3)
    state = auction_with_hands(game, {ALICE: (0, 1), BOB: (0, 2), CAROL: (0, 3)})
    for seat, card_value in ((ALICE, 1), (BOB, 2), (CAROL, 3)):
        state = play(game, state, seat, kind="bid", province=seat, card=card_value)
    for seat in (ALICE, BOB, CAROL):
        state = enter_province(game, state, seat, ankhs=ankhs[seat])
    return game, state


def test_the_board_says_who_took_the_ankh_token_and_why_on_a_tie():
    game, state = won_auction({ALICE: 1, BOB: 2, CAROL: 2})
    text = board(game, state, CAROL)
    assert "Bob and Carol: tie on 2 visible ankhs after auction 1; Bob sits nearest to Alice" in text
    assert "Bob takes the Ankh token" in text


def test_the_board_says_the_holder_keeps_the_ankh_token_on_a_tie():
    game, state = won_auction({ALICE: 2, BOB: 2, CAROL: 2})
    text = board(game, state, None)
    assert (
        "Alice, Bob and Carol: tie on 2 visible ankhs after auction 1; Alice holds the Ankh token, so Alice keeps it"
        in text
    )


def test_the_board_spells_out_every_players_income():
    game = make_game(2)
    cols = ((card(farms=2, caravans=1),), (card(),), (card(),))
    players = (
        Player(hand=(0, 3, 5), set_aside=(), built=True, columns=cols, offering=5),
        Player(hand=(0,), set_aside=(), built=True, columns=cols, offering=0),
    )
    state = start_income(
        game.cfg, State(players=players, phase=INCOME, auction=3, offerings=Offerings((5, 0), (3, 0), 5, 1))
    )
    text = board(game, state, ALICE)
    assert "Income: temple column 1 pays 1 per farm and 3 per caravan" in text
    assert "Alice 3 + 2×1 + 1×3 = 8" in text


def test_the_offering_table_names_the_tied_seats_and_the_start_player():
    game = make_game(3)
    players = tuple(Player(hand=(0, 4), set_aside=(), built=True, columns=((card(spaces=6),),) * 3) for _ in range(3))
    state = State(players=players, phase="offer", auction=3, ankh=BOB, kingdom_start=BOB)
    for seat in (ALICE, BOB, CAROL):
        state = play(game, state, seat, kind="offer", gold=0 if seat == BOB else 4)
    text = board(game, state, None)
    assert (
        "Carol and Alice: offered 4 each; ties go to the seat nearest the start player Bob (clockwise), so Carol ranks first."
        in text
    )
    assert "Carol: 1 seat after the start player; Alice: 2 seats after the start player" in text


def test_a_three_way_ankh_tie_at_scoring_names_all_three_players():
    game = make_game(3)
    players = tuple(
        Player(
            built=True, bought=True, set_aside=(), columns=tuple((card(ankhs=1 if c == 0 else 0),) for c in range(3))
        )
        for _ in range(3)
    )
    state = score_kingdom(game.cfg, State(players=players, phase=INCOME, auction=3))
    text = board(game, state, None)
    assert "Alice, Bob and Carol: tied for the most ankhs; Alice held the Ankh token" in text
    assert "Bob, Carol and Alice" not in text
    assert "Alice, Bob and Carol: tied for the fewest ankhs" in text and "so Carol, the farthest, loses 1" in text


def test_the_province_shorthand_has_a_key_under_the_players():
    game, state = won_auction({ALICE: 0, BOB: 0, CAROL: 1})
    text = board(game, state, ALICE)
    for entry in (
        "farms, caravans, ☥ ankhs (top card of the column), Kingdom of that card",
        "1/3 cards in the column, of 3",
        "▲ pyramids in the column",
        "+2 empty pyramid spaces",
    ):
        assert entry in text
    # The top card of a column is written in words, not as F/C/K letters.
    assert "farms: " in text and "caravans: " in text and "Kingdom " in text
    assert not re.search(r"\b[FCK]\d", text)
