"""``manage.py rules sorry moves "<position>" --card 7``: print the legal moves of a position and card."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.engines.base import IllegalAction


class Command(BaseCommand):
    help = (
        'Ask a game\'s rules. Sorry!: rules sorry moves "R: R0@T6 R1@T9" --card 7 '
        "(position notation of shared/rules/sorry.md section 5)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game", choices=["sorry"])
        parser.add_argument("question", choices=["moves"])
        parser.add_argument("position", help='e.g. "R: R0@T17 B1@S2"')
        parser.add_argument("--card", required=True, help="1 2 3 4 5 7 8 10 11 12 or sorry")
        parser.add_argument("--options", default="{}", help="table options as JSON, e.g. '{\"team_mode\": true}'")

    def handle(self, *args: Any, **options: Any) -> None:
        from games.engines.sorry.positions import moves_for_position

        try:
            table_options = json.loads(options["options"])
            lines = moves_for_position(options["position"], options["card"], table_options)
        except json.JSONDecodeError as exc:
            raise CommandError(f"--options is not JSON: {exc}") from exc
        except IllegalAction as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        for line in lines:
            self.stdout.write(line)
