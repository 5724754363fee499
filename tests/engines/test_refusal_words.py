"""Refusals speak players' words: no rules-file case code ("TU1", "Rule SU3") in a message a player or host reads.

DESIGN.md "The engine contract": ``IllegalAction(code, message)`` has a stable machine code (for scripts and the
rule link) and a human message that says which rule forbids it, in the rulebook's words. The case codes of the
rules files are for maintainers: they stay in docstrings and in the table options' maintainer notes.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from games.engines.base import IllegalAction
from tests.engines.catan_junior.conftest import ALICE, make_game, opening

ROOT = Path(__file__).resolve().parents[2]
#: The engines: the game contract's shared modules and every game's folder.
ENGINES = (ROOT / "games" / "engines", ROOT / "shelf")
CASE_CODE = re.compile(r"\bRules? [A-Z]{1,3}[0-9]+\b|^[A-Z]{1,3}[0-9]+[a-z]?\b(?: \[[A-Z!]+\])?:")
NOT_A_REFUSAL = {"OptionSpec", "_flag"}  # table options: their help cites the rules file for maintainers


def _refusal_texts() -> list[tuple[str, int, str]]:
    """Every ``gettext_noop`` text of the engines outside the options' maintainer notes: (file, line, text)."""
    found = []
    for path in (p for folder in ENGINES for p in sorted(folder.rglob("*.py"))):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = {id(n) for call in ast.walk(tree) if isinstance(call, ast.Call)
                   and getattr(call.func, "id", getattr(call.func, "attr", None)) in NOT_A_REFUSAL
                   for n in ast.walk(call)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "gettext_noop" and id(node) not in skipped
                    and node.args and isinstance(node.args[0], ast.Constant)):
                found.append((str(path.relative_to(ROOT)), node.lineno, node.args[0].value))
    return found


def test_no_engine_message_shows_a_rules_file_case_code():
    texts = _refusal_texts()
    assert len(texts) > 100, "the scan finds the engines' messages"
    coded = [f"{f}:{line}: {text}" for f, line, text in texts if CASE_CODE.search(text)]
    assert coded == []


def test_a_physical_die_value_out_of_range_is_refused_with_the_phones_faces():
    """Catan Junior: the die shows 1 to 5 or the Ghost Captain (face 6); the phone's buttons say the same."""
    game = make_game(2, components="physical")
    with pytest.raises(IllegalAction) as err:
        game.apply(opening(game), ALICE, {"kind": "roll", "value": 0})
    assert err.value.code == "bad_die_value"
    assert err.value.message == "The die shows 1 to 5 or the Ghost Captain."
