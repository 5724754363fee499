"""``manage.py check_draws CODE [--seed S] [--commitment HEX]``: re-derive every digital draw, roll and shuffle.

Fair draws, provably: the table stored and published ``sha256(str(seed))``
when it was created and reveals the seed when the game is over; the seed must
hash to that stored commitment (and to ``--commitment``, the hash a player
noted from a phone, when given), and every digital chance outcome in the log
must be what the seed gives, keyed as the table keys its draws (``Table.draw_keys``: by the game's
position, so an undone draw made again is the same draw; by the log row for older tables). Prints OK, or the first thing that
differs (exit status 1).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.models import Table
from games.record.audit import check_draws


class Command(BaseCommand):
    help = "Re-derive every digital chance outcome of a table's log from its seed; report OK or the first mismatch."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("code", help="table code")
        parser.add_argument("--seed", type=int, default=None, help="the revealed seed (default: the table's own)")
        parser.add_argument("--commitment", default=None,
                            help="the commitment (SHA-256 hex) you noted when the table was created: checked too")

    def handle(self, *args: Any, **options: Any) -> None:
        table = Table.objects.filter(code=options["code"].upper()).first()
        if table is None:
            raise CommandError(f"No table {options['code']}.")
        result = check_draws(table, options["seed"], options["commitment"])
        commitment = "matches" if result.commitment_ok else "does NOT match"
        kept = f" and the one you passed ({options['commitment']})" if options["commitment"] else ""
        self.stdout.write(f"{table.code}: stored commitment {table.seed_commitment}{kept}: the seed {commitment}")
        self.stdout.write(f"{table.code}: {len(result.checked)} digital outcome(s) re-derived, "
                          f"keyed {table.get_draw_keys_display()}"
                          + (f"; physical (entered by hand, not re-derived): moves "
                             f"{', '.join(f'#{s}' for s in result.physical)}" if result.physical else ""))
        if not result.ok:
            raise CommandError(f"{table.code}: MISMATCH: {result.reason}")
        self.stdout.write(f"{table.code}: OK")
