"""Bench: the memory one server process holds for many live tables, in process.

Prints numbers only; asserts nothing about time or size.

Run: .venv/bin/python tests/bench/bench_memory.py [tables] [moves] [--top N] [--no-trace]

``tables`` tables (default 50; Sorry!, Yellow & Yangtze, Amun-Re and Catan Junior in turn, four phones
each) are created on a fresh SQLite file and played ``moves`` moves each (default 60), one move per table
in turn, as many tables played at once: each move goes through the write path (whose ``table_written``
signal leaves the new snapshot in this process, games/read/snapshots.py), then every phone's socket renders
its push as a socket told of the revision by its table's feed does (``games.socket.consumers.render_push`` with the group
message's revision and the socket's own ``regions.Sent``, of which it keeps :data:`FRAMES_KEPT` copies).

Printed after the play, after the tables have gone idle (no more moves, the sockets still open) and after
``gc.collect()``: the process's resident size (``/proc/self/statm``) and its peak, ``tracemalloc``'s
current and peak (unless ``--no-trace``), the snapshots the read model holds (and the ``Snapshot`` objects
alive), the memo dictionaries they reach (their own and those inherited from earlier revisions) and an
estimate of the bytes of memo content (each object counted once). The CPU of the pushes
(``time.process_time()`` around each ``render_push``) is printed per move; under ``tracemalloc`` it is
about twice what it is without (``--no-trace``; tests/bench/bench_push.py times pushes alone).
A last line after glibc's ``malloc_trim(0)`` tells memory the C allocator kept from memory in use.
``--top N`` prints tracemalloc's N biggest allocation sites (file:line) still held after the play.
"""

from __future__ import annotations

import ctypes
import gc
import os
import random
import resource
import sys
import time
import tracemalloc
from collections import deque
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from embedded_django import setup  # noqa: E402

DB = setup()

from django.core.management import call_command  # noqa: E402

from games.models import Table  # noqa: E402
from games.read import regions, snapshots  # noqa: E402
from games.socket.consumers import FRAMES_KEPT, render_push  # noqa: E402
from games.web import digits  # noqa: E402
from games.write.moves import submit_action  # noqa: E402
from games.write.pregame import create_table  # noqa: E402

SLUGS = ("sorry", "yellow_yangtze", "amun_re", "catan_junior")
NAMES = ("Ann", "Ben", "Cat", "Dan")
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mb() -> float:
    """The process's resident size now, in MB."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE / 1e6


def peak_rss_mb() -> float:
    """The process's highest resident size so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def deep_size(value: Any, seen: set[int]) -> int:
    """Bytes of ``value`` and everything it holds that ``seen`` has not counted yet (containers, strings, objects'
    ``__dict__``); model instances and snapshots count their own dictionary only once."""
    stack = [value]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or obj is None or isinstance(obj, (bool, int, float, type)):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset, deque)):
            stack.extend(obj)
        elif hasattr(obj, "__dict__") and not callable(obj):
            stack.append(obj.__dict__)
    return total


def memo_census() -> dict[str, Any]:
    """What the read model holds: snapshots, the memo dictionaries they reach, an estimate of their content."""
    held = list(snapshots.CACHE._items.values())
    tables = {snap.code for snap in held}
    own: dict[int, dict[Any, Any]] = {}
    reached: dict[int, dict[Any, Any]] = {}
    for snap in held:
        for store in snap._memos.values():
            own[id(store)] = store
            reached[id(store)] = store
        for stores in snap.inherited.values():
            for store in stores:
                reached[id(store)] = store
    seen: set[int] = set()
    content = sum(deep_size(store, seen) for store in own.values())
    extra = sum(deep_size(store, seen) for key, store in reached.items() if key not in own)
    alive = sum(1 for obj in gc.get_objects() if type(obj) is snapshots.Snapshot)
    return {"held": len(held), "tables": len(tables), "alive": alive, "own": len(own),
            "inherited": len(reached) - len(own), "entries": sum(len(s) for s in reached.values()),
            "content_mb": content / 1e6, "extra_mb": extra / 1e6}


def report(label: str, trace: bool) -> None:
    """One line of numbers for the process as it is now."""
    census = memo_census()
    traced = ""
    if trace:
        current, peak = tracemalloc.get_traced_memory()
        traced = f"traced {current / 1e6:6.1f} MB (peak {peak / 1e6:6.1f}), "
    print(f"{label:22s} RSS {rss_mb():6.1f} MB (peak {peak_rss_mb():6.1f}), {traced}"
          f"snapshots {census['held']:4d} held of {census['tables']} tables ({census['alive']} alive), "
          f"memo dicts {census['own']} own + {census['inherited']} inherited-only, "
          f"{census['entries']} entries, memo content ~{census['content_mb']:.1f} MB "
          f"+ ~{census['extra_mb']:.1f} MB only in inherited dicts", flush=True)


