"""A seat opened on a second phone is seen by the whole table (the join-link door).

Whoever holds every join link can read any seat's hidden hand by opening
its link on a phone of their own: the host's page lists every link and QR
code for the whole game (the host is usually a player), and the API's
creator gets every token. A seat's link stays valid while its phone holds
it, so this cannot be refused without locking a player out after a lost
cookie; it is made visible instead: a seat that one phone holds, opened on
another, leaves a log line every phone reads ("The seat of Bob was opened
on another phone."). A reload of the same phone leaves none. A planted
control proves the probe fails when the second phone goes unlogged.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Seat
from games.record.audit import replay
from games.write import host
from games.write.host import claim_seat
from games.write.pregame import create_table
from tests.conftest import phone_for

from .probes import Figures

pytestmark = pytest.mark.django_db

THREE = [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}]


def lines(client: Client, code: str) -> list[dict]:
    return client.get(f"/api/tables/{code}/log/").json()["log"]


def second_phone_probe(figures: Figures, label: str) -> None:
    """Bob's phone holds his seat; the host opens Bob's link on another phone: every reader must see a line."""
    table = create_table("yellow_yangtze", {"components": "digital"}, THREE, seed=5)
    bob = phone_for(table, 1)
    carol = Client(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=2).token}")
    before = {line["seq"] for line in lines(carol, table.code)}
    bob.get(f"/t/{table.code}/")  # a reload of the same phone: no line
    figures.check({line["seq"] for line in lines(carol, table.code)} == before,
                  f"{label}: a reload of Bob's own phone was logged")
    spy = phone_for(table, 1)  # the host's second phone opens Bob's link
    assert "Bob" in spy.get(f"/t/{table.code}/").content.decode()
    for name, reader in (("Carol's api log", carol), ("the public api log", Client())):
        new = [line for line in lines(reader, table.code) if line["seq"] not in before]
        figures.check(len(new) == 1 and new[0]["kind"] == "opened" and "Bob" in new[0]["text"],
                      f"{label}: the second phone left no line on {name}: {new}")
    page = bob.get(f"/t/{table.code}/").content.decode()
    figures.check("was opened on another phone" in page, f"{label}: Bob's own phone does not say so")
    table.refresh_from_db()
    figures.check(replay(table) == table.game().decode(table.state), f"{label}: the line changed the game")


def test_a_seat_opened_on_a_second_phone_is_a_public_line():
    figures = Figures()
    second_phone_probe(figures, "second phone")
    print(f"\nsecond phone: probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert figures.leaks == []


def test_control_a_silent_second_phone_is_caught(monkeypatch):
    """Plant a claim that logs no line: the probe must flag it."""
    real = claim_seat

    def silent(seat, device):
        Seat.objects.filter(pk=seat.pk).update(claimed_by_device="")  # as if nobody had held the seat
        return real(seat, device)

    monkeypatch.setattr(host, "claim_seat", silent)
    figures = Figures()
    second_phone_probe(figures, "planted silent claim")
    print(f"\ncontrol (silent claim): probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert any("left no line" in leak for leak in figures.leaks), figures.leaks
