"""A board drawn in parts (games/web/parts.py): one render per distinct part, pushes of the parts that changed.

For each game whose board is drawn in parts, the phones follow a seeded game. Each push is applied the way
htmx applies it (a whole region replaced, or a part's contents swapped by its
id), and after every move each phone's board is exactly the board its own page
would show. Pushes between moves carry parts, not the board; a part the phones
show alike is drawn once.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest

from games.models import Table
from games.read import regions, snapshots
from games.read.presenters import seat_context
from games.socket.consumers import render_push
from games.web import parts
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.registry import SHIPPED, examples

pytestmark = pytest.mark.django_db

#: The games drawn in parts: the parts every phone shows alike at the opening (drawn once for four phones), and
#: those each seat shows of its own (drawn once per seat): each game's ``BOARD_PARTS`` in its ``examples.py``.
GAMES = {slug: examples(slug).BOARD_PARTS for slug in SHIPPED if hasattr(examples(slug), "BOARD_PARTS")}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
BOARD = next(r for r in regions.REGIONS if r.name == "board")


class _TopLevel(HTMLParser):
    """Splits a frame into its top-level elements: ``[(tag, attrs, outer_html, inner_html)]``."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text, self.depth, self.out, self.start, self.inner_start, self.top = text, 0, [], 0, 0, None
        self.lines = [0]
        for line in text.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.feed(text)

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        if self.depth == 0:
            self.start, self.top = self._offset(), (tag, dict(attrs))
            self.inner_start = self.text.index(">", self.start) + 1
        self.depth += 1

    def handle_endtag(self, tag):
        self.depth -= 1
        if self.depth == 0:
            end = self._offset()
            close = self.text.index(">", end) + 1
            self.out.append((*self.top, self.text[self.start:close], self.text[self.inner_start:end]))


def _apply(frame: str, phone: dict[str, str]) -> None:
    """Apply ``frame`` to ``phone`` (``{"board": html}``) as htmx does: the board whole, or a part's contents."""
    for _tag, attrs, outer, inner in _TopLevel(frame).out:
        oob = attrs.get("hx-swap-oob")
        if attrs.get("id") == "r-board":
            phone["board"] = outer.replace(' hx-swap-oob="true"', "", 1)
        elif oob and oob.startswith("innerHTML"):
            target = oob.partition(":#")[2] or attrs["id"]
            head = re.search(rf'<[a-z]+ id="{re.escape(target)}"[^>]*>', phone["board"])
            assert head, f"the phone has no part {target}"
            start = head.end()
            # The part's own contents as the phone holds them: the part that the page assembled there.
            old = next(p.inner for p in phone["parts"] if p.id == target)
            assert phone["board"][start:start + len(old)] == old
            phone["board"] = phone["board"][:start] + inner + phone["board"][start + len(old):]
            phone["parts"] = [parts.Part(p.id, p.element, p.digest, inner) if p.id == target else p
                              for p in phone["parts"]]


def _names(slug: str) -> list[str]:
    return ["Ann", "Ben", "Cy"] if slug == "amun_re" else ["Ann", "Ben", "Cy", "Di"]


@pytest.mark.parametrize("slug", GAMES)
def test_every_phone_follows_the_game_from_part_pushes_alone(slug):
    names = _names(slug)
    table = create_table(slug, {}, [{"name": n} for n in names], seed=5)
    tokens = [s.token for s in table.seats.order_by("index")]
    phones = [{"sent": regions.Sent(), "board": "", "parts": []} for _ in names]
    chooser = random.Random(5)
    pushes = {"whole": 0, "parts": 0}
    for _ in range(40):
        row = Table.objects.get(code=table.code)
        snap = snapshots.for_table(row)
        for seat, phone in enumerate(phones):
            frame = render_push(table.code, tokens[seat], "en", False, phone["sent"])
            if 'id="r-board"' in frame:
                pushes["whole"] += 1
            elif "innerHTML" in frame:
                pushes["parts"] += 1
            _apply(frame, phone)
            if 'id="r-board"' in frame:
                phone["parts"] = list(regions.rendered_region(BOARD, _context(snap, seat)).parts)
            drawn = regions.rendered_region(BOARD, _context(snap, seat))
            assert phone["board"] == drawn.html, (row.version, seat)
        game, state = snap.game, snap.state
        if game.result(state) is not None:
            break
        seat = chooser.choice(game.prompt(state).seats)
        submit_action(table.code, seat, chooser.choice(game.legal_actions(state, seat)), row.version)
    assert pushes["parts"] > 3 * pushes["whole"], pushes


