"""``manage.py write_playthrough SLUG --players N --seed S [--steps K] [--out FILE]``: a golden transcript."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.engines import REGISTRY
from games.engines.base import IllegalAction
from games.engines.playthrough import transcript


class Command(BaseCommand):
    help = "Play a fixed random scenario of a game and print (or write) its plain-text transcript."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug", choices=sorted(REGISTRY))
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--steps", type=int, default=40)
        parser.add_argument("--options", default="{}", help="table options as JSON")
        parser.add_argument("--out", help="write to this file instead of printing")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            text = transcript(opts["slug"], opts["players"], opts["seed"], opts["steps"], json.loads(opts["options"]))
        except (IllegalAction, json.JSONDecodeError) as exc:
            raise CommandError(str(exc)) from exc
        if opts["out"]:
            Path(opts["out"]).write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text, ending="")
