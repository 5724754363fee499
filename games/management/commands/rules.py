"""``manage.py rules <game> moves "<position>" --card <card>``: print the legal moves of a position and card.

The games that answer are those whose adapter declares ``positions`` (a position notation in their rules
file); ``manage.py rules --help`` lists them.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.engines import adapters
from games.engines.base import IllegalAction


class Command(BaseCommand):
    help = (
        'Ask a game\'s rules: rules <game> moves "<position>" --card <card> (the position notation of the '
        "game's rules file; only games with one are offered)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game", choices=[slug for slug, adapter in adapters().items() if adapter.positions])
        parser.add_argument("question", choices=["moves"])
        parser.add_argument("position", help='in the game\'s notation, e.g. "R: R0@T17 B1@S2"')
        parser.add_argument("--card", required=True, help="the card in hand, as the game names it (7, 11, ...)")
        parser.add_argument("--options", default="{}", help="table options as JSON, e.g. '{\"team_mode\": true}'")

    def handle(self, *args: Any, **options: Any) -> None:
        positions = adapters()[options["game"]].positions
        try:
            table_options = json.loads(options["options"])
            lines = positions(options["position"], options["card"], table_options)
        except json.JSONDecodeError as exc:
            raise CommandError(f"--options is not JSON: {exc}") from exc
        except IllegalAction as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        for line in lines:
            self.stdout.write(line)
