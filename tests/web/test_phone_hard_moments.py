"""The phone in the hard moments: a Yellow & Yangtze war as the deciding phone and the unifier's phone read it.

A scripted game (tests/engines/yellow_yangtze/scenarios.py) is played through the write path to the brink of a war;
the unifier plays the joining tile. On the deciding phone the conflict panel folds to its title and the decision (the
bar holds the choices), and the map rings the leaders at stake and marks the joining hex; the unifier, whose move
another player is now answering, is not offered "Undo my move" (the service would still take it back).
"""

from __future__ import annotations

import re

import pytest

from games.read.presenters import can_undo_own
from games.read.snapshots import for_table
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import phone_for
from tests.engines.yellow_yangtze.scenarios import tie_war_brink

NAMES = ["Ann", "Ben", "Cat"]


def war_table():
    table = create_table("yellow_yangtze", {"components": "physical"}, [{"name": n} for n in NAMES], seed=2)
    game = table.game()
    start = game.prompt(game.decode(table.state)).seats[0]
    steps, (unifier, tile), _state = tie_war_brink(NAMES, start, seed=2)
    for seat, action in [*steps, (unifier, tile)]:
        table.refresh_from_db()
        submit_action(table.code, seat, action, table.version)
    table.refresh_from_db()
    return table, unifier


@pytest.mark.django_db
def test_in_a_war_the_deciding_phone_folds_the_panel_and_the_map_rings_the_leaders_at_stake():
    table, unifier = war_table()
    game = table.game()
    state = game.decode(table.state)
    deciding = game.prompt(state).seats[0]
    assert deciding != unifier
    html = phone_for(table, deciding).get(f"/t/{table.code}/").content.decode()
    panel = re.search(r'<details class="yy-conflict" data-conflict="war"[^>]*>', html).group(0)
    assert " open" not in panel, "the deciding phone's panel is folded to its title and decision"
    summary = re.search(r"<summary>(.*?)</summary>", html[html.index(panel):], re.S).group(1)
    assert "Your decision" in summary
    view = game.view(state, deciding)
    at_stake = {f"{x['seat']}-{x['colour']}" for side in view["conflict"]["sides"] for x in side["leaders"]}
    assert at_stake, "the scripted war puts leaders at stake"
    for key in at_stake:
        assert re.search(rf'<g class="leader \w+ stake" data-leader="{key}"', html), key
    assert html.count('class="stake-ring side') == len(at_stake)
    assert 'class="joined"' in html, "the hex that joined the states is marked"
    other = phone_for(table, (deciding + 1) % 3)
    watching = other.get(f"/t/{table.code}/").content.decode()
    assert re.search(r'<details class="yy-conflict" data-conflict="war"[^>]* open>', watching), \
        "a phone that only watches reads the whole panel"


@pytest.mark.django_db
def test_the_player_who_started_a_war_is_not_offered_undo_while_another_player_decides():
    table, unifier = war_table()
    snap = for_table(table)
    assert can_undo_own(snap, unifier), "the service would take the move back"
    html = phone_for(table, unifier).get(f"/t/{table.code}/").content.decode()
    assert "yy-conflict" in html and "is deciding" in html
    assert "Undo my move" not in html
