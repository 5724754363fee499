"""The games the shared suites run over: every game of the registry, and the contract game of the tests.

A contract every game must meet (engine contract, secrecy, walkthrough, rules at hand, export and import,
pages) is parametrized with :data:`GAMES`, never with slugs written by hand, so a game is covered the day
its line is added to ``games.engines.REGISTRY``. The contract game (``tests/contract_game/``) is registered
through the same registry, by the one line below, for the tests that run it (``tests/conftest.py``); its
folder is an installed app of the test session (``tests/settings.py``), so its templates, rules at hand and
translations are found as a shipped game's are.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from games.engines import REGISTRY, available_slugs, get_game_class
from games.engines.base import Game

#: The contract game's slug and its one registry line.
CONTRACT = "contract"
CONTRACT_LINE = {CONTRACT: "tests.contract_game:ContractGame"}

#: The games of the registry (the shipped ones), in registry order.
SHIPPED: list[str] = available_slugs()
#: Every game a shared suite runs over: the shipped ones, then the contract game.
GAMES: list[str] = [*SHIPPED, CONTRACT]


def game_class(slug: str) -> type[Game]:
    """The engine class of ``slug`` at collection time, the contract game's included (not registered yet)."""
    if slug in CONTRACT_LINE:
        module_name, _, class_name = CONTRACT_LINE[slug].partition(":")
        return getattr(importlib.import_module(module_name), class_name)
    return get_game_class(slug)


def register_contract_game(monkeypatch) -> None:
    """Add the contract game's registry line for one test (undone after it)."""
    for slug, line in CONTRACT_LINE.items():
        monkeypatch.setitem(REGISTRY, slug, line)


def game_home(slug: str) -> Path:
    """The folder of game ``slug``, the contract game's included (not registered at collection time)."""
    from games.engines import folder

    return folder((CONTRACT_LINE.get(slug) or REGISTRY[slug]).partition(":")[0])


def examples(slug: str) -> ModuleType | Any:
    """What the shared suites run game ``slug`` through: ``<its package>/examples.py`` (the package of its
    registry line, the contract game's included). A game without that module answers with no examples at all, so
    each list built from it misses the game and its ``test_every_*`` guard fails naming the list."""
    line = CONTRACT_LINE.get(slug) or REGISTRY[slug]
    name = line.partition(":")[0] + ".examples"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return SimpleNamespace()
