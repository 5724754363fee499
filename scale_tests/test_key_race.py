"""A retried request that races its own first try waits for it and gets the first answer (PostgreSQL).

A phone that retries a tap (a lost answer, a double tap through two
workers) sends the same idempotency key twice. When the retry reaches the
table's row lock while the first try still holds it, the retry's locking
query has already read the log as it was before the wait: its key probe
says "unused", and the table's version no longer matches the one the phone
saw. The write path then looks the key up again with a statement of its own
(shared/DESIGN.md "The write path": a retried key returns the first
answer), instead of answering 409 ``stale_version`` to a move that was made.

Run by ``make test-scale`` with DATABASE_URL pointing at PostgreSQL.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections

from games.models import Table
from games.write import moves
from games.write.pregame import create_table
from games.write.write_path import StaleVersion

pytestmark = pytest.mark.django_db(transaction=True)


def _race(monkeypatch, key_second: str) -> tuple[object, object]:
    """Seat 0 posts a draw under key "k1"; while it holds the row lock a second post under ``key_second`` waits."""
    assert connection.vendor == "postgresql", "run with DATABASE_URL=postgres://... (make test-scale)"
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    holding, release = threading.Event(), threading.Event()
    real_play = moves.play

    def slow_play(at):
        if threading.current_thread().name == "first":
            holding.set()
            assert release.wait(10)
        return real_play(at)

    monkeypatch.setattr(moves, "play", slow_play)
    answers: dict[str, object] = {}

    def post(name: str, key: str) -> None:
        try:
            answers[name] = moves.submit_action(table.code, 0, {"kind": "draw"}, 0, key)
        except Exception as exc:  # noqa: BLE001 - the answer under test
            answers[name] = exc
        finally:
            connections.close_all()

    first = threading.Thread(target=post, args=("first", "k1"), name="first")
    first.start()
    assert holding.wait(10), "the first try did not reach its compute"
    second = threading.Thread(target=post, args=("second", key_second), name="second")
    second.start()
    time.sleep(0.5)  # the retry is now waiting for the row lock the first try holds
    release.set()
    first.join(10)
    second.join(10)
    assert Table.objects.get(code=table.code).version == 1, "one move was written"
    return answers["first"], answers["second"]


def test_a_retry_racing_its_first_try_gets_the_first_answer(monkeypatch):
    first, retry = _race(monkeypatch, "k1")
    assert not isinstance(first, Exception), first
    assert not isinstance(retry, Exception), f"the retry was refused: {retry!r}"
    assert (retry.version, retry.seq) == (first.version, first.seq)
    assert retry.replayed and not first.replayed


def test_control_another_key_racing_the_same_version_is_still_stale(monkeypatch):
    """The fresh look-up only answers a retry: another tap chosen at the same version is 409 as before."""
    first, other = _race(monkeypatch, "k2")
    assert not isinstance(first, Exception), first
    assert isinstance(other, StaleVersion), other
