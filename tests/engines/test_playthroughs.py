"""Golden playthroughs of every game (shared/STYLE.md principle 13).

A rule change shows up here as a readable diff. After an intended change,
regenerate with ``COMPANION_REGENERATE=1 .venv/bin/pytest tests/engines/test_playthroughs.py``
and read the diff before committing it. Each game of the registry (and the contract game of the tests)
has one transcript in its own folder, ``playthrough_<players>p_seed<seed>.txt``: the file names its scenario;
a game without one gets ``playthrough_<fewest players>p_seed1.txt`` written on its first run.
"""

from __future__ import annotations

import os
import re

import pytest

from games.engines.playthrough import transcript
from tests.registry import GAMES, game_home

_NAME = re.compile(r"^playthrough_(?P<players>\d)p_seed(?P<seed>\d+)\.txt$")


def _scenarios() -> list[tuple[str, int | None, int]]:
    """``(slug, players, seed)`` of each game's golden transcript (``players`` ``None``: none written yet)."""
    scenarios = []
    for slug in GAMES:
        found = [(int(m["players"]), int(m["seed"])) for p in game_home(slug).glob("playthrough_*.txt")
                 if (m := _NAME.match(p.name))]
        scenarios.append((slug, *(found[0] if found else (None, 1))))
    return scenarios


@pytest.mark.parametrize(("slug", "players", "seed"), _scenarios())
def test_the_playthrough_matches_its_golden_transcript(slug, players, seed):
    if players is None:
        from games.engines import get_game_class

        players = get_game_class(slug).min_seats
    path = game_home(slug) / f"playthrough_{players}p_seed{seed}.txt"
    text = transcript(slug, players, seed, steps=30)
    if os.environ.get("COMPANION_REGENERATE") or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text
