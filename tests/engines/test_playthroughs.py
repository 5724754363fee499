"""Golden playthroughs of every game (shared/STYLE.md principle 13).

A rule change shows up here as a readable diff. After an intended change,
regenerate with ``COMPANION_REGENERATE=1 .venv/bin/pytest tests/engines/test_playthroughs.py``
and read the diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games.engines.playthrough import transcript

HERE = Path(__file__).parent / "playthroughs"
SCENARIOS = [("sorry", 2, 3), ("yellow_yangtze", 3, 2), ("amun_re", 3, 4), ("catan_junior", 2, 5)]


@pytest.mark.parametrize(("slug", "players", "seed"), SCENARIOS)
def test_the_playthrough_matches_its_golden_transcript(slug, players, seed):
    path = HERE / f"{slug}_{players}p_seed{seed}.txt"
    text = transcript(slug, players, seed, steps=30)
    if os.environ.get("COMPANION_REGENERATE") or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text
