"""The web adapter of the Count-to-ten fixture game (``tests/fixture_game.py``).

The platform finds a game's adapter at ``<engine module>.web``; the fixture game is one module, not a
package, so ``tests/conftest.py`` puts this module in its place (``sys.modules["tests.fixture_game.web"]``)
while the game is registered. The game has no rules at hand, walkthrough, lobby words or terms: every
page must still work for it, which is what the platform's defaults are for.
"""

from __future__ import annotations

from games.engines.adapter import WebAdapter

ADAPTER = WebAdapter(sections=(), refusals={}, option_words={}, glossary={})
