"""A refused physical entry is seen by the whole table (DESIGN.md "Pages and sync": secrets stay).

In physical mode a seat types in what it drew. Its phone lists every outcome
the seat cannot rule out (the tiles or cards it cannot see), and the engine
refuses one the real bag or pile cannot give. The bag is the whole set less
the board and every hand, so a refusal of a listed outcome says "the others
hold these": seat A could probe the others' hands by typing outcomes in, one
refusal after another, with nothing written. The fix under test: the refusal
says the same words and code whatever rules the outcome out, and every
refused entry is logged as a public line without content ("The app refused
the draw Alice entered; ...") that every phone and the table screen read.

Positions are dealt by hand (physical mode, Yellow & Yangtze §1.3, Sorry!
points mode 3.2): Bob and Carol "draw" the scarce colour or card, so that an
outcome Alice may list is refused by the real bag alone. A planted control
proves the probe fails when refusals are not logged.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games.engines.base import IllegalAction
from games.models import Action, Table
from games.record.audit import replay
from games.write import moves
from games.write.moves import _log_refused_entry, own_undo_target, submit_action
from games.write.pregame import create_table
from shelf.sorry.state import CARDS

from .probes import Figures, refused_entry_probe

pytestmark = pytest.mark.django_db

THREE = [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}]
ALICE = 0


def dealt(slug: str, options: dict, draws: list[tuple[int, dict]]) -> Table:
    """A physical table where Bob starts (so Alice draws last), with the draws ``(seat, action)`` entered."""
    table = create_table(slug, {**options, "components": "physical"}, THREE, seed=11,
                                  start="chosen", start_seat=1)
    for seat, action in draws:
        table.refresh_from_db()
        submit_action(table.code, seat, action, table.version)
    table.refresh_from_db()
    return table


def yellow_yangtze_table() -> Table:
    """§1.3 deal: Bob draws 6 yellow, Carol 3 yellow and 3 red; 3 of the 12 yellow tiles are left in the bag.

    Alice cannot see the others' hands, so her phone lists "6 yellow" (12
    yellow tiles are unseen by her); the real bag refuses it.
    """
    return dealt("yellow_yangtze", {}, [
        (1, {"kind": "draw", "tiles": ["yellow"] * 6}),
        (2, {"kind": "draw", "tiles": ["yellow"] * 3 + ["red"] * 3}),
    ])


def sorry_table() -> Table:
    """Points mode, cards dealt by hand one at a time (3.2): Bob and Carol draw every 2 of the deck.

    Alice draws other cards meanwhile; once no 2 is left, her phone still
    lists the 2 (she cannot see the others' hands) and the real pile refuses it.
    """
    table = create_table("sorry", {"points_mode": True, "components": "physical"}, THREE, seed=11,
                                  start="chosen", start_seat=1)
    for _ in range(40):
        table.refresh_from_db()
        game = table.game()
        state = game.decode(table.state)
        seat = game.prompt(state).seats[0]
        deck = dict(zip(CARDS, game._pile(state)[0], strict=True))
        if seat == ALICE and deck["2"] == 0:
            return table
        card = "2" if seat != ALICE and deck["2"] else max((c for c in CARDS if c != "2"), key=deck.__getitem__)
        submit_action(table.code, seat, {"kind": "draw", "card": card}, table.version)
    raise AssertionError("the deal did not give Bob and Carol every 2")


@pytest.mark.parametrize("make", [yellow_yangtze_table, sorry_table], ids=["yellow_yangtze", "sorry_points"])
def test_every_refused_entry_is_a_public_line_without_its_content(make):
    table = make()
    game = table.game()
    assert ALICE in game.prompt(game.decode(table.state)).seats, "Alice is to draw"
    figures = Figures()
    refused_entry_probe(table, ALICE, figures, "dealt by hand")
    print(f"\nrefused entries {table.slug}: probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert figures.probes > 0, "Alice could list an outcome the real bag or pile refuses"
    assert figures.leaks == []


def test_a_refusal_reads_the_same_whoever_holds_the_tiles():
    """§1.2: the words and code of a refused draw never say which colour or whose hand rules it out.

    "6 yellow" (3 left) and "4 yellow, 2 red" are refused for the same
    reason seen from two sides; moving Bob's yellows to Carol changes
    nothing Alice reads.
    """
    table = yellow_yangtze_table()
    alice = Client(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=ALICE).token}")

    def answer(tiles):
        table.refresh_from_db()
        reply = alice.post(f"/api/tables/{table.code}/actions/", {"action": {"kind": "draw", "tiles": tiles},
                           "version": table.version}, content_type="application/json")
        body = reply.json()
        return reply.status_code, body["code"], body["message"], body.get("details"), body.get("rule_url")

    first = answer(["yellow"] * 6)
    second = answer(["yellow"] * 4 + ["red"] * 2)
    assert first[0] == 400 and first[1] == "tile_not_in_bag"
    assert first == second
    game = table.game()
    state = game.decode(table.state)
    hands = list(state.hands)
    hands[1], hands[2] = hands[2], hands[1]  # Carol holds Bob's yellows now: the bag is the same
    from dataclasses import replace
    Table.objects.filter(id=table.id).update(state=game.encode(replace(state, hands=tuple(hands))))
    assert answer(["yellow"] * 6) == first


def test_probing_leaves_one_line_per_refusal_even_with_one_key():
    """A retried key must not hide a probe: five refusals with the same key are five lines on Bob's phone."""
    table = yellow_yangtze_table()
    for _ in range(5):
        table.refresh_from_db()
        with pytest.raises(IllegalAction):
            submit_action(table.code, ALICE, {"kind": "draw", "tiles": ["yellow"] * 6}, table.version, "k1")
    bob = Client(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=1).token}")
    lines = [line for line in bob.get(f"/api/tables/{table.code}/log/").json()["log"] if line["kind"] == "refused"]
    assert len(lines) == 5
    assert all("Alice" in line["text"] and "yellow" not in line["text"] for line in lines)


