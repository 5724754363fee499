"""A phone's log lines are reused from the snapshot before only when nothing about them changed."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games.models import Table
from games.read import presenters, snapshots
from games.write.corrections import confirm_correction, propose_correction
from games.write.host import undo_last
from games.write.moves import submit_action
from games.write.pregame import create_table

pytestmark = pytest.mark.django_db


def _fresh(row, game, viewer):
    """The lines built from the database rows (no snapshot, nothing memoized)."""
    return [dict(line) for line in presenters.log_lines(row, game, viewer)]


def test_the_lines_reused_from_the_last_push_are_the_lines_built_anew_through_moves_undos_and_corrections(monkeypatch):
    made = []

    class Counted(presenters.ShownLine):
        __slots__ = ()

        def __init__(self, *args, **kwargs):
            made.append(kwargs.get("seq"))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(presenters, "ShownLine", Counted)  # built only when no snapshot holds the line
    table = create_table("counting", {"components": "physical"},
                                  [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}])
    chooser = random.Random(2)
    checked, reuses, marks = 0, 0, set()
    for step in range(30):
        row = Table.objects.get(code=table.code)
        game = row.game()
        state = game.decode(row.state)
        if game.result(state) is not None:
            break
        if step % 7 == 6:
            undo_last(table.code, row.version)
        elif step % 9 == 8:
            target = row.actions.filter(kind="game").order_by("-seq").first()
            correction = propose_correction(table.code, 1, target.seq, None)
            for seat in correction.waiting_for(3):
                confirm_correction(table.code, correction.id, seat)
        else:
            seat = chooser.choice(game.prompt(state).seats)
            submit_action(table.code, seat, chooser.choice(game.legal_actions(state, seat)), row.version)
        row = Table.objects.get(code=table.code)
        snap = snapshots.for_table(row)
        for language in ("en", "fa"):
            with translation.override(language):
                for viewer in (None, 0, 1, 2):
                    made.clear()
                    reused = presenters.log_lines(snap, snap.game, viewer)  # lines of the snapshot before, reused
                    reuses += len(made) < len(reused)
                    assert reused == _fresh(row, snap.game, viewer), (step, language, viewer)
                    assert presenters.log_lines(snap, snap.game, viewer) == reused
                    marks |= {(line.get("counted"), line.get("dropped")) for line in reused}
                    checked += 1
    assert checked >= 100 and reuses >= 50, "most snapshots reused the lines of the snapshot before"
    assert {(False, False), (False, True)} <= marks, "an undone move and a move dropped by a correction were shown"


def test_a_sentence_is_shared_only_between_details_the_translation_cannot_tell_apart():
    from games.engines.base import LogLine

    snap = snapshots.for_table(create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3))
    plain = presenters._plain
    apart = [{"n": 1}, {"n": 1.0}, {"n": True}, {"n": "1"}, {"n": [1, 2]}, {"n": [2, 1]}, {"n": {"a": 1, "b": 2}},
             {"n": {"b": 2, "a": 1}}, {"n": LogLine("x {y}", {"y": 1})}, {"n": LogLine("x {y}", {"y": 1}, True)}, None]
    assert len({plain(d) for d in apart}) == len(apart)
    with pytest.raises(presenters._NotPlain):
        plain({"n": object()})
    for language in ("en", "fa"):
        with translation.override(language):
            for text, details in (("{who} drew {card}", {"who": "Ann", "card": "sorry"}), ("Pass", None),
                                  ("{first} and {second}", {"first": ["red", "blue"], "second": {"wood": 2}})):
                assert presenters.shared_tr(snap, text, details) == presenters.tr(text, details)
                assert presenters.shared_tr(snap, text, details) == presenters.tr(text, details)  # memoized
