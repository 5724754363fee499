from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fixture_game(fixture_game_registered):
    """Platform tests here run on the Count-to-ten fixture game."""