def test_a_refused_entry_changes_nothing_and_keeps_undo_my_move():
    """The refused row is no move: the state and every replay stay, and the seat's own take-back still works."""
    table = yellow_yangtze_table()
    before = table.state
    with pytest.raises(IllegalAction):
        submit_action(table.code, ALICE, {"kind": "draw", "tiles": ["yellow"] * 6}, table.version)
    table.refresh_from_db()
    assert table.state == before
    assert table.actions.filter(kind=Action.Kind.REFUSED).get().payload == {"kind": "draw"}
    assert table.game().encode(replay(table)) == before
    game = table.game()
    move = Action(seq=5, kind=Action.Kind.GAME, seat=ALICE, payload={"kind": "tile", "colour": "red", "hex": [0, 0]},
                  version=5)
    refused = Action(seq=6, kind=Action.Kind.REFUSED, seat=ALICE, payload={"kind": "draw"}, version=6)
    assert own_undo_target([move, refused], ALICE, game) is move


def test_control_refusals_left_unlogged_are_caught(monkeypatch):
    """Plant a refusal that writes nothing: the probe must flag the silent refusal."""
    monkeypatch.setattr(moves, "_log_refused_entry", lambda *args, **kwargs: None)
    table = yellow_yangtze_table()
    figures = Figures()
    refused_entry_probe(table, ALICE, figures, "planted silent refusal")
    print(f"\ncontrol (silent refusal): probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert any("left no public line" in leak for leak in figures.leaks), figures.leaks


def test_control_a_line_that_quotes_the_entry_is_caught(monkeypatch):
    """Plant a refused line that says what was typed in: the probe must flag its content."""
    from games.read import presenters

    real = presenters._host_line

    def leaky(row, names, *rest):
        if row.kind == Action.Kind.REFUSED:
            return f"{names.get(row.seat)} typed {row.payload.get('tiles') or row.payload.get('card')}"
        return real(row, names, *rest)

    real_log = _log_refused_entry

    def log_with_content(code, seat, action):
        real_log(code, seat, action)
        row = Action.objects.filter(table__code=code, kind=Action.Kind.REFUSED).order_by("-seq").first()
        row.payload = {**row.payload, **{k: v for k, v in action.items() if k != "kind"}}
        row.save(update_fields=["payload"])

    monkeypatch.setattr(presenters, "_host_line", leaky)
    monkeypatch.setattr(moves, "_log_refused_entry", log_with_content)
    table = yellow_yangtze_table()
    figures = Figures()
    refused_entry_probe(table, ALICE, figures, "planted quoting line")
    print(f"\ncontrol (quoting line): probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert any("differs between refused entries" in leak for leak in figures.leaks), figures.leaks
