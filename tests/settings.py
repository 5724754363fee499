"""The test session's settings: the app's own, with the contract game installed as a shipped game is.

A game's folder is a Django app (its templates, stylesheet and words are found from it); a shipped game is
installed from the registry (``companion/settings.py``). The contract game (``tests/contract_game/``) is
installed here for the whole session, while its registry line is added per test (``tests/registry.py``).
"""

from __future__ import annotations

from companion.settings import *  # noqa: F403 - the app's settings, extended below
from companion.settings import GAME_APPS, INSTALLED_APPS, TEMPLATES
from games.engines import folder

CONTRACT_APP = "tests.contract_game"

GAME_APPS = [*GAME_APPS, CONTRACT_APP]
INSTALLED_APPS = [CONTRACT_APP, *INSTALLED_APPS]  # first, as the shipped games (companion/settings.py)
TEMPLATES = [{**backend, "DIRS": [*backend["DIRS"], folder(CONTRACT_APP) / "templates"]}
             if backend["BACKEND"].endswith("Jinja2") else backend for backend in TEMPLATES]
