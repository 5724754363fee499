"""An engine's public view is made once per state for every viewer (games/engines/base.py ``kept_view``)."""

from __future__ import annotations

import random

from games.engines import get_game_class
from games.engines.base import SeatInfo, kept_view


class _Engine:
    """Anything with a ``__dict__`` holds the slot."""


def test_the_view_is_kept_for_the_very_objects_and_equal_values_and_made_again_otherwise():
    engine, made = _Engine(), []
    state, other = ["s"], ["s"]

    def make():
        made.append(1)
        return {"n": len(made)}

    first = kept_view(engine, (state,), ("Ann",), make)
    assert kept_view(engine, (state,), ("Ann",), make) is first and len(made) == 1
    assert kept_view(engine, (other,), ("Ann",), make) is not first, "an equal state that is another object"
    assert kept_view(engine, (other,), ("Bea",), make)["n"] == 3, "another name"
    assert kept_view(None, (other,), ("Bea",), make)["n"] == 4, "no holder: made for the call"


def test_every_seat_of_each_game_reads_the_public_pieces_of_one_state_as_the_same_objects():
    for slug in ("sorry", "yellow_yangtze", "amun_re", "catan_junior"):
        game = get_game_class(slug)({}, [SeatInfo(i, n, c, None) for i, (n, c) in enumerate((("Ann", "red"), ("Ben", "blue"), ("Cat", "yellow")))])
        state = game.setup(random.Random(5))
        screen = game.view(state, None)
        for seat in range(3):
            view = game.view(state, seat)
            assert view is not screen
            shared = [k for k in view if k in screen and k not in ("private", "viewer")]
            assert shared and all(view[k] is screen[k] for k in shared), slug
