"""The one refusal table (games/entry/refusals.py): every refusal of a write, its code, status, words and rule."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction, gettext_noop
from games.entry.refusals import BadInput, BadVersion, refusal_for
from games.write.pregame import create_table
from games.write.write_path import Forbidden, KeyReused, StaleVersion

pytestmark = pytest.mark.django_db


def test_each_refusal_has_its_code_and_status():
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    turn = IllegalAction("not_your_turn", gettext_noop("It is not your turn."))
    cases = [
        (turn, "not_your_turn", 400),
        (StaleVersion(0, 2), "stale_version", 409),
        (KeyReused(), "key_reused", 409),
        (Forbidden("table_closed", "closed"), "table_closed", 403),
        (BadVersion(), "bad_version", 400),
        (BadInput("bad_key", "too long"), "bad_key", 400),
    ]
    for exc, code, status in cases:
        refused = refusal_for(exc, "en", table, 0)
        assert (refused.code, refused.status) == (code, status), exc
        assert refused.message
    link = refusal_for(turn, "en", table, 0).rule_url
    assert link and "/rules/sorry/goal" in link
    assert refusal_for(KeyReused(), "en", table).rule_url is None


def test_the_message_is_in_the_askers_language():
    english = refusal_for(StaleVersion(0, 1), "en").message
    persian = refusal_for(StaleVersion(0, 1), "fa").message
    assert english.startswith("The table moved on") and persian != english and "میز" in persian


def test_anything_else_is_not_a_refusal():
    with pytest.raises(TypeError):
        refusal_for(ValueError("a bug"))
