"""The public part of a phone's context is built once per snapshot and shared.

What is shared must be what every viewer is shown alike: a seat's context is
the same whichever phone (or the table screen) built the snapshot's public
part first, and what differs per viewer (who may answer the start question,
the legal taps, the log as the engine describes it to that seat) still does.
"""

from __future__ import annotations

import pytest

from games.read import regions, snapshots
from games.read.presenters import seat_context
from games.write.pregame import create_table

SEATS = [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")]
SHARED = ("prompt", "result", "seats", "signature", "waiting_names", "result_steps", "result_ties")


def _fresh_snapshot(code):
    snapshots.clear()
    return snapshots.by_code(code)


def _plain(context):
    """A context without its process-local helpers, for comparison."""
    return {k: v for k, v in context.items() if not k.startswith("_") and k not in ("game", "table", "snapshot")}


@pytest.mark.parametrize("first", [None, 0, 2])
def test_a_seat_context_does_not_depend_on_which_viewer_built_the_public_part_first(db, first):
    table = create_table("sorry", {}, SEATS, start="youngest")
    alone = {viewer: _plain(seat_context(_fresh_snapshot(table.code), viewer)) for viewer in (None, 0, 1, 2, 3)}
    snap = _fresh_snapshot(table.code)
    seat_context(snap, first)  # this viewer fills the shared part
    for viewer in (None, 0, 1, 2, 3):
        assert _plain(seat_context(snap, viewer)) == alone[viewer]
    # The start question is public, but only a seated phone may answer it.
    assert alone[None]["start"]["can_answer"] is False
    assert all(alone[v]["start"]["can_answer"] is True for v in (0, 1, 2, 3))


def test_the_shared_part_is_built_once_per_snapshot_and_language_and_holds_no_viewer(db):
    table = create_table("sorry", {}, SEATS)
    snap = _fresh_snapshot(table.code)
    contexts = [seat_context(snap, viewer) for viewer in (0, 1, 2, 3, None)]
    for key in SHARED:
        assert all(c[key] is contexts[0][key] for c in contexts), key
    assert len(snap._memos["public"]) == 1  # one language, one build
    # Per viewer: the seat, its turn, its legal taps.
    assert [c["seat"] for c in contexts] == [0, 1, 2, 3, None]
    movers = [c for c in contexts if c["legal"]]
    assert [c["seat"] for c in movers] == list(contexts[0]["prompt"]["seats"])


def test_a_replaced_piece_of_a_context_is_digested_anew(db):
    table = create_table("sorry", {}, SEATS)
    snap = _fresh_snapshot(table.code)
    status = next(r for r in regions.REGIONS if r.name == "status")
    context = seat_context(snap, 0)
    other = {**seat_context(snap, 0), "prompt": {**context["prompt"], "text_shown": "something else"}}
    other.pop("_parts", None)
    assert regions.region_digest(status, context) != regions.region_digest(status, other)
