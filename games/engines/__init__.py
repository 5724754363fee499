"""The registry of games: slug -> engine class, written out by hand.

Importing this package imports no game; :func:`get_game_class` imports the
one asked for. A game is one folder, ``shelf/<slug>/`` (``shelf/__init__.py``),
plus one line here. Each package holds its web adapter beside the engine,
``<package>.web.ADAPTER`` (:class:`games.engines.adapter.WebAdapter`):
:func:`get_adapter` finds it from the same line. Each package is also a Django
app (its templates, stylesheet and words): :func:`packages` lists them for
``INSTALLED_APPS``, and :func:`home` is the folder that holds a game's files.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

from games.engines.adapter import WebAdapter
from games.engines.base import Game

REGISTRY: dict[str, str] = {
    "sorry": "shelf.sorry:SorryGame",
    "yellow_yangtze": "shelf.yellow_yangtze:YellowYangtzeGame",
    "amun_re": "shelf.amun_re:AmunReGame",
    "catan_junior": "shelf.catan_junior:CatanJuniorGame",
}


def get_game_class(slug: str) -> type[Game]:
    """Return the engine class registered under ``slug``; ``KeyError`` if there is none."""
    module_name, _, class_name = REGISTRY[slug].partition(":")
    return getattr(importlib.import_module(module_name), class_name)


def get_adapter(slug: str) -> WebAdapter:
    """The web adapter of game ``slug`` (``<engine package>.web.ADAPTER``); ``KeyError`` for an unknown game."""
    return importlib.import_module(f"{package(slug)}.web").ADAPTER


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


def package(slug: str) -> str:
    """The package of game ``slug`` (``"shelf.<slug>"``), from its registry line; ``KeyError`` for an unknown game."""
    return REGISTRY[slug].partition(":")[0]


def packages() -> list[str]:
    """The games' packages in registry order: each is a Django app, installed from here (companion/settings.py).

    A line whose module is not a package (a test's one-module fixture game) or cannot be found has no folder.
    """
    names = dict.fromkeys(line.partition(":")[0] for line in REGISTRY.values())
    return [name for name in names if _is_package(name)]


def _is_package(name: str) -> bool:
    try:
        spec = importlib.util.find_spec(name)
    except ImportError:
        return False
    return spec is not None and bool(spec.submodule_search_locations)


def folder(package_name: str) -> Path:
    """The folder of a game's package, found without importing the game (its parent package only)."""
    spec = importlib.util.find_spec(package_name)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"no game package {package_name}")
    return Path(next(iter(spec.submodule_search_locations)))


def home(slug: str) -> Path:
    """The folder of game ``slug``: everything of the game lives in it (``shelf/<slug>/``)."""
    return folder(package(slug))
