"""No secret leaks through any door: seeded games of every game with secrets, probed at each step.

Games with secrets: Yellow & Yangtze (hands, screened points), Sorry! in
points mode (hands), Amun-Re (sealed offerings) and the contract game of the
tests (hands); Catan Junior has none
(its visibility module: everything lies open). Each is played with random
legal actions through the one write path, in digital and in physical mode,
and seat 0's doors are probed (see :mod:`tests.secrecy.probes`) against a
twin for every other seat and against the other seats' own log lines.
Planted-leak controls prove that the probes catch a leak in a door.

``pytest -s tests/secrecy`` prints the figures of each run: the probed
steps, the twins, the probes and the leaks found (every run must find none;
the planted-leak controls must each be caught).

A refused physical draw is logged for the whole table, so no refusal goes
unseen; a finished game stays over with its seed published. The draw prompt
of a physical run lists only what its drawer cannot rule out, and a refused
correction says only "move #N no longer fits", never the rule another
seat's later move broke.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games.models import Table
from games.write import moves
from games.write.moves import submit_action
from games.write.pregame import create_table
from shelf.yellow_yangtze import YellowYangtzeGame
from tests.registry import GAMES as REGISTERED
from tests.registry import examples

from .probes import TWINS, Doors, Figures, correction_refusal_probe, has_hidden_values, probe_step

pytestmark = pytest.mark.django_db

THREE = [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}]
VIEWER = 0

#: (slug, options, seed, moves played, probe every k-th move): a bounded run per game and component mode, each
#: game's ``SECRECY_RUNS`` in its ``examples.py`` (the whole suite stays well under a minute on two busy cores).
#: Amun-Re is probed at its sealed offering.
GAMES = [(slug, *run) for slug in REGISTERED for run in getattr(examples(slug), "SECRECY_RUNS", ())]


def choose(rng: random.Random, game: Any, state: Any, seat: int) -> dict[str, Any]:
    """A random legal action; a physical draw is one the real bag or pile can give (what the table really drew)."""
    legal = game.legal_actions(state, seat)
    rng.shuffle(legal)
    for action in legal:
        try:
            game.apply(state, seat, game.fill_chance(state, seat, action, random.Random(0)))
        except Exception:  # noqa: BLE001 - a listed outcome the hidden truth rules out
            continue
        return action
    raise AssertionError("no listed action applies")


def is_secret_step(slug: str, step: str) -> bool:
    """Steps probed every time: Amun-Re's sealed offering (the one secret of that game, rules 2.5)."""
    return slug == "amun_re" and step == "offering"


Probe = Callable[[Table, int, Doors, Figures, str], None]


def run(slug: str, options: dict[str, Any], seed: int, moves: int, every: int, figures: Figures,
        probe: Probe = probe_step) -> Table:
    """Play ``moves`` random actions through the write path, probing seat 0's doors every ``every`` moves.

    Where several phones are asked at once (an offering), seat 0 answers
    last, so the others' sealed answers are there to be probed.
    """
    table = create_table(slug, options, THREE, seed=seed)
    doors = Doors(table, VIEWER)
    rng = random.Random(seed)
    chance_probes = 2  # physical-mode choice lists of seat 0: probed the first times they come up
    for n in range(moves):
        table.refresh_from_db()
        game = table.game()
        state = game.decode(table.state)
        if game.result(state) is not None:
            break
        prompt = game.prompt(state)
        my_draw = game.physical and prompt.chance and VIEWER in prompt.seats and chance_probes > 0
        chance_probes -= my_draw
        if n % every == every - 1 or is_secret_step(slug, prompt.step) or my_draw:
            probe(table, VIEWER, doors, figures, f"{slug} {options.get('components')} move {n}")
        seat = prompt.seats[-1]
        submit_action(table.code, seat, choose(rng, game, state, seat), table.version)
    probe(table, VIEWER, doors, figures, f"{slug} {options.get('components')} end")
    return table


@pytest.mark.parametrize(("slug", "options", "seed", "moves", "every"), GAMES,
                         ids=[f"{g[0]}-{g[1]['components']}" for g in GAMES])
