"""Engines never import Django (shared/STYLE.md principle 1)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_engine_imports_without_django():
    code = (
        "import sys\n"
        "from games.engines import REGISTRY, available_slugs, get_game_class\n"
        "for slug in available_slugs():\n"
        "    get_game_class(slug)\n"
        "import games.engines.base, games.engines.chance\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
