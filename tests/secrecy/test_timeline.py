"""The public timeline of a table being played, and the board of each of its steps, reveal nothing hidden.

Two probes, both twins (tests/secrecy/probes.py) read through the HTTP doors a phone uses during play:

- **Twin tables** for the timeline (``/t/<code>/history/``), which is built from the log: a second table whose log
  is the first's with the other seats' hidden entries changed (tiles or cards drawn into a hand, a sealed offering)
  must render byte for byte the same timeline, to a stranger and to Alice's phone, codes aside.
- **Twin positions** for every replay step (``/t/<code>/history/replay/?step=N``): each step's position with one
  seat's hidden values changed (Bob's, and Alice's own: during play a step shows the table screen's view to every
  phone) must render the same page, step by step from the opening to the newest move.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Action, Table
from games.pages import history
from games.pages.history import LOOKED_COOKIE
from games.write.pregame import create_table
from tests.conftest import phone_for
from tests.registry import GAMES, examples

from .probes import TWINS, has_hidden_values, normalise
from .test_ended_by_host import ALICE, BOB, THREE, to_a_secret

pytestmark = pytest.mark.django_db

#: (slug, options, seed, at least this many moves): every game with hidden values, played to a secret of Bob's
#: (its ``TIMELINE`` in its ``examples.py``).
CASES = [(slug, *examples(slug).TIMELINE) for slug in GAMES if hasattr(examples(slug), "TIMELINE")]

#: Per game, what a seat's hidden log entries hold and another value each could have held: (kind, field, change),
#: its ``HIDDEN_ENTRY`` in its ``examples.py``.
HIDDEN_ENTRIES = {slug: examples(slug).HIDDEN_ENTRY for slug in GAMES if hasattr(examples(slug), "HIDDEN_ENTRY")}


def twin_table(table: Table) -> tuple[Table, list[Action]]:
    """A second table with ``table``'s seats, options and log, except the hidden entries of every seat but Alice,
    each changed; and those rows. Amun-Re: only Bob's sealed offering (offerings are opened with the last one)."""
    kind, name, change = HIDDEN_ENTRIES[table.slug]
    twin = create_table(table.slug, table.options, THREE, seed=table.seed)
    twin.actions.all().delete()
    rows = list(table.actions.order_by("seq"))
    hidden = [r for r in rows if r.kind == Action.Kind.GAME and r.seat != ALICE and r.payload.get("kind") == kind
              and name in r.payload]
    if table.slug == "amun_re":
        hidden = [r for r in hidden if r.seat == BOB][-1:]
    for row in rows:
        payload = dict(row.payload)
        if row in hidden:
            payload[name] = change(payload[name])
        Action.objects.create(table=twin, seq=row.seq, kind=row.kind, seat=row.seat, payload=payload,
                              version=row.version)
    return twin, hidden


def timeline_of(table: Table, reader: Client) -> str:
    """The timeline page as ``reader`` reads it, with the table's code written as ``CODE``."""
    response = reader.get(f"/t/{table.code}/history/")
    assert response.status_code == 200
    return normalise(response.content.decode()).replace(table.code, "CODE")


@pytest.mark.parametrize(("slug", "options", "seed", "moves"), CASES, ids=[c[0] for c in CASES])
def test_twin_tables_differing_in_the_others_hidden_entries_show_the_same_timeline(slug, options, seed, moves):
    table = to_a_secret(slug, options, seed, moves)
    twin, changed = twin_table(table)
    assert changed
    seqs = [r.seq for r in table.actions.order_by("seq")]
    middle = seqs[len(seqs) // 2]
    for reader in (lambda t: Client(), lambda t: phone_for(t, ALICE)):
        pair = []
        for t in (table, twin):
            client = reader(t)
            client.cookies[LOOKED_COOKIE] = str(middle)  # the same last look: the moves since it are marked alike
            pair.append(timeline_of(t, client))
        real, other = pair
        assert real.count('<li id="move-') >= moves and 'class="new"' in real
        assert real == other
    # Not vacuous: the owner's own log line of each changed entry differs between the twins.
    game = table.game()
    for row in changed:
        twin_row = twin.actions.get(seq=row.seq)
        assert game.describe(row.seat, row.payload, row.seat) != game.describe(row.seat, twin_row.payload, row.seat)


def step_pages(table: Table, reader: Client, steps: range) -> list[str]:
    """The replay page of each step in ``steps``, as ``reader`` reads it (CSRF tokens aside)."""
    pages = []
    for step in steps:
        response = reader.get(f"/t/{table.code}/history/replay/?step={step}")
        assert response.status_code == 200
        pages.append(normalise(response.content.decode()))
    return pages


def twinned_steps(monkeypatch: pytest.MonkeyPatch, table: Table, seat: int) -> list[int]:
    """Make every replay of ``table`` show, at each step, the position with ``seat``'s hidden values changed
    (where the game has some to change there); the steps so changed."""
    played = history.replay(table)
    game, twin = played.game, TWINS[table.slug]
    states, changed = [], []
    for step, state in enumerate(played.states):
        other = twin(game, state, seat)
        if other is not None and other != state:
            assert game.view(other, seat) != game.view(state, seat), "the twin changes what its owner sees"
            changed.append(step)
            state = other
        states.append(state)
    monkeypatch.setattr(history, "replay", lambda t: history.Replay(game, played.moves, states))
    return changed


@pytest.mark.parametrize(("slug", "options", "seed", "moves"), CASES, ids=[c[0] for c in CASES])
def test_no_step_of_a_game_being_played_shows_a_hidden_value_of_any_seat(monkeypatch, slug, options, seed, moves):
    table = to_a_secret(slug, options, seed, moves)
    steps = range(len(history.replay(table).moves) + 1)
    readers = {"a stranger": Client(), "Alice's phone": phone_for(table, ALICE), "Bob's phone": phone_for(table, BOB)}
    real = {name: step_pages(table, reader, steps) for name, reader in readers.items()}
    assert "The opening position." in real["a stranger"][0] and f"Move {steps[-1]} of" in real["a stranger"][-1]
    for seat in (BOB, ALICE):
        with monkeypatch.context() as patched:
            changed = twinned_steps(patched, table, seat)
            assert changed or seat == ALICE, "Bob holds a secret at some step"  # Amun-Re: Alice has not offered
            for name, reader in readers.items():
                seen = step_pages(table, reader, steps)
                leaks = [step for step in steps if seen[step] != real[name][step]]
                assert not leaks, f"{name} tells seat {seat}'s hidden values apart at steps {leaks}"


def test_control_a_step_shown_as_the_asking_seat_sees_it_is_caught(monkeypatch):
    """The probe above is not blind: a replay that showed a seat's phone its own view during play is caught."""
    table = to_a_secret("yellow_yangtze", {"components": "digital"}, 3, 14)
    render = history.render_step
    monkeypatch.setattr(history, "render_step", lambda t, played, step, viewer: render(t, played, step, ALICE))
    steps = range(len(history.replay(table).moves) + 1)
    alice = phone_for(table, ALICE)
    real = step_pages(table, alice, steps)
    twinned_steps(monkeypatch, table, ALICE)
    assert step_pages(table, alice, steps) != real


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_with_hidden_values_has_a_case_here(slug):
    """A game whose seats hide something is in ``CASES``: a new game fails here rather than pass unprobed."""
    if has_hidden_values(slug):
        assert slug in {case[0] for case in CASES}, f"{slug} hides values but has no case in {__name__}.CASES (TIMELINE in its examples.py)"
        assert slug in HIDDEN_ENTRIES, f"{slug} hides values but has no HIDDEN_ENTRY in its examples.py"