def trim() -> int | None:
    """glibc's ``malloc_trim(0)`` (what the C allocator keeps of freed memory goes back to the system):
    tells freed-but-kept memory from memory still in use. ``None`` without glibc."""
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        return None


def open_tables(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` fresh tables, four phones each connected (their first frame: every region)."""
    tables = []
    for n in range(count):
        slug = SLUGS[n % len(SLUGS)]
        table = create_table(slug, {}, [{"name": name} for name in NAMES], seed=seed + n)
        phones = []
        for seat in table.seats.order_by("index"):
            phone = {"token": seat.token, "sent": regions.Sent(), "history": deque(maxlen=FRAMES_KEPT)}
            render_push(table.code, seat.token, "en", False, phone["sent"], digit_system=digits.system_for("en", None))
            phones.append(phone)
        tables.append({"id": table.id, "code": table.code, "phones": phones, "chooser": random.Random(seed + n),
                       "over": False})
    return tables


def move(entry: dict[str, Any]) -> float | None:
    """One random legal move at ``entry``'s table and every phone's push; the CPU seconds of the pushes
    (``None`` when the game is over)."""
    row = Table.objects.get(id=entry["id"])
    game = row.game()
    state = game.decode(row.state)
    if game.result(state) is not None:
        entry["over"] = True
        return None
    chooser = entry["chooser"]
    seat = chooser.choice(game.prompt(state).seats)
    submit_action(row.code, seat, chooser.choice(game.legal_actions(state, seat)), row.version)
    revision = snapshots.current_revision(row.code)
    spent = 0.0
    for phone in entry["phones"]:
        start = time.process_time()
        render_push(row.code, phone["token"], "en", False, phone["sent"], None, None, None, revision, None)
        spent += time.process_time() - start
        phone["history"].append(phone["sent"].copy())  # TableConsumer._send_frame keeps one per frame
    return spent


def main() -> None:
    argv = sys.argv[1:]
    top = 0
    if "--top" in argv:
        at = argv.index("--top")
        top = int(argv[at + 1])
        del argv[at:at + 2]
    trace = "--no-trace" not in argv
    args = [a for a in argv if not a.startswith("--")]
    count = int(args[0]) if args else 50
    moves = int(args[1]) if len(args) > 1 else 60
    call_command("migrate", verbosity=0)
    snapshots.clear()
    gc.collect()
    print(f"{count} tables x 4 phones, {moves} moves each; SNAPSHOTS_KEPT={snapshots.SNAPSHOTS_KEPT}, "
          f"GENERATIONS={snapshots.GENERATIONS}, per table {getattr(snapshots, 'REVISIONS_KEPT', '-')}; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    report("fresh", False)
    if trace:
        tracemalloc.start(1)
    tables = open_tables(count, seed=11)
    report("tables open", trace)
    cpu = 0.0
    played = 0
    for _ in range(moves):
        for entry in tables:
            if entry["over"]:
                continue
            spent = move(entry)
            if spent is not None:
                cpu += spent
                played += 1
    print(f"{'pushes':22s} {played} moves, {1000 * cpu / max(played, 1):.2f} ms CPU per move for the 4 pushes "
          f"({'under tracemalloc' if trace else 'no tracemalloc'})")
    report("after play", trace)
    time.sleep(1.0)  # idle: no more moves, the sockets stay open
    report("idle", trace)
    gc.collect()
    report("idle + gc.collect()", trace)
    del tables  # the phones leave
    gc.collect()
    report("sockets gone + gc", trace)
    trimmed = trim()
    if trimmed is not None:
        report("+ malloc_trim(0)", trace)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if top and trace:  # last: taking the snapshot costs memory of its own
        print(f"biggest allocation sites still held (tracemalloc, {top}):")
        held = tracemalloc.take_snapshot().filter_traces((tracemalloc.Filter(False, tracemalloc.__file__),))
        for stat in held.statistics("lineno")[:top]:
            frame = stat.traceback[0]
            print(f"  {stat.size / 1e6:7.2f} MB {stat.count:8d} blocks  {frame.filename}:{frame.lineno}")


if __name__ == "__main__":
    main()
