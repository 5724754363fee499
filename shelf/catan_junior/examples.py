"""What the shared test suites run this game through: a refused move, the variants whose end chart and logged
opening are checked, its board parts, and its who-starts question (its seats hide nothing, so the secrecy suites
need no twin of a position).

Plain data, read by the tests through ``tests.registry.examples("catan_junior")``.
"""

from __future__ import annotations

#: One refused tap: (options, moves played first, the refused move, its code, its rules-at-hand section).
REFUSED = ({"components": "physical"}, [(0, {"kind": "roll", "value": 6})],
           {"kind": "move_ghost", "island": "castle"}, "ghost_must_move", "ghost")
#: The end chart's cases: (options, players).
END_CHART = [({}, 2)]
#: The opening in the log, replayed after switching components: (options, seats).
OPENINGS = [({}, 3)]
#: The parts of its board every phone shows alike at the opening, and those each seat shows of its own.
BOARD_PARTS = {"shared": ("cj-news", "cj-offer", "cj-islands", "cj-ships", "cj-lairs", "cj-ghost", "cj-market",
                          "cj-player-0", "cj-player-1", "cj-player-2", "cj-player-3", "cj-dice", "cj-supply",
                          "cj-result"),
               "own": ("cj-mine",)}
#: The who-starts question its phones answer before the first move.
WHO_STARTS = "youngest"
