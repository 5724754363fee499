"""Django for an in-process bench: the project on ``sys.path``, a fresh SQLite file, no Redis; call before importing app code.

Used by ``bench_push.py``, ``bench_memory.py`` and ``bench_write_path.py`` (each then migrates the file).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def setup() -> Path:
    """Point Django at a new SQLite file in a temp dir (returned), with the in-memory channel layer; ``django.setup()``."""
    sys.path.insert(0, str(ROOT))
    db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ["REDIS_URL"] = ""
    import django

    django.setup()
    return db
