"""``manage.py replay_table CODE [CODE ...] | --all [--fix]``: replay the log and compare with the snapshot.

The snapshot is the table's state and, for a table that keys its draws by position, ``Table.draws`` (how
many of the app's draws count: the key of the next one).
"""

from __future__ import annotations

import difflib
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.engines.base import IllegalAction
from games.models import Table
from games.record.audit import IncompleteLog, counted_draws, replay
from games.write.write_path import SYSTEM, Change, Locked, WriteRequest, write


def _repair(at: Locked, state: dict[str, Any], draws: int) -> Change:
    """The snapshot and the count of the app's draws, as the log gives them."""
    at.table.draws = draws
    return Change(None, state=state, fields=("draws",))


class Command(BaseCommand):
    help = "Replay each table's action log from its recorded opening position and compare it with the saved snapshot."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("codes", nargs="*", help="table codes")
        parser.add_argument("--all", action="store_true", help="every table")
        parser.add_argument("--fix", action="store_true",
                            help="overwrite a differing snapshot with the replay (only a complete replay of a log "
                                 "that records its opening position)")

    def handle(self, *args: Any, **options: Any) -> None:
        """Replay each table; ``--fix`` writes a snapshot only from a complete replay.

        A replay that raised, or a log without its recorded opening (tables
        created before the opening was logged: their replay re-runs the
        set-up with today's options, which may deal differently), is
        reported and never written (DESIGN.md "The write path": the log is
        the truth, the snapshot a cache of a *complete* replay).
        """
        tables = Table.objects.all() if options["all"] else Table.objects.filter(code__in=[c.upper() for c in
                                                                                        options["codes"]])
        if not options["all"] and not options["codes"]:
            raise CommandError("Name a table code, or pass --all.")
        bad = refused = 0
        for table in tables:
            complete = True
            try:
                try:
                    replayed = table.game().encode(replay(table, strict=True))
                except IncompleteLog:
                    complete = False
                    replayed = table.game().encode(replay(table))
            except IllegalAction as exc:
                bad += 1
                self.stdout.write(f"{table.code}: the log no longer applies: {exc.code}: {exc.message}")
                if options["fix"]:
                    refused += 1
                    self.stdout.write(f"{table.code}: not fixed: the replay did not complete")
                continue
            draws = counted_draws(table, table.game(), table.actions.order_by("seq"))
            draws_ok = table.draw_keys != Table.DrawKeys.POSITION or draws == table.draws
            if replayed == table.state and draws_ok:
                moves = table.actions.filter(seq__gt=0).count()
                opening = "from the recorded opening" if complete else "from a re-run set-up: no recorded opening"
                self.stdout.write(f"{table.code}: replay == snapshot ({moves} log rows) {opening}")
                continue
            bad += 1
            self.stdout.write(f"{table.code}: replay differs from the snapshot:")
            before = json.dumps(table.state, indent=1, sort_keys=True).splitlines()
            after = json.dumps(replayed, indent=1, sort_keys=True).splitlines()
            self.stdout.write("\n".join(difflib.unified_diff(before, after, "snapshot", "replay", lineterm="")))
            if not draws_ok:
                self.stdout.write(f"{table.code}: the snapshot counts {table.draws} draw(s) of the app, the log {draws}")
            if options["fix"] and not complete:
                refused += 1
                self.stdout.write(f"{table.code}: not fixed: the log does not record its opening position, "
                                  "so this replay re-dealt the set-up and cannot be trusted")
            elif options["fix"]:
                # Through the write path: the revision moves with the state (a running server holds the
                # table's snapshot, and its decoded state, under its revision) and every phone is told.
                write(WriteRequest(table.code, SYSTEM, lambda at, state=replayed, draws=draws: _repair(at, state, draws),
                                   imported_ok=True))
                self.stdout.write(f"{table.code}: snapshot rebuilt from the log")
        if refused:
            raise CommandError(f"{refused} table(s) not fixed: no complete replay")
        if bad and not options["fix"]:
            raise CommandError(f"{bad} table(s) differ")
