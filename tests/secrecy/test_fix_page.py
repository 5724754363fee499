"""The fix-move page of another seat's move is built without that seat's options (the timing door).

What else a move could have been is listed from its mover's options (a
physical draw: every outcome the mover cannot rule out, which is the whole
set less the board and the mover's hand). The list was computed for every
reader and shown to the mover only, so the time the page took still
depended on the mover's hidden hand. Now it is not computed for anyone else.
"""

from __future__ import annotations

import pytest

from games.write import corrections
from games.write.corrections import correction_choices
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import phone_for

pytestmark = pytest.mark.django_db


def test_another_seats_fix_page_never_lists_their_options(monkeypatch):
    table = create_table("yellow_yangtze", {"components": "physical"},
                                  [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}], seed=11,
                                  start="chosen", start_seat=1)
    submit_action(table.code, 1, {"kind": "draw", "tiles": ["yellow"] * 6}, table.version)
    bob_draw = table.actions.filter(seat=1).get().seq
    calls = []
    real = correction_choices
    monkeypatch.setattr(corrections, "correction_choices", lambda t, seq: calls.append(seq) or real(t, seq))
    alice = phone_for(table, 0)
    page = alice.get(f"/t/{table.code}/corrections/fix/{bob_draw}/")
    assert page.status_code == 200
    assert calls == [], "Bob's options were computed for Alice"
    bob = phone_for(table, 1)
    assert "yellow" in bob.get(f"/t/{table.code}/corrections/fix/{bob_draw}/").content.decode()
    assert calls == [bob_draw], "the mover's own page lists them"
