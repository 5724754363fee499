"""Bench: CPU of the websocket pushes of one move, in process.

Prints numbers only; asserts nothing about time.

Run: .venv/bin/python tests/bench/bench_push.py [moves] [runs]

A table is created on a fresh SQLite file and played through the write path (whose ``table_written``
signal leaves the new snapshot in this process as a server's write does: games/read/snapshots.py). After
each move, every phone's socket renders its frame as a socket told of the revision by its table's feed does:
``games.socket.consumers.render_push`` with the group message's revision and the socket's own
``regions.Sent`` (plus the copy a socket keeps of it, ``_send_frame``'s history entry, timed apart).
Only the renders are timed, with ``time.process_time()``; the move itself and
the choice of the next one are not. Each configuration plays the same moves ``runs`` times from cold
per-process caches and the minimum is printed (CPU ms per move for all the table's pushes, and per push).

Configurations: Sorry! with 4 English phones; Sorry! with 3 English phones and one Persian (fa, Persian
digits); Yellow & Yangtze with 4 English phones; Sorry! with 4 phones and the table screen.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from embedded_django import setup  # noqa: E402

DB = setup()

from django.core.management import call_command  # noqa: E402

from games.models import Table  # noqa: E402
from games.read import regions, snapshots  # noqa: E402
from games.socket.consumers import render_push  # noqa: E402
from games.web import digits  # noqa: E402
from games.write.moves import submit_action  # noqa: E402
from games.write.pregame import create_table  # noqa: E402

NAMES = ("Ann", "Ben", "Cat", "Dan")


def play(slug: str, languages: tuple[str, ...], screen: bool, moves: int, seed: int = 3) -> tuple[float, float, int, int]:
    """Play ``moves`` moves on a fresh table; return (render CPU s, copy CPU s, pushes, frame bytes)."""
    snapshots.clear()
    table = create_table(slug, {}, [{"name": n} for n in NAMES[:len(languages)]], seed=seed)
    tokens = [s.token for s in table.seats.order_by("index")]
    phones = [(tokens[i], lang, False, regions.Sent(), digits.system_for(lang, None)) for i, lang in enumerate(languages)]
    if screen:
        phones.append((None, "en", True, regions.Sent(), digits.system_for("en", None)))
    # Every phone connects (its first frame, untimed: every region).
    for token, lang, is_screen, sent, system in phones:
        render_push(table.code, token, lang, is_screen, sent, digit_system=system)
    chooser = random.Random(seed)
    render = copies = 0.0
    pushes = size = 0
    for _ in range(moves):
        row = Table.objects.get(id=table.id)
        game = row.game()
        state = game.decode(row.state)
        if game.result(state) is not None:
            break
        seat = chooser.choice(game.prompt(state).seats)
        submit_action(row.code, seat, chooser.choice(game.legal_actions(state, seat)), row.version)
        revision = snapshots.current_revision(row.code)
        for token, lang, is_screen, sent, system in phones:
            t1 = time.process_time()
            frame = render_push(row.code, token, lang, is_screen, sent, None, None, None, revision, system)
            t2 = time.process_time()
            kept = sent.copy()  # TableConsumer._send_frame keeps what the phone shows as of this frame
            t3 = time.process_time()
            del kept
            render += t2 - t1
            copies += t3 - t2
            pushes += 1
            size += len(frame or "")
    return render, copies, pushes, size


def main() -> None:
    moves = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    call_command("migrate", verbosity=0)
    configs = [
        ("sorry 4x en", "sorry", ("en", "en", "en", "en"), False),
        ("sorry 3x en + fa", "sorry", ("en", "en", "en", "fa"), False),
        ("yellow_yangtze 4x en", "yellow_yangtze", ("en", "en", "en", "en"), False),
        ("sorry 4x en + screen", "sorry", ("en", "en", "en", "en"), True),
    ]
    for label, slug, languages, screen in configs:
        best = None
        for _ in range(runs):
            result = play(slug, languages, screen, moves)
            if best is None or result[0] < best[0]:
                best = result
        render, copies, pushes, size = best
        phones = len(languages) + screen
        per_move = pushes / phones
        print(f"{label:24s} {per_move:4.0f} moves: render_push {1000 * render / per_move:6.2f} ms/move "
              f"({1000 * render / pushes:5.2f} ms/push), Sent.copy {1000 * copies / per_move:5.3f} ms/move, "
              f"{size / pushes:6.0f} B/push (min of {runs})")


if __name__ == "__main__":
    main()
