from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The web around the engines: tables, seats, the action log."""

    name = "games"
    default_auto_field = "django.db.models.BigAutoField"
