"""A game the host ended shows what the game's own end shows, and an open table still hides it.

Once the host ends a game, the phones read the standing and whatever the end of that game lifts (Yellow &
Yangtze: every screen, rules §7); the seed is published then too. Before that, the same position keeps every
secret. Probed with twins (tests/secrecy/probes.py): a twin changes one other seat's hidden values only. On the
open table no door of seat 0 tells the twin from the real state; on the ended table the doors tell them apart
exactly where the game's end reveals (Yellow & Yangtze), and nowhere for a secret the end keeps (a Sorry! points
hand, a sealed Amun-Re offering, the contract game's hand).
"""

from __future__ import annotations

import random
import re

import pytest

from games.models import Table
from games.write.host import end_game
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.registry import GAMES, examples

from .probes import TWINS, Doors, has_hidden_values, normalise, with_state
from .test_secrecy_suite import choose

pytestmark = pytest.mark.django_db

THREE = [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}]
ALICE, BOB = 0, 1
#: The doors a phone reads the table's position through.
POSITION_DOORS = ("page", "fragment", "api view", "api prompt", "screen", "api table")

#: (slug, options, seed, at least this many moves, whether the game's end lifts Bob's secret for Alice): each game's
#: ``HOST_END`` in its ``examples.py``.
CASES = [(slug, *examples(slug).HOST_END) for slug in GAMES if hasattr(examples(slug), "HOST_END")]


def to_a_secret(slug: str, options: dict, seed: int, moves: int) -> Table:
    """A three-seat table played at random until at least ``moves`` moves are in and Bob holds a secret a twin
    can change (Amun-Re: Bob's sealed offering is in, Alice's not yet)."""
    table = create_table(slug, options, THREE, seed=seed)
    rng = random.Random(seed)
    for n in range(400):
        table.refresh_from_db()
        game = table.game()
        state = game.decode(table.state)
        assert game.result(state) is None, "the game ended before the probe"
        twin = TWINS[slug](game, state, BOB)
        if n >= moves and twin is not None and twin != state:
            return table
        prompt = game.prompt(state)
        seat = prompt.seats[-1]  # where several phones are asked at once, Alice answers last
        submit_action(table.code, seat, choose(rng, game, state, seat), table.version)
    raise AssertionError("no position with a secret of Bob's to twin")


def comparable(text: str) -> str:
    """A door's text without what changes per request: CSRF tokens, and the page signature the socket sends
    back (on a closed table it digests the status region's CSRF token, a new one per request)."""
    return re.sub(r"\?s=[0-9a-f]+", "?s=-", normalise(text))


def doors_tell_apart(table: Table, doors: Doors) -> dict[str, bool]:
    """Per position door of Alice: whether it reads differently once Bob's hidden values change (a twin)."""
    table.refresh_from_db()
    game = table.game()
    state = game.decode(table.state)
    twin = TWINS[table.slug](game, state, BOB)
    real = doors.snapshot_doors()
    seen = with_state(table, game.encode(twin), doors.snapshot_doors)
    return {name: comparable(real[name]) != comparable(seen[name]) for name in POSITION_DOORS}


@pytest.mark.parametrize(("slug", "options", "seed", "moves", "lifted"), CASES, ids=[c[0] for c in CASES])
def test_an_open_table_hides_what_the_same_position_shows_once_the_host_ended_it(slug, options, seed, moves,
                                                                                  lifted):
    table = to_a_secret(slug, options, seed, moves)
    doors = Doors(table, ALICE)
    open_doors = doors.snapshot_doors()
    assert not any(doors_tell_apart(table, doors).values()), "an open table shows Alice one of Bob's secrets"
    for name in POSITION_DOORS:
        assert 'class="result' not in open_doors[name] and '"standing":{' not in open_doors[name], name
        assert 'class="yy-final"' not in open_doors[name] and '"final"' not in open_doors[name], name
    end_game(table.code)
    told = doors_tell_apart(table, doors)
    page = doors.snapshot_doors()["page"]
    assert '<section class="result ended">' in page
    if lifted:  # rules §7: every screen is lifted at the end, and the standing counts them
        assert told["page"] and told["fragment"] and told["api view"] and told["screen"], told
        assert 'class="yy-final"' in page and "lifts the screen" in page
    else:  # the end of the game keeps this secret on its owner's phone
        assert not any(told.values()), told


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_with_hidden_values_has_a_case_here(slug):
    """A game whose seats hide something is in ``CASES``: a new game fails here rather than pass unprobed."""
    if has_hidden_values(slug):
        assert slug in {case[0] for case in CASES}, f"{slug} hides values but has no case in {__name__}.CASES (HOST_END in its examples.py)"
