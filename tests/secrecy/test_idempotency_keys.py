"""Another seat's idempotency key tells seat A nothing (the refusal door of the write path).

A write names an idempotency key; a key seen before answers the first write
again, or 409 ``key_reused`` when another write used it. Keys looked up
across the whole table, before the turn is checked, would let seat A, posting
any action under a key Bob may have used, be answered 409 for Bob's key and
"not your turn" for others, with nothing written and no trace. Where Bob's
keys can be guessed, that tells A which move Bob made: a key built from the
table, version, seat, kind and the button's place in Bob's list names, for a
physical draw, the tiles Bob drew (the list is every outcome Bob cannot rule
out); an API client may use keys as plain as "move-12". So keys are kept per
seat.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Table
from games.write import write_path
from games.write.moves import submit_action
from games.write.pregame import create_table
from games.write.write_path import scoped_key

from .probes import Figures

pytestmark = pytest.mark.django_db

THREE = [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}]


def bob_taps_his_draw(tiles: list[str]) -> tuple[Table, str]:
    """Bob (the start player) enters his draw through the API under a plain key; the key."""
    table = create_table("yellow_yangtze", {"components": "physical"}, THREE, seed=11,
                                  start="chosen", start_seat=1)
    key = f"{table.code}-{table.version}-1-draw-37"  # as guessable as the generic controls' keys were
    bob = Client(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=1).token}")
    answer = bob.post(f"/api/tables/{table.code}/actions/", {"action": {"kind": "draw", "tiles": tiles},
                      "version": table.version, "key": key}, content_type="application/json")
    assert answer.status_code == 200, answer.json()
    table.refresh_from_db()
    return table, key


def key_probe(table: Table, viewer: int, keys: list[str], figures: Figures, label: str) -> None:
    """The viewer posts one action under each of ``keys`` (other seats' keys) and under fresh keys: same answers."""
    api = Client(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=viewer).token}")
    action = {"kind": "draw", "tiles": ["black"] * 6}

    def answer(key: str) -> str:
        reply = api.post(f"/api/tables/{table.code}/actions/", {"action": action, "version": table.version,
                                                               "key": key}, content_type="application/json")
        return f"{reply.status_code} {reply.content.decode()}"

    fresh = answer("a-key-nobody-used")
    for key in keys:
        figures.check(answer(key) == fresh, f"{label}: the answer to key {key!r} differs from a fresh key's")


def test_a_key_another_seat_used_answers_like_any_other():
    table, bobs_key = bob_taps_his_draw(["yellow", "yellow", "red", "red", "blue", "green"])
    figures = Figures()
    key_probe(table, 0, [bobs_key], figures, "Bob's draw key")
    print(f"\nkeys: probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert figures.leaks == []


def test_a_retried_tap_is_still_answered_once():
    """The key still does its job for its own seat: Bob's retried tap writes nothing twice."""
    table, bobs_key = bob_taps_his_draw(["yellow"] * 6)
    rows = table.actions.count()
    again = submit_action(table.code, 1, {"kind": "draw", "tiles": ["yellow"] * 6}, table.version - 1,
                                   bobs_key)
    assert again.replayed and table.actions.count() == rows


def test_control_keys_shared_across_seats_are_caught(monkeypatch):
    """Plant table-wide keys: the probe must flag Bob's key."""
    monkeypatch.setattr(write_path, "scoped_key", lambda actor, key: key)
    table, bobs_key = bob_taps_his_draw(["yellow", "yellow", "red", "red", "blue", "green"])
    figures = Figures()
    key_probe(table, 0, [bobs_key], figures, "planted shared keys")
    print(f"\ncontrol (shared keys): probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert any("differs from a fresh key's" in leak for leak in figures.leaks), figures.leaks


def test_the_start_question_does_not_tell_whether_another_seat_used_a_key():
    """The attacker's door: "who starts?" looks keys up in the asker's own scope, so seat 0 posting key
    "1/K" gets the same answer whether or not Bob's stored key is "1/K" (his key K)."""
    table, bobs_key = bob_taps_his_draw(["yellow", "yellow", "red", "red", "blue", "green"])
    alice = Client(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=0).token}")

    def answer(key: str) -> str:
        reply = alice.post(f"/api/tables/{table.code}/start/", {"seat": 0, "key": key},
                           content_type="application/json")
        return f"{reply.status_code} {reply.json().get('code')}"

    fresh = answer("a-key-nobody-used")
    assert fresh.startswith("400")
    assert answer(scoped_key(1, bobs_key)) == fresh
    assert answer(bobs_key) == fresh