def _context(snap, seat):
    context = seat_context(snap, seat)
    context.update(is_host=False, csrf_token=None)
    return context


@pytest.mark.parametrize("slug", GAMES)
def test_a_part_the_phones_show_alike_is_drawn_once(monkeypatch, slug):
    names = _names(slug)
    table = create_table(slug, {}, [{"name": n} for n in names], seed=5)
    snap = snapshots.for_table(Table.objects.get(code=table.code))
    drawn: list[str] = []
    real = parts.made

    def counting(at, origin, part_id, dom_id, element, inputs, draw):
        if not snap.memoized("html", ("part", parts.digest(origin, part_id, inputs))):
            drawn.append(dom_id)
        return real(at, origin, part_id, dom_id, element, inputs, draw)

    monkeypatch.setattr(parts, "made", counting)
    for seat in range(len(names)):
        regions.rendered_region(BOARD, _context(snap, seat))
    for part_id in GAMES[slug]["shared"]:
        assert drawn.count(part_id) == 1, (part_id, drawn)
    for part_id in GAMES[slug]["own"]:
        assert drawn.count(part_id) == len(names), (part_id, drawn)  # each seat's own (its hand, its points)


def test_sorry_draws_the_pawns_once_for_every_phone_and_the_targets_for_the_seat_to_move_only():
    """The Sorry! pawns are drawn from the pawns alone, so the mover's phone and every other one hold the same part;
    the targets of a phone without legal taps are empty, one part for all of them that stays as it is from move to
    move (no push)."""
    table = create_table("sorry", {}, [{"name": n} for n in _names("sorry")], seed=5)
    chooser = random.Random(5)
    idle: set[str] = set()
    checked = lit = 0
    for _ in range(60):
        snap = snapshots.for_table(Table.objects.get(code=table.code))
        drawn = {seat: {p.id: p for p in regions.rendered_region(BOARD, _context(snap, seat)).parts}
                 for seat in (*range(len(_names("sorry"))), None)}
        movers = {seat for seat in drawn if seat is not None and _context(snap, seat)["legal"]}
        pawns = {(p["sorry-pawns"].digest, p["sorry-pawns"].inner) for p in drawn.values()}
        assert len(pawns) == 1, "the mover's pawns are every other phone's"
        assert "data-pawn" in next(iter(pawns))[1] and "data-open" not in next(iter(pawns))[1]
        for seat, by_id in drawn.items():
            targets = by_id["sorry-targets"]
            if seat in movers:
                movable = {a["payload"].get("pawn") for a in _context(snap, seat)["legal"]} - {None}
                assert targets.inner.count('class="hit tap pawn-hit"') == len(movable), seat
                lit += len(movable)
            else:
                assert targets.inner == "", (seat, targets.inner)
                idle.add(targets.digest)
        checked += bool(movers)
        game, state = snap.game, snap.state
        if game.result(state) is not None:
            break
        seat = chooser.choice(game.prompt(state).seats)
        submit_action(table.code, seat, chooser.choice(game.legal_actions(state, seat)), snap.table.version)
    assert checked >= 40 and lit >= 8, (checked, lit)
    assert len(idle) == 1, "every phone without taps, at every move, holds one empty targets part"


@pytest.mark.parametrize("slug", SHIPPED)
def test_every_shipped_game_has_a_case_here(slug):
    """Every shipped game is in ``GAMES``: a new game fails here rather than pass unchecked."""
    assert slug in GAMES, f"{slug} has no case in {__name__}.GAMES (BOARD_PARTS in its examples.py)"
