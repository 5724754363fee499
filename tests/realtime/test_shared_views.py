"""A seat's view shares with the table screen's view the pieces both show alike, and only those.

``games.read.presenters.share_equal`` replaces each piece of a seat's view that equals the screen's by the
screen's own object, so the phones of a table digest it once (``games.web.parts.held_digest``).
What a phone is shown must not change by it: the shared view has exactly the engine's content for that seat
(values and their types), and a piece the seat sees differently from the screen (its hand, its screen) stays
its own object.
"""

from __future__ import annotations

import json
import random

import pytest

from games.read import snapshots
from games.read.presenters import seat_context, share_equal
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.registry import SHIPPED


def _typed(value):
    """``value`` with the type of every piece written beside it (``1``, ``1.0`` and ``True`` differ)."""
    if isinstance(value, dict):
        return ["dict", {str(k): _typed(v) for k, v in value.items()}]
    if isinstance(value, list | tuple):
        return [type(value).__name__, [_typed(v) for v in value]]
    return [type(value).__name__, value]


def _same(a, b) -> bool:
    return json.dumps(_typed(a), sort_keys=True, default=str) == json.dumps(_typed(b), sort_keys=True, default=str)


def test_equal_pieces_become_the_public_object_and_the_rest_stays_the_seats_own():
    public = {"board": {"a": [1, 2]}, "players": [{"gold": 3}, {"gold": 4}], "hand": None, "n": 2}
    own = {"board": {"a": [1, 2]}, "players": [{"gold": 3}, {"gold": 4, "hand": ["x"]}], "hand": ["x"], "n": 2,
           "mine": True}
    shared = share_equal(own, public)
    assert shared == own and shared is not own
    assert shared["board"] is public["board"]
    assert shared["players"] is not public["players"]  # one player differs: a list of its own...
    assert shared["players"][0] is public["players"][0]  # ...holding the equal one
    assert shared["players"][1] == own["players"][1] and shared["players"][1]["hand"] is own["players"][1]["hand"]
    assert shared["hand"] is own["hand"] and shared["mine"] is True
    assert own["board"] is not public["board"]  # the seat's own view is left as it was


def test_equal_but_differently_typed_pieces_are_not_shared():
    public = {"count": 1, "flags": (1, 2)}
    own = {"count": True, "flags": [1, 2]}
    shared = share_equal(own, public)
    assert shared["count"] is True and isinstance(shared["flags"], list)


@pytest.mark.parametrize("slug", SHIPPED)
def test_every_seats_view_keeps_its_content_and_shares_only_what_the_screen_shows_alike(db, slug):
    seats = [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")]
    table = create_table(slug, {}, seats, seed=5)
    chooser = random.Random(5)
    checked = 0
    for _ in range(25):
        snapshots.clear()
        snap = snapshots.by_code(table.code)
        game, state = snap.game, snap.state
        screen = game.view(state, None)
        for seat in range(len(seats)):
            engine_view = game.view(state, seat)
            view = seat_context(snap, seat)["view"]
            assert _same(view, engine_view), (slug, seat)
            for key, piece in engine_view.items():
                if not _same(piece, screen.get(key)):
                    assert view[key] is not seat_context(snap, None)["view"].get(key), (slug, seat, key)
            checked += 1
        if game.result(state) is not None or not game.prompt(state).seats:
            break
        seat = chooser.choice(game.prompt(state).seats)
        submit_action(table.code, seat, chooser.choice(game.legal_actions(state, seat)), snap.table.version)
    assert checked >= 4 * 10
