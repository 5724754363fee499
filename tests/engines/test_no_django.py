"""Engines and their web adapters never import Django (shared/STYLE.md principle 1)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.registry import CONTRACT_LINE

ROOT = Path(__file__).resolve().parents[2]


def test_every_engine_and_adapter_imports_without_django():
    """Every game of the registry, and the contract game of the tests registered by its one line."""
    code = (
        "import sys\n"
        "from games.engines import REGISTRY, adapters, available_slugs, get_game_class\n"
        f"REGISTRY.update({CONTRACT_LINE!r})\n"
        "for slug in available_slugs():\n"
        "    get_game_class(slug)\n"
        "assert 'contract' in adapters()\n"
        "import games.engines.base, games.engines.chance\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