def test_no_door_shows_seat_0_another_seats_hidden_values(slug, options, seed, moves, every):
    figures = Figures()
    run(slug, options, seed, moves, every, figures)
    print(f"\n{slug} {options['components']}: {figures.steps} steps, {figures.twins} twins, "
          f"probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert figures.twins > 0, "the run reached positions with hidden values to twin"
    assert figures.leaks == []


@pytest.mark.parametrize("slug", REGISTERED)
def test_every_game_with_hidden_values_is_probed_here(slug):
    """A registered game whose seats see something the table does not (``view["private"]``) needs a twin
    (``twin`` in its ``examples.py``) and a run in each component mode (its ``SECRECY_RUNS``, default options)."""
    secret = has_hidden_values(slug)
    if secret:
        assert slug in TWINS, f"{slug} has hidden values but no twin in its examples.py"
        assert {g[1]["components"] for g in GAMES if g[0] == slug} == {"digital", "physical"}


# -- correction refusals (kept apart) ---------------------------------------------


#: The runs whose corrections are probed: Yellow & Yangtze physical and Amun-Re digital.
CORRECTED = [g for g in GAMES if (g[0], g[1]["components"]) in {("yellow_yangtze", "physical"), ("amun_re", "digital")}]


@pytest.mark.parametrize(("slug", "options", "seed", "moves", "every"), CORRECTED, ids=[g[0] for g in CORRECTED])
def test_a_refused_correction_never_quotes_the_rule_another_seats_move_broke(slug, options, seed, moves, every):
    """Seat 0 proposes to drop or change its own latest move; a refusal may say "move #N no longer fits", no more.

    The rule a later move of another seat would break talks about that
    seat's hand, points or offering, so quoting it would leak; the Amun-Re
    case below is one such move.
    """
    figures = Figures()
    run(slug, options, seed, moves, every, figures, probe=correction_refusal_probe)
    print(f"\ncorrections {slug}: probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert figures.leaks == []


# -- planted-leak controls: the suite can fail ----------------------------------------------------------


def played_until(slug: str, options: dict[str, Any], seed: int, done: Callable[[Table], bool]) -> Table:
    """A table played at random through the write path until ``done(table)`` (at most 60 moves)."""
    table = create_table(slug, options, THREE, seed=seed)
    rng = random.Random(seed)
    for _ in range(60):
        table.refresh_from_db()
        if done(table):
            return table
        game = table.game()
        state = game.decode(table.state)
        seat = game.prompt(state).seats[-1]
        submit_action(table.code, seat, choose(rng, game, state, seat), table.version)
    raise AssertionError("the position was not reached")


def others_prompted(table: Table) -> bool:
    game = table.game()
    return VIEWER not in game.prompt(game.decode(table.state)).seats


def test_control_a_hand_planted_in_the_phone_page_is_caught(monkeypatch):
    """Plant Bob's hand into the log Alice's phone renders: the twin probe of page and fragment must flag it."""
    from games.pages import views

    real_context = views.seat_context

    def leaky_context(table, viewer):
        context = real_context(table, viewer)
        hand = table.game().decode(table.state).hands[1]
        context["log"] = [*context["log"], {**context["log"][-1], "text": f"psst {list(hand)}"}]
        return context

    table = played_until("yellow_yangtze", {"components": "digital"}, 3, lambda t: True)
    monkeypatch.setattr(views, "seat_context", leaky_context)
    figures = Figures()
    probe_step(table, VIEWER, Doors(table, VIEWER), figures, "planted page leak")
    print(f"\ncontrol (page): probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert any("page depends on seat 1" in leak for leak in figures.leaks), figures.leaks
    assert any("fragment depends on seat 1" in leak for leak in figures.leaks), figures.leaks
    assert any("screen depends on seat 1" in leak for leak in figures.leaks), figures.leaks  # the table screen too


def test_control_a_private_log_line_planted_in_the_log_is_caught(monkeypatch):
    """Show every seat the drawer's own log line: the marker probe of the log must flag it."""
    from tests.secrecy import probes

    table = played_until("yellow_yangtze", {"components": "digital"}, 3,
                         lambda t: bool(probes.owner_markers(t, t.game(), VIEWER)))
    markers = probes.owner_markers(table, table.game(), VIEWER)  # how the owner reads it, with the real describe
    real_describe = YellowYangtzeGame.describe

    def leaky_describe(self, seat, action, viewer):
        return real_describe(self, seat, action, seat)  # everyone reads the drawer's own line

    monkeypatch.setattr(YellowYangtzeGame, "describe", leaky_describe)
    monkeypatch.setattr(probes, "owner_markers", lambda *_args: markers)
    figures = Figures()
    probe_step(table, VIEWER, Doors(table, VIEWER), figures, "planted log leak")
    print(f"\ncontrol (log): probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert any("api log shows another seat's own line" in leak for leak in figures.leaks), figures.leaks


def test_control_a_refusal_naming_a_hidden_value_is_caught(monkeypatch):
    """Make every refusal quote Bob's hand: the twin probe of refusals must flag it."""
    from games.engines.base import IllegalAction

    real_apply = YellowYangtzeGame.apply

    def leaky_apply(self, state, seat, action):
        try:
            return real_apply(self, state, seat, action)
        except IllegalAction as exc:
            raise IllegalAction(exc.code, "{m} (bob holds {h})", m=exc.message, h=list(state.hands[1])) from exc

    table = played_until("yellow_yangtze", {"components": "digital"}, 3, others_prompted)
    monkeypatch.setattr(YellowYangtzeGame, "apply", leaky_apply)
    figures = Figures()
    probe_step(table, VIEWER, Doors(table, VIEWER), figures, "planted refusal leak")
    print(f"\ncontrol (refusal): probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert any("refusal of" in leak and "seat 1" in leak for leak in figures.leaks), figures.leaks


def test_control_an_open_correction_shown_as_its_owner_reads_it_is_caught(monkeypatch):
    """Word another seat's proposed draw as its owner reads it on every phone: the open-correction probe flags it."""
    from games.models import Correction
    from games.pages import views
    from games.read.presenters import tr
    from tests.secrecy import probes

    real_context = views.seat_context

    def leaky_context(table, viewer):
        context = real_context(table, viewer)
        game = table.game()
        for entry in context["corrections"]:
            correction = Correction.objects.get(id=entry["id"])
            mover = table.actions.get(seq=correction.target_seq).seat
            own = game.describe(mover, correction.replacement, mover)
            entry["replacement"] = tr(own.text, own.details)
            entry["hidden"] = False  # and worded as an ordinary correction, content and all
        return context

    table = played_until("yellow_yangtze", {"components": "physical"}, 4,
                         lambda t: bool(probes.owner_markers(t, t.game(), VIEWER)))
    monkeypatch.setattr(views, "seat_context", leaky_context)
    figures = Figures()
    probe_step(table, VIEWER, Doors(table, VIEWER), figures, "planted correction leak")
    print(f"\ncontrol (open correction): probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert any("open correction shows" in leak for leak in figures.leaks), figures.leaks


def test_control_an_undo_my_move_refusal_naming_a_hidden_hand_is_caught(monkeypatch):
    """Make "undo my move" refuse with Bob's hand in its words: the twin probe of that door must flag it."""
    from games.engines.base import IllegalAction

    def leaky_undo_own(code, seat, seen_version, key=""):
        table = Table.objects.get(code=code)
        hand = table.game().decode(table.state).hands[1]
        raise IllegalAction("undo_not_yours", "psst {hand}", hand=str(list(hand)))

    table = played_until("yellow_yangtze", {"components": "digital"}, 3, lambda t: True)
    monkeypatch.setattr(moves, "undo_own", leaky_undo_own)
    figures = Figures()
    probe_step(table, VIEWER, Doors(table, VIEWER), figures, "planted undo-mine leak")
    print(f"\ncontrol (undo mine): probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert any("undo mine depends on seat 1" in leak for leak in figures.leaks), figures.leaks
