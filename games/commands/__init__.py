"""The commands over the write path (games/write_path.py): moves, corrections, pregame, host tools."""

from __future__ import annotations
