"""``manage.py replay_table CODE [CODE ...] | --all [--fix]``: replay the log and compare with the snapshot."""

from __future__ import annotations

import difflib
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.engines.base import IllegalAction
from games.models import Table
from games.services import replay


class Command(BaseCommand):
    help = "Replay each table's action log from the opening position and compare it with the saved snapshot."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("codes", nargs="*", help="table codes")
        parser.add_argument("--all", action="store_true", help="every table")
        parser.add_argument("--fix", action="store_true", help="overwrite a differing snapshot with the replay")

    def handle(self, *args: Any, **options: Any) -> None:
        tables = Table.objects.all() if options["all"] else Table.objects.filter(code__in=[c.upper() for c in
                                                                                        options["codes"]])
        if not options["all"] and not options["codes"]:
            raise CommandError("Name a table code, or pass --all.")
        bad = 0
        for table in tables:
            try:
                replayed = table.game().encode(replay(table))
            except IllegalAction as exc:
                bad += 1
                self.stdout.write(f"{table.code}: the log no longer applies: {exc.code}: {exc.message}")
                continue
            if replayed == table.state:
                self.stdout.write(f"{table.code}: replay == snapshot ({table.actions.count()} log rows)")
                continue
            bad += 1
            self.stdout.write(f"{table.code}: replay differs from the snapshot:")
            before = json.dumps(table.state, indent=1, sort_keys=True).splitlines()
            after = json.dumps(replayed, indent=1, sort_keys=True).splitlines()
            self.stdout.write("\n".join(difflib.unified_diff(before, after, "snapshot", "replay", lineterm="")))
            if options["fix"]:
                table.state = replayed
                table.save(update_fields=["state"])
                self.stdout.write(f"{table.code}: snapshot rebuilt from the log")
        if bad and not options["fix"]:
            raise CommandError(f"{bad} table(s) differ")
