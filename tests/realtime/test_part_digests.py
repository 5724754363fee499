"""A part's digest reads each input container once per snapshot, whichever parts read it (games/web/parts.py).

Several parts of a board read the same piece of a view (Catan Junior's islands feed the news, the islands, the Ghost
Captain and the tap targets): its content is encoded once per snapshot and each part's digest names it by that
digest. What the digest says must not change by it: equal inputs, equal digest; any change of content, a new one;
and a piece's digest never reads as a string input that happens to spell the same characters.
"""

from __future__ import annotations

from games.read import snapshots
from games.web import parts


def _snapshot() -> snapshots.Snapshot:
    """A bare snapshot: only its memo is used here."""
    return snapshots.Snapshot(code="T", revision=1, table=None, seats=(), rows=(), corrections=())


def test_a_piece_two_parts_read_is_encoded_once_per_snapshot(monkeypatch):
    islands = [{"id": n, "resource": "wood", "corners": "0,0 1,1 2,2"} for n in range(8)]
    encoded: list[str] = []
    stock = parts._ENCODE

    def counted(value):
        text = stock(value)
        encoded.append(text)
        return text

    monkeypatch.setattr(parts, "_ENCODE", counted)
    snap = _snapshot()
    first = parts.digest("board.html", "cj-islands", {"islands": islands, "castle": {"x": 1}}, snap)
    second = parts.digest("board.html", "cj-ghost", {"islands": islands, "castle": {"x": 1}}, snap)
    assert first != second, "two parts' digests differ by their ids"
    assert sum('"corners"' in text for text in encoded) == 1, "the islands were encoded once"


def test_equal_content_gives_equal_digests_and_any_change_a_new_one():
    inputs = {"islands": [{"id": 1, "owner": None}], "asking": 1}
    a = parts.digest("board.html", "cj-news", inputs, _snapshot())
    b = parts.digest("board.html", "cj-news", {"islands": [{"id": 1, "owner": None}], "asking": 1}, _snapshot())
    c = parts.digest("board.html", "cj-news", {"islands": [{"id": 1, "owner": 2}], "asking": 1}, _snapshot())
    d = parts.digest("board.html", "cj-news", {"islands": [{"id": 1, "owner": None}], "asking": 2}, _snapshot())
    assert a == b == parts.digest("board.html", "cj-news", inputs, None), "same content, same digest, held or not"
    assert len({a, c, d}) == 3


def test_a_pieces_digest_never_reads_as_a_string_input():
    snap = _snapshot()
    piece = ["wood", "brick"]
    tag, inner = parts.piece_digest(snap, piece)
    assert tag == "d"
    as_container = parts.digest("t.html", "p", {"x": piece}, snap)
    as_string = parts.digest("t.html", "p", {"x": inner}, snap)
    assert parts.piece_digest(snap, inner) == ["v", inner]
    assert as_container != as_string


def test_a_part_drawn_again_from_the_same_objects_is_the_same_part_and_drawn_once():
    snap = _snapshot()
    islands = [{"id": 1, "owner": None}]
    draws: list[int] = []

    def draw():
        draws.append(1)
        return "<b>1</b>"

    first = parts.made(snap, "t.jinja", "p", "p", "div", {"islands": islands}, draw)
    again = parts.made(snap, "t.jinja", "p", "p", "div", {"islands": islands}, draw)
    assert again is first and len(draws) == 1
    # An equal copy is another object: found by its content (same digest, same HTML), never by a stale identity.
    copy = parts.made(snap, "t.jinja", "p", "p", "div", {"islands": [{"id": 1, "owner": None}]}, draw)
    assert copy.digest == first.digest and copy.inner == first.inner and len(draws) == 1
    changed = parts.made(snap, "t.jinja", "p", "p", "div", {"islands": [{"id": 1, "owner": 2}]}, lambda: "<b>2</b>")
    assert changed.digest != first.digest and changed.inner == "<b>2</b>"
    other_id = parts.made(snap, "t.jinja", "q", "q", "div", {"islands": islands}, draw)
    assert other_id.id == "q" and other_id.digest != first.digest


def test_a_layout_filter_gives_one_result_per_snapshot_for_the_same_argument_objects():
    from django.template import engines

    env = engines["jinja2"].env
    calls: list[int] = []

    def grouped(items):
        calls.append(1)
        return [item["k"] for item in items]

    from games.web.jinja2env import _held

    env.filters["t_grouped"] = _held(grouped)
    try:
        template = env.from_string("{{ items|t_grouped|join(',') }}")
        snap = _snapshot()
        items = [{"k": "a"}, {"k": "b"}]
        assert template.render(items=items, snapshot=snap) == "a,b"
        assert template.render(items=items, snapshot=snap) == "a,b"
        assert len(calls) == 1, "the same objects on the same snapshot: regrouped once"
        assert template.render(items=[{"k": "c"}], snapshot=snap) == "c", "other objects: regrouped again"
        assert template.render(items=items, snapshot=_snapshot()) == "a,b"
        assert template.render(items=items) == "a,b", "without a snapshot (a part's body): regrouped every time"
        assert len(calls) == 4
    finally:
        del env.filters["t_grouped"]
