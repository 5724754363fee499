"""The registry of games: slug -> engine class, written out by hand.

Importing this package imports no game; :func:`get_game_class` imports the
one asked for. To add a game, copy the smallest engine package, give it a
slug, and add one line here. Each package holds its web adapter beside the
engine, ``<package>.web.ADAPTER`` (:class:`games.engines.adapter.WebAdapter`):
:func:`get_adapter` finds it from the same line.
"""

from __future__ import annotations

import importlib

from games.engines.adapter import WebAdapter
from games.engines.base import Game

REGISTRY: dict[str, str] = {
    "sorry": "games.engines.sorry:SorryGame",
    "yellow_yangtze": "games.engines.yellow_yangtze:YellowYangtzeGame",
    "amun_re": "games.engines.amun_re:AmunReGame",
    "catan_junior": "games.engines.catan_junior:CatanJuniorGame",
}


def get_game_class(slug: str) -> type[Game]:
    """Return the engine class registered under ``slug``; ``KeyError`` if there is none."""
    module_name, _, class_name = REGISTRY[slug].partition(":")
    return getattr(importlib.import_module(module_name), class_name)


def get_adapter(slug: str) -> WebAdapter:
    """The web adapter of game ``slug`` (``<engine package>.web.ADAPTER``); ``KeyError`` for an unknown game."""
    module_name = REGISTRY[slug].partition(":")[0]
    return importlib.import_module(f"{module_name}.web").ADAPTER


def adapters() -> dict[str, WebAdapter]:
    """Every importable game's adapter, by slug, in registry order."""
    return {slug: get_adapter(slug) for slug in available_slugs()}


def available_slugs() -> list[str]:
    """The slugs whose engine package can be imported (a game under construction is skipped)."""
    slugs = []
    for slug in REGISTRY:
        try:
            get_game_class(slug)
        except (ImportError, AttributeError):
            continue
        slugs.append(slug)
    return slugs
