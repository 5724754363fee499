"""Every change a phone may see moves ``Table.revision`` through the one write path, which then sends
``table_written`` and broadcasts ``{"type": "table.revision", "revision": R, "version": V}``, with the move's
fields and row when it is a move (COMMON.md
interfaces; shared/DESIGN.md "The write path, the read model, the regions")."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from games.models import Table
from games.record.setup import walkthrough
from games.write import write_path
from games.write.corrections import confirm_correction, propose_correction
from games.write.host import claim_seat, end_game, hand_over_seat
from games.write.moves import submit_action
from games.write.pregame import check_walk_step, create_table, play_again

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard(monkeypatch):
    """What happened after each commit, in order: ``("signal", kwargs)`` and ``("broadcast", group, message)``."""
    events: list[tuple] = []

    class Layer:
        async def group_send(self, group, message):
            events.append(("broadcast", group, message))

    def receiver(sender, **kwargs):
        events.append(("signal", kwargs))

    monkeypatch.setattr(write_path, "get_channel_layer", lambda *args: Layer())
    write_path.table_written.connect(receiver, dispatch_uid="test-heard")
    yield events
    write_path.table_written.disconnect(dispatch_uid="test-heard")


def _one_write(events: list[tuple], code: str, before: int) -> dict:
    """The write's signal and broadcast, in that order, naming the revision after ``before``."""
    assert [e[0] for e in events] == ["signal", "broadcast"], events
    table = Table.objects.get(code=code)
    signal, broadcast = events[0][1], events[1]
    assert table.revision > before
    assert signal["before"] == before and signal["table"].revision == table.revision
    assert broadcast[1] == f"table_{code}"
    message = dict(broadcast[2])
    move = message.pop("move", None)
    assert message == {"type": "table.revision", "revision": table.revision, "version": table.version}
    row = signal["row"]
    # A move's message carries what another process makes the snapshot from: the saved table fields, the new row,
    # each as the database gives it back. Any other write's message carries none (its snapshot is read anew).
    assert (move is not None) == (row is not None and row.kind == "game")
    if move is not None:
        told_before, fields, told_row = write_path.read_move(move)
        assert told_before == before and fields["revision"] == table.revision
        assert all(getattr(table, name) == value for name, value in fields.items()), fields
        saved = table.actions.get(seq=row.seq)
        assert {f.attname: getattr(told_row, f.attname) for f in saved._meta.concrete_fields} == \
            {f.attname: getattr(saved, f.attname) for f in saved._meta.concrete_fields}
    events.clear()
    return signal


def test_every_change_a_phone_sees_moves_the_revision_and_is_told(heard, django_capture_on_commit_callbacks):
    table = create_table("counting", {"components": "physical"}, [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}])
    changes = [
        ("a move", lambda: submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0), "game"),
        ("a claim", lambda: claim_seat(table.seats.get(index=1), "phone-b"), None),
        ("a seat opened on another phone", lambda: claim_seat(table.seats.get(index=1), "phone-c"), "opened"),
        ("a hand-over", lambda: hand_over_seat(table.code, 2), None),
        ("a correction proposed", lambda: propose_correction(table.code, 1, 1, {"kind": "draw", "card": "2"}), None),
        ("a correction confirmed", lambda: confirm_correction(table.code, _open(table), 0), None),
    ]
    for name, change, kind in changes:
        before = Table.objects.get(code=table.code).revision
        with django_capture_on_commit_callbacks(execute=True):
            change()
        signal = _one_write(heard, table.code, before)
        assert (signal["row"].kind if signal["row"] is not None else None) == kind, name
    before = Table.objects.get(code=table.code).revision
    with django_capture_on_commit_callbacks(execute=True):
        confirm_correction(table.code, _open(table), 2)  # the last "yes": recorded, then applied
    assert [e[0] for e in heard] == ["signal", "broadcast", "signal", "broadcast"], heard
    assert heard[2][1]["row"].kind == "correct" and Table.objects.get(code=table.code).revision > before


def _open(table: Table) -> int:
    return table.corrections.get(status="open").id


def test_the_walkthrough_play_again_and_a_rebuilt_snapshot_are_told(heard, django_capture_on_commit_callbacks):
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3, walkthrough=True)
    first = walkthrough(table.game())[0].id

    def damaged_then_rebuilt() -> None:
        Table.objects.filter(code=table.code).update(state={**table.state, "discard": ["1"]})
        call_command("replay_table", table.code, "--fix", stdout=io.StringIO())

    for change in (lambda: check_walk_step(table.code, first), damaged_then_rebuilt,
                   lambda: end_game(table.code), lambda: play_again(table.code)):
        before = Table.objects.get(code=table.code).revision
        with django_capture_on_commit_callbacks(execute=True):
            change()
        _one_write(heard, table.code, before)
    assert Table.objects.get(code=table.code).state == table.state, "the snapshot was rebuilt from the log"


def test_the_write_path_imports_nothing_of_the_read_model_or_the_pages():
    tree = ast.parse((Path(settings.BASE_DIR) / "games" / "write" / "write_path.py").read_text())
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    names |= {f"{node.module}.{alias.name}" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
              for alias in node.names}
    presentation = ("games.live", "games.read.snapshots", "games.read.presenters", "games.pages.views", "games.socket.consumers",
                    "games.read.regions", "games.entry.refusals", "games.api", "games.write")
    assert not [n for n in names if n.startswith(presentation) or n in {"games.live", "games.read.snapshots"}], names
