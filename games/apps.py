from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The web around the engines: tables, seats, the action log."""

    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Connect the read model to the write path's ``table_written`` signal (games/read/snapshots.py)."""
        from games.read import snapshots  # noqa: F401 - its receiver builds each move's snapshot
