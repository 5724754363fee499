"""§1.2 hidden hands, physical bag: a draw prompt tells the drawer nothing about other hands.

In physical mode the drawer taps in what the real bag gave. The list they
may tap is built from what they may know (the board, the market, their own
hand, the counts of the bag and of others' hands), never from the real bag:
a missing "yellow, yellow" would tell the drawer that someone else holds the
yellows. A listed draw the real bag cannot give is refused with one message
that names no colour and no seat, and nothing changes.
"""

from __future__ import annotations

import random
import re

import pytest

from games.engines.base import IllegalAction
from games.engines.chance import table_rng
from shelf.yellow_yangtze.rules import turn
from shelf.yellow_yangtze.state import COLOURS

from .helpers import make_game


def dealt(n: int, *hands: list[str]) -> tuple:
    """A physical ``n``-seat game after the first seats in deal order drew ``hands``: ``(game, state)``."""
    game = make_game(n, components="physical")
    s = game.setup(random.Random(1))
    for tiles in hands:
        s = game.apply(s, s.pending.queue[0][0], {"kind": "draw", "tiles": tiles})
    return game, s


YELLOWS = ["yellow"] * 6
ALMOST = ["yellow"] * 5 + ["red"]
BLACKS = ["black"] * 5 + ["red"]


def test_the_draw_list_does_not_depend_on_how_the_unseen_tiles_lie_between_bag_and_other_hands():
    """Two positions the third seat cannot tell apart (the second hand is 5 yellow or 5 black) list the same draws."""
    game, a = dealt(3, YELLOWS, ALMOST)  # the bag keeps 1 yellow
    _, b = dealt(3, YELLOWS, BLACKS)  # the bag keeps 6 yellow
    drawer = a.pending.queue[0][0]
    assert b.pending.queue[0][0] == drawer
    assert game.view(a, drawer) == game.view(b, drawer), "the drawer sees the same table"
    assert game.legal_actions(a, drawer) == game.legal_actions(b, drawer)
    assert {"kind": "draw", "tiles": ["yellow"] * 6} in game.legal_actions(a, drawer)


def test_a_listed_draw_only_hidden_hands_rule_out_is_refused_without_naming_a_colour_or_a_seat():
    """§1.2: eleven yellows are in two hands; the third seat may still tap two yellows and is told nothing why."""
    game, s = dealt(3, YELLOWS, ALMOST)
    drawer = s.pending.queue[0][0]
    two = {"kind": "draw", "tiles": ["red", "red", "blue", "blue", "yellow", "yellow"]}
    assert two in game.legal_actions(s, drawer)
    with pytest.raises(IllegalAction) as err:
        game.apply(s, drawer, two)
    assert err.value.code == "tile_not_in_bag" and err.value.details == {}
    assert err.value.message == turn.DRAW_REFUSED
    assert not any(re.search(rf"\b{c}\b", err.value.message) for c in COLOURS)
    assert not any(name in err.value.message for name in ("Alice", "Bob", "Carol"))
    one = {"kind": "draw", "tiles": ["red", "red", "red", "blue", "blue", "yellow"]}
    after = game.apply(s, drawer, one)
    assert after.bag[COLOURS.index("yellow")] == 0, "the last yellow came out of the bag"


@pytest.mark.parametrize("seed", range(4))
def test_in_random_physical_playouts_no_draw_list_depends_on_the_real_bag(seed):
    """Every physical draw prompt lists exactly what the drawer's unseen tiles can give; the real bag a subset."""
    game = make_game(3, components="physical")
    s = game.setup(random.Random(seed))
    chooser = random.Random(seed)
    prompts = differ = 0
    for step in range(1, 400):
        if game.result(s) is not None:
            break
        seat = game.prompt(s).seats[0]
        listed = game.legal_actions(s, seat)
        if game.prompt(s).step == "draw":
            prompts += 1
            k = turn.draw_size(s)
            real = [{"kind": "draw", "tiles": t} for t in turn.outcomes(s.bag, k)]
            assert listed == [{"kind": "draw", "tiles": t} for t in turn.outcomes(turn.unseen_by(s, seat), k)]
            assert all(a in listed for a in real)
            refused = [a for a in listed if a not in real]
            differ += bool(refused)
            messages = set()
            for a in refused[:5]:
                with pytest.raises(IllegalAction) as err:
                    game.apply(s, seat, a)
                assert err.value.code == "tile_not_in_bag" and not err.value.details
                messages.add(err.value.message)
            assert len(messages) <= 1
            assert not any(re.search(rf"\b{c}\b", m) for m in messages for c in COLOURS), "the refusal names no colour"
            listed = real
        action = game.fill_chance(s, seat, chooser.choice(listed), table_rng(seed, step))
        s = game.apply(s, seat, action)
    assert prompts > 5
    print(f"seed {seed}: {differ} of {prompts} physical draw prompts offer draws only hidden hands rule out")
