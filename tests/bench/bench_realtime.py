"""Bench: realtime push latency, throughput and server CPU of the real server, against the floors, in one run.

Prints numbers only; asserts nothing about time. Loopback only; every loop is bounded; servers are
started as subprocesses and killed at the end, even on error.

Run (the project's venv: uvicorn, daphne, websockets, psutil). Every configuration runs on ``--server`` (uvicorn,
the server of ``make run`` and of docs/scale-out.md; ``--server daphne`` for Channels' own):

    python tests/bench/bench_realtime.py              # --quick (default, ~3 min, what `make bench` runs): embedded
                                                      # T=10, paced and saturated, the app (Sorry!) and the floors,
                                                      # 10 s windows; first-load bytes
    python tests/bench/bench_realtime.py --targets    # the targets' configurations (embedded T=10 saturated,
                                                      # embedded T=50 paced, scale-out T=200 paced), 30 s windows,
                                                      # plus the in-process write path (bench_post_action.py)
    python tests/bench/bench_realtime.py --full       # embedded T=10,50,100; scale-out T=50,100,200; both modes,
                                                      # 20 s windows (~25 min per app)
    python tests/bench/bench_realtime.py --configs embedded:10:saturated,scaleout:200:paced --window 20
    python tests/bench/bench_realtime.py --servers daphne,uvicorn   # both servers at the smallest embedded T
    python tests/bench/bench_realtime.py --json /tmp/rt.json        # also write the JSON line to a file
    python tests/bench/bench_realtime.py --profile /tmp/profile.txt  # py-spy a saturated embedded server, T=10,
                                                      # 15 s of the window: every thread -> PATH, GIL holder
                                                      # only -> PATH.gil; prints the top functions (~1 min)

Before and after in one run: ``--app [LABEL=]DIR[:socket|:post]`` (also spelt ``--app-dir``; repeat it)
measures the checkout DIR with its own code, migrations and static files (run with this venv; make one
with ``git worktree add --detach DIR COMMIT && ln -s /work/main/.venv DIR/.venv``), with that tap mode.
The full comparison, on a quiet machine (PostgreSQL on 127.0.0.1:5432 as ``root`` and Redis on
127.0.0.1:6379 for the scale-out rows: the bench makes its own databases, ``companion_bench_*``, dropped
at the end, and uses Redis databases 13, 14, ... (``--redis-db``)):

    cd /work/main && .venv/bin/python tests/bench/bench_realtime.py --targets \
        --app before=/work/bench-before:post --app after=/work/main:socket --app after-api=/work/main:post \
        --json /tmp/rt-targets.json 2>&1 | tee /tmp/rt-targets.txt

A run measures the apps of a configuration one after another, and this machine drifts by a fifth or more
within a run: ``--abba`` measures them again in reverse order after the floors (before, after, floors, after-2,
before-2) and prints each app's mean over both passes, so the drift weighs on each alike.

``before`` is a checkout of the main before socket taps (``/work/bench-before``, b7127cf), ``after`` the
merged work with socket taps, ``after-api`` the same code through the API's POST (the no-regression
check of the API path). About 20-25 min on 2 cores: per configuration each app and each floor in turn
(T=10 saturated ~4 min, T=50 paced ~4.5 min, scale-out T=200 paced ~7 min: each app's phones take
~50-60 s to connect there), then each checkout's migrations (~1 min), first-load bytes (~1 min) and
write path (``bench_post_action.py 8 60 3``, ~1 min per app). The end of the output is the markdown:
the side-by-side table with ratios, the first-load bytes per app, the write path per app. Shorter
pieces of it: ``--configs embedded:10:saturated`` (CPU per move, ~5 min with the write path; add
``--no-first-load``), ``--configs embedded:50:paced`` (~5 min), ``--configs scaleout:200:paced`` (~8 min).

Time per configuration: server start + table creation + phone connects (the app renders each phone's
first fragment: ~2 s at T=10, ~10-15 s at T=50, ~20-30 s at T=100, ~50-60 s at T=200 scale-out) + the
window + the drain (up to 45 s when overloaded). A floor configuration takes about window + 5 s.

Other flags: --embedded 10,50 --scaleout 50 (pick the T values; empty to skip), --window S (measured
seconds per configuration), --modes paced,saturated, --taps socket|post (the tap mode of apps that do
not name one), --no-tap-fallback, --floors socket,durable,post,django, --no-floor, --no-django-floor,
--no-first-load, --write-path 'TABLES MOVES RUNS', --redis-db N, --ports LO-HI,
--games sorry,yellow_yangtze,amun_re,catan_junior (each app is measured with each game in servers of its own;
default all four, Sorry! alone in the default quick run), --auth cookie|bearer (how phones open their sockets).

Configurations:
- embedded: one server process, SQLite file in a temp dir (migrated first), in-memory channel layer.
- scale-out: two server processes on two ports, a fresh PostgreSQL database (createdb, migrate, dropdb at
  the end) and Redis (``redis://127.0.0.1:6379/<--redis-db + n>`` for the n-th checkout); phones and
  moves are spread over both.

What is measured side by side (each in its own server processes, one after another, same load):
- each app (``--app``; default this checkout, labelled ``app``, with ``--taps``);
- ``floor socket``: ``tests/bench/bare_app.py``, a bare Channels app: a phone's message on its socket ->
  ``group_send`` of ``version N`` -> each socket forwards a ~40-byte frame. The floor of socket taps.
- ``floor durable``: the same socket tap, but first one durable write on the layout's database kind (SQLite file
  embedded, PostgreSQL scale-out; a database of its own, ``companion_bench_<pid>_durable``, dropped at the end)
  in one transaction: lock the table's row, insert a log row, bump its version, commit; a connection kept per
  process, used from one writer thread. The least a referee that never loses a move costs per move.
- ``floor POST``: the same app, the move a ``POST /bump/<code>/``. The floor of the API path.
- ``django floor``: the POST through Django's request cycle (a sync view, no middleware, no database, no
  templates; ``bare_app.django_application``): what any Django write view costs at least.
The floors run the same server and channel layer kind as the app.

Load: T tables of one game (``--games``; 4 seats) created with ``POST /api/tables/``; 4 websocket phones per
table. ``--auth cookie`` (default), as a phone joins: the seat's join link from the create answer (``join_url``:
GET the join page, POST the secret its script reads from ``#``), keeping the signed seat cookie (and the CSRF and
device cookies) it sets, then the table page once (``Accept-Encoding: gzip, br``; ``page B`` is its median size as
sent), then the socket URL the page names (``ws-connect``, with its ``?s=`` signature) with those cookies: a socket
whose page is current sends nothing on connect, so the page is the phone's first state. ``--auth bearer``: no page,
the socket opened with ``Authorization: Bearer <seat token>`` (the API device path). A move is a random legal
action, taken as a phone takes it: from what its page and its own socket's pushes show in the ``r-controls`` and
``r-board`` regions, board parts swapped in as htmx swaps them (a phone never asks ``GET .../prompt/``): each ``data-action`` of a tap of class ``legal`` not
disabled, Amun-Re's hand picker (the hands its ``data-legal`` lists) and Yellow & Yangtze's pick-and-place (a pick's
``data-template`` on a lit hex whose ``data-picks`` names it). The first phone (by seat) with such a tap acts, so
hidden simultaneous steps (Amun-Re offerings, Y&Y conflicts) progress as whichever seat must act taps. The tap:
- ``socket``: the acting phone sends ``{"action": ..., "version": N, "key": K}`` as a text message on its
  own socket; success is the push every phone gets, a refusal a frame with ``data-code="..."`` to that
  socket (counted as ``refused <code>`` in the errors; the first action refused with each code is kept, in
  ``refused`` of the JSON and in the notes). Each app's first socket tap (not recorded) shows
  whether the server takes socket taps at all: answered within 5 s by neither a new version nor a
  refusal (a server that only knows the heartbeat), that app is measured with POST taps and its rows
  say so (``--no-tap-fallback``: the configuration fails instead).
- ``post``: ``POST .../actions/`` (the API; JSON answer ``{version, seq}``). A browser phone's htmx tap
  gets an answer as small (``204``, while its socket is open), so the acting phone costs the same.
A move's latency runs from sending the tap until every OTHER phone of that table has received a frame
with ``data-version`` >= the new version. The next move waits until every phone of the table, the
actor's too, holds the new version (not timed: its own controls come with it).
Paced: one move per table every 2 s (never more than one outstanding per table; if it falls behind
it goes on at once). Saturated: each table moves again as soon as its last move has landed everywhere.
Measured window: ``--window`` seconds of starting moves, then in-flight moves finish (bounded: a move
times out after 30 s and counts at 30 s in the percentiles; moves/s counts completed moves only).
``POST p50`` in the notes is the POST alone (sent -> answer read), the rest of a move's latency is the push.
CPU ms/move: the server processes' CPU time (user+system, psutil) over the window / moves; read it
saturated (paced, a server's idle work, e.g. channels_redis polling, is spread over few moves).
Push bytes: the payload of each frame phones received in the window, median over frames (the websocket
payload, ``push_bytes_median``), and the same frames as they came on the wire (``push_wire_median``: the
payload before the client's per-message deflate inflates it, context kept across messages as negotiated;
equal to the payload when deflate was not negotiated, see ``deflate`` in the JSON).
Ratios in the markdown table: ``CPU ÷ floor`` and ``p99 ÷ floor`` divide by the bare floor of the
row's own tap mode (socket taps: ``floor socket``, POST taps: ``floor POST``), ``CPU ÷ durable`` by the
durable floor, ``CPU ÷ Django`` by the Django floor, all from the same configuration of the same run. A second
table lists, per app, game and configuration, CPU ms/move, moves/s, p50/p99, median push bytes raw and
deflated, first-load KB (HTML and assets, the largest of the four languages, when measured; else the phones'
page as sent) and the CPU per move against the same app's Sorry! row.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import html
import json
import os
import posixpath
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import websockets

ROOT = Path(__file__).resolve().parents[2]
BENCH_DIR = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"
VERSION_RE = re.compile(rb'data-version="(\d+)"')
REGION_RE = re.compile(rb'id="(r-[\w-]+)"')  # a region's root (page and push alike): its part runs to the next one
TAP_REGIONS = (b"r-controls", b"r-board")  # where a phone's legal taps are drawn
TAG_RE = re.compile(rb"<(?:button|g|a|div|span)\b[^>]*>", re.S)
# A board part's push: its contents for the element with its id (games/web/parts.py, Part.swap).
PART_SWAP_RE = re.compile(rb'<(\w+)(?: id="([\w-]+)")? hx-swap-oob="innerHTML(?::#([\w-]+))?"')
ELEMENT_TAG_RE = re.compile(rb"<(/?)([A-Za-z][\w:-]*)(?:[^>\"']|\"[^\"]*\"|'[^']*')*?(/?)>")
VOID_ELEMENTS = {b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link", b"meta", b"source",
                 b"track", b"wbr"}
ACTION_RE = re.compile(rb"data-action='([^']*)'")
CLASS_RE = re.compile(rb'class="([^"]*)"')
DISABLED_RE = re.compile(rb"\sdisabled(?=[\s>=/])")
HAND_PICKER_RE = re.compile(rb'class="amun-hand-picker"[^>]*data-legal="([^"]*)"')  # Amun-Re: the legal hands
YY_PICK_RE = re.compile(rb"data-yy-pick=\"([^\"]+)\" data-template='([^']*)'")  # Y&Y: a pick (tile, leader, revolt)
YY_TARGET_RE = re.compile(rb'data-hex="(-?\d+),(-?\d+)" data-picks="([^"]*)"')  # Y&Y: a lit hex and its picks
WS_CONNECT_RE = re.compile(rb'ws-connect="([^"]+)"')
GAMES = ("sorry", "yellow_yangtze", "amun_re", "catan_junior")
try:  # a phone's page as a browser asks for it; brotli only when this venv can read it back
    import brotli  # type: ignore[import-not-found]  # noqa: F401

    PAGE_ENCODINGS = "gzip, br"
except ImportError:
    PAGE_ENCODINGS = "gzip"
REFUSAL_RE = re.compile(rb'data-code="([^"]*)"')  # a refusal frame, answered to the tapping socket only
PACE_S = 2.0
TAP_PROBE_S = 5.0  # a socket tap answered by neither a new version nor a refusal in this long: not supported
TAP_FALLBACK = True  # --no-tap-fallback: a server that does not answer socket taps fails its configuration
MOVE_TIMEOUT_S = 30.0  # a move whose frames have not all arrived by then counts as a timeout
DRAIN_S = 45.0  # after the window, in-flight moves get this long (then they are cancelled)
SEATS = ["Ann", "Bob", "Cy", "Di"]


# -- a tiny asyncio HTTP/1.1 client (one connection per request; keeps the client process light) ---------

@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    cookies: list[str]
    body: bytes  # as on the wire (still compressed, de-chunked)

    def json(self) -> Any:
        return json.loads(self.body)


async def http(port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
               timeout: float = 30.0, form: dict[str, str] | None = None) -> Reply:
    if form is not None:
        from urllib.parse import urlencode

        data = urlencode(form).encode()
    else:
        data = b"" if body is None else json.dumps(body).encode()
    head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close",
            f"Content-Length: {len(data)}"]
    if form is not None:
        head.append("Content-Type: application/x-www-form-urlencoded")
    elif body is not None:
        head.append("Content-Type: application/json")
    head += [f"{k}: {v}" for k, v in (headers or {}).items()]

    async def go() -> Reply:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
            raw = await reader.read(-1)
        finally:
            writer.close()
        header_blob, _, rest = raw.partition(b"\r\n\r\n")
        lines = header_blob.decode("latin1").split("\r\n")
        status = int(lines[0].split()[1])
        hdrs: dict[str, str] = {}
        cookies = []
        for line in lines[1:]:
            k, _, v = line.partition(":")
            hdrs[k.strip().lower()] = v.strip()
            if k.strip().lower() == "set-cookie":
                cookies.append(v.strip())
        if hdrs.get("transfer-encoding", "").lower() == "chunked":
            out, pos = b"", 0
            while True:
                end = rest.index(b"\r\n", pos)
                size = int(rest[pos:end].split(b";")[0], 16)
                if size == 0:
                    break
                out += rest[end + 2:end + 2 + size]
                pos = end + 2 + size + 2
            rest = out
        return Reply(status, hdrs, cookies, rest)

    return await asyncio.wait_for(go(), timeout)


# -- servers -------------------------------------------------------------------------------------------

PORT_RANGE: tuple[int, int] | None = None  # --ports LO-HI: servers listen only there (a shared machine)
_next_port = 0


def free_port() -> int:
    """A free loopback port: any, or the next free one of ``--ports``."""
    global _next_port
    if PORT_RANGE is None:
        with socket.socket() as s:
            s.bind((HOST, 0))
            return s.getsockname()[1]
    lo, hi = PORT_RANGE
    for _ in range(hi - lo + 1):
        port = lo + _next_port % (hi - lo + 1)
        _next_port += 1
        with socket.socket() as s, contextlib.suppress(OSError):
            s.bind((HOST, port))
            return port
    raise RuntimeError(f"no free port in {lo}-{hi}")


class Servers:
    """N server processes of one configuration; killed on close().

    ``kind``: ``app`` (``companion.asgi`` of the checkout ``root``, started from that directory so that it
    runs that checkout's own code), ``floor`` (``bare_app.application``: bare POST and socket-tap floors)
    or ``django`` (``bare_app.django_application``, the Django floor); the floors are this checkout's.
    """

    def __init__(self, kind: str, server: str, workers: int, env: dict[str, str], logdir: Path,
                 root: Path = ROOT, label: str = "") -> None:
        self.kind, self.server = kind, server
        self.ports = [free_port() for _ in range(workers)]
        self.procs: list[subprocess.Popen] = []
        self.logs: list[Path] = []
        target = {"app": "companion.asgi:application", "floor": "bare_app:application",
                  "durable": "bare_app:durable_application", "django": "bare_app:django_application"}[kind]
        cwd = root if kind == "app" else BENCH_DIR
        for port in self.ports:
            if server == "daphne":
                cmd = [str(BIN / "daphne"), "-b", HOST, "-p", str(port), target]
            else:
                cmd = [str(BIN / "uvicorn"), target, "--app-dir", str(cwd), "--host", HOST, "--port", str(port),
                       "--ws", "websockets", "--no-access-log", "--log-level", "warning", "--lifespan", "off"]
            log = logdir / f"{label or kind}-{server}-{port}.log"
            self.logs.append(log)
            self.procs.append(subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log.open("wb"),
                                               stderr=subprocess.STDOUT, start_new_session=True))
        self.ps = [psutil.Process(p.pid) for p in self.procs]

    async def ready(self, timeout: float = 60.0) -> None:
        path = "/api/tables/" if self.kind == "app" else "/health/"
        deadline = time.monotonic() + timeout
        for port, proc in zip(self.ports, self.procs, strict=True):
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"server on {port} exited: {self.tail()}")
                with contextlib.suppress(OSError, TimeoutError, IndexError, ValueError):
                    await http(port, "GET", path, timeout=2)
                    break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"server on {port} not ready after {timeout} s: {self.tail()}")
                await asyncio.sleep(0.2)

    def cpu(self) -> float:
        total = 0.0
        for p in self.ps:
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                total += t.user + t.system
        return total

    def errors(self, top: int = 5) -> dict[str, int]:
        """The last line of each traceback (or ERROR line) in the servers' logs, counted."""
        found: dict[str, int] = {}
        for log in self.logs:
            if not log.exists():
                continue
            lines = log.read_text(errors="replace").splitlines()
            for i, line in enumerate(lines):
                last_of_tb = (i + 1 == len(lines) or not lines[i + 1].startswith((" ", "Traceback", "\t"))) and \
                    re.match(r"^[A-Za-z_.]+(Error|Exception|Full|Timeout)\b", line)
                if last_of_tb or " ERROR " in line:
                    key = re.sub(r"\d+", "N", line.strip())[:160]
                    found[key] = found.get(key, 0) + 1
        return dict(sorted(found.items(), key=lambda kv: -kv[1])[:top])

    def tail(self) -> str:
        return " | ".join(log.read_text(errors="replace")[-600:] for log in self.logs if log.exists())

    def close(self) -> None:
        for p in self.procs:
            with contextlib.suppress(ProcessLookupError):
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)


# -- phones and tables ---------------------------------------------------------------------------------

def regions_of(blob: bytes) -> dict[bytes, bytes]:
    """``{region id: its part}`` of a page or a push: from each ``id="r-..."`` to the next region or part swap
    (tap regions only)."""
    found = list(REGION_RE.finditer(blob))
    bounds = sorted([m.start() for m in found] + [m.start() for m in PART_SWAP_RE.finditer(blob)] + [len(blob)])
    out = {}
    for m in found:
        if m.group(1) in TAP_REGIONS:
            out[m.group(1)] = blob[m.start():next(b for b in bounds if b > m.start())]
    return out


def _inner_span(blob: bytes, start: int) -> tuple[int, int]:
    """``(start, end)`` of the contents of the element whose start tag begins at ``start`` (scripts skipped)."""
    depth, inner = 0, start
    pos = start
    while True:
        m = ELEMENT_TAG_RE.search(blob, pos)
        if m is None:
            return inner, len(blob)
        closing, name, selfclosing = m.groups()
        pos = m.end()
        if closing:
            depth -= 1
            if depth == 0:
                return inner, m.start()
        elif not selfclosing and name.lower() not in VOID_ELEMENTS:
            if depth == 0:
                inner = m.end()
            depth += 1
            if name.lower() == b"script":
                pos = blob.index(b"</script>", pos)
    return inner, len(blob)


def apply_part_swaps(board: bytes, frame: bytes) -> bytes:
    """``board`` (a phone's ``r-board`` as it shows it) with the part swaps of ``frame`` applied, as htmx applies
    them: the contents of the element with the part's id replaced (games/web/parts.py)."""
    for m in PART_SWAP_RE.finditer(frame):
        part_id = m.group(2) or m.group(3)
        start, end = _inner_span(frame, m.start())
        at = board.find(b'id="' + part_id + b'"')
        if at < 0:
            continue
        old_start, old_end = _inner_span(board, board.rfind(b"<", 0, at))
        board = board[:old_start] + frame[start:end] + board[old_end:]
    return board


def legal_taps(parts: list[bytes]) -> list[dict]:
    """The actions a phone can tap in these regions, as its page offers them (no ``GET .../prompt/``).

    - every element with a ``data-action`` that is a legal tap (class ``legal``) and not disabled;
    - Amun-Re's hand picker: the hands its ``data-legal`` lists (the page's script writes one into the button);
    - Yellow & Yangtze's action step: a pick (``data-yy-pick`` with its ``data-template``, not disabled) on a lit
      hex whose ``data-picks`` names it (the picker script arms the hex with template + ``hex``).
    """
    out: list[dict] = []
    for part in parts:
        for tag in TAG_RE.findall(part):
            found = ACTION_RE.search(tag)
            if found is None or DISABLED_RE.search(tag):
                continue
            cls = CLASS_RE.search(tag)
            if cls is None or b"legal" not in cls.group(1).split():
                continue
            with contextlib.suppress(ValueError):
                out.append(json.loads(html.unescape(found.group(1).decode())))
        for hands in HAND_PICKER_RE.findall(part):
            with contextlib.suppress(ValueError):
                out += [{"kind": "build_hand", "cards": hand} for hand in json.loads(html.unescape(hands.decode()))]
    picks = {}  # the picks (in the controls) and the lit hexes (on the board) lie in two regions
    for part in parts:
        if b"data-yy-pick" in part:
            for tag in TAG_RE.findall(part):
                m = YY_PICK_RE.search(tag)
                if m is not None and not DISABLED_RE.search(tag):
                    with contextlib.suppress(ValueError):
                        picks[m.group(1).decode()] = json.loads(html.unescape(m.group(2).decode()))
    if picks:
        for part in parts:
            for q, r, names in YY_TARGET_RE.findall(part):
                for name in names.decode().split():
                    if name in picks:
                        out.append(picks[name] | {"hex": [int(q), int(r)]})
    # the same action drawn twice (a button and a board target): once
    return list({json.dumps(a, sort_keys=True): a for a in out}.values())


def _cookie_pairs(cookies: list[str]) -> dict[str, str]:
    return dict(c.split(";", 1)[0].strip().split("=", 1) for c in cookies if "=" in c.split(";", 1)[0])


class Phone:
    """One phone of a table: joins as a phone does (``auth`` ``cookie``: the join link, its signed seat cookie, the
    page once, the page's socket URL) or with its seat token as a bearer (``auth`` ``bearer``), then listens."""

    def __init__(self, table: TableLoad, seat: int, port: int) -> None:
        self.table, self.seat, self.port = table, seat, port
        self.version = -1
        self.waiters: list[tuple[int, asyncio.Future]] = []
        self.ws: Any = None
        self.task: asyncio.Task | None = None
        self.deflate = False
        self.parts: dict[bytes, bytes] = {}  # the tap regions this phone shows (page, then pushes), raw
        self.refusal: asyncio.Future | None = None  # set to the code of the next refusal frame (a socket tap's)
        self.page: dict[str, int] = {}  # the page load: wire and decoded bytes (cookie phones)

    async def join(self) -> tuple[str, str]:
        """The join link (GET the page, POST the secret its script reads from ``#``), then the table page once:
        ``(cookie header, socket path)``; the page's regions and version are this phone's first state."""
        join_url = self.table.join_urls[self.seat]
        path_part, _, token = join_url.partition("#")
        path = "/" + path_part.split("://", 1)[-1].split("/", 1)[1] if "://" in path_part else path_part
        origin = f"http://{HOST}:{self.port}"
        got = await http(self.port, "GET", path, headers={"Accept": "text/html"})
        jar = _cookie_pairs(got.cookies)
        csrf = jar.get("csrftoken", "")
        posted = await http(self.port, "POST", path, form={"token": token, "csrfmiddlewaretoken": csrf},
                            headers={"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items()), "Origin": origin,
                                     "Referer": origin + path})
        if posted.status not in (301, 302, 303):
            raise RuntimeError(f"join link answered {posted.status}: {posted.body[:200]!r}")
        jar |= _cookie_pairs(posted.cookies)
        page_path = posted.headers.get("location", f"/t/{self.table.code}/")
        if "://" in page_path:
            page_path = "/" + page_path.split("://", 1)[1].split("/", 1)[1]
        cookie = "; ".join(f"{k}={v}" for k, v in jar.items())
        page = await http(self.port, "GET", page_path, headers={
            "Cookie": cookie, "Accept": "text/html,*/*", "Accept-Encoding": PAGE_ENCODINGS})
        if page.status != 200:
            raise RuntimeError(f"table page answered {page.status}: {page.body[:200]!r}")
        jar |= _cookie_pairs(page.cookies)
        body = _decoded(page) or page.body
        self.page = {"wire": len(page.body), "html": len(body)}
        versions = [int(v) for v in VERSION_RE.findall(body)]
        self.version = max(versions) if versions else -1
        self.parts = regions_of(body)
        ws = WS_CONNECT_RE.search(body)
        ws_path = html.unescape(ws.group(1).decode()) if ws else f"/ws/tables/{self.table.code}/"
        return "; ".join(f"{k}={v}" for k, v in jar.items()), ws_path

    async def connect(self) -> None:
        if self.table.kind == "app" and self.table.auth == "cookie":
            cookie, path = await self.join()
            headers = {"Cookie": cookie}
        else:
            path = f"/ws/tables/{self.table.code}/"
            headers = {"Authorization": f"Bearer {self.table.tokens[self.seat]}"} if self.table.tokens else {}
        self.ws = await asyncio.wait_for(
            websockets.connect(f"ws://{HOST}:{self.port}{path}", additional_headers=headers,
                               origin=f"http://{HOST}:{self.port}", max_size=2 ** 23, open_timeout=30,
                               ping_interval=None), 40)
        self.deflate = False
        for ext in self.ws.protocol.extensions:
            if "deflate" in type(ext).__name__.lower():
                self.deflate = True
                self.table.run.deflate_params = ", ".join(
                    f"{k}={getattr(ext, k)}" for k in ("remote_no_context_takeover", "local_no_context_takeover",
                                                      "remote_max_window_bits", "local_max_window_bits")
                    if hasattr(ext, k))
                self._count_wire(ext)
        if self.version < 0:  # no page (bearer, a floor), or a page without a version: the socket's first frame
            first = await asyncio.wait_for(self.ws.recv(decode=False), 40)
            self._seen(first)
        self.task = asyncio.create_task(self.listen())

    def _count_wire(self, ext: Any) -> None:
        """Count each message's payload as it came on the wire (deflated) before the extension inflates it."""
        decode, stats = ext.decode, self.table.run
        pending = [0]

        def counting(frame: Any, **kw: Any) -> Any:
            if frame.opcode.value in (0, 1, 2):  # continuation, text, binary
                pending[0] += len(frame.data)
                if frame.fin:
                    if stats.recording:
                        stats.wire_bytes.append(pending[0])
                    pending[0] = 0
            return decode(frame, **kw)

        ext.decode = counting

    def _seen(self, frame: bytes) -> None:
        stats = self.table.run
        if stats.recording:
            stats.frame_bytes.append(len(frame))
            if not self.deflate:
                stats.wire_bytes.append(len(frame))
        refused = REFUSAL_RE.search(frame)
        if refused is not None and self.refusal is not None and not self.refusal.done():
            self.refusal.set_result(refused.group(1).decode())
        versions = [int(v) for v in VERSION_RE.findall(frame)]
        if not versions:
            stats.frames_without_version += 1
            return
        v = max(versions)
        if self.table.kind == "app" and v >= self.version:
            if b"r-board" in self.parts and PART_SWAP_RE.search(frame):
                self.parts[b"r-board"] = apply_part_swaps(self.parts[b"r-board"], frame)
            self.parts.update(regions_of(frame))
        if v > self.version:
            self.version = v
            now = time.perf_counter()
            keep = []
            for target, fut in self.waiters:
                if v >= target and not fut.done():
                    fut.set_result(now)
                elif not fut.done():
                    keep.append((target, fut))
            self.waiters = keep

    def legal(self) -> list[dict]:
        return legal_taps(list(self.parts.values()))

    async def listen(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed, asyncio.CancelledError):
            async for frame in self.ws:
                self._seen(frame if isinstance(frame, bytes) else frame.encode())

    def wait_for(self, version: int) -> asyncio.Future:
        fut = asyncio.get_running_loop().create_future()
        if self.version >= version:
            fut.set_result(time.perf_counter())
        else:
            self.waiters.append((version, fut))
        return fut

    async def tap(self, action: dict, version: int) -> asyncio.Future:
        """Send a socket tap ``{"action", "version", "key"}``; the future holds the code of a refusal frame."""
        self.refusal = asyncio.get_running_loop().create_future()
        await self.ws.send(json.dumps({"action": action, "version": version, "key": uuid.uuid4().hex}))
        return self.refusal

    async def close(self) -> None:
        if self.task:
            self.task.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 3)


@dataclass
class RunStats:
    recording: bool = False
    latencies: list[float] = field(default_factory=list)
    censored: list[float] = field(default_factory=list)  # timed-out moves, at MOVE_TIMEOUT_S
    post_s: list[float] = field(default_factory=list)  # the POST alone: sent -> answer read
    frame_bytes: list[int] = field(default_factory=list)
    wire_bytes: list[int] = field(default_factory=list)  # the same messages as on the wire (per-message deflate)
    deflate_params: str = ""  # what the phones' per-message deflate negotiated (remote: the server's side)
    errors: dict[str, int] = field(default_factory=dict)
    refused: dict[str, dict] = field(default_factory=dict)  # the first action refused with each code, as tapped
    timeouts: int = 0
    finished_tables: int = 0
    frames_without_version: int = 0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


class TableLoad:
    """One table's phones and its moves; ``taps``: ``socket`` (the acting phone's own socket) or ``post`` (HTTP)."""

    def __init__(self, run: RunStats, kind: str, code: str, tokens: list[str], ports: list[int], index: int,
                 taps: str = "post", join_urls: list[str] | None = None, auth: str = "cookie") -> None:
        self.run, self.kind, self.code, self.tokens, self.taps = run, kind, code, tokens, taps
        self.join_urls = join_urls or []
        self.auth = auth if join_urls else "bearer"
        self.post_port = ports[index % len(ports)]
        self.phones = [Phone(self, s, ports[(index + s) % len(ports)]) for s in range(4)]
        self.version = 0
        self.next_seat = 0
        self.finished = False
        self.rng = random.Random(index)

    async def choose(self) -> tuple[int, dict] | None:
        """The acting seat and a random legal action, read from the controls its socket pushed (not timed).

        Waits until every phone of the table holds the current version; ``None`` when no phone has a
        move at it (the game is over).
        """
        version = self.version if self.version >= 0 else max(p.version for p in self.phones)
        for _ in range(2):  # a phone may lag the newest version by a push: wait for all of them once more
            await asyncio.wait_for(asyncio.gather(*(p.wait_for(version) for p in self.phones)), MOVE_TIMEOUT_S)
            if max(p.version for p in self.phones) == version:
                break
            version = max(p.version for p in self.phones)
        self.version = version
        for p in self.phones:
            legal = p.legal()
            if legal:
                return p.seat, self.rng.choice(legal)
        self.finished = True
        return None

    async def probe_socket_taps(self) -> str | None:
        """One socket tap, not recorded: ``None`` when the server applies it (or refuses it), else why not.

        A server without socket taps answers the message with nothing new (one that only knows the heartbeat
        may resend the phone's regions at the same version): no new version and no refusal within ``TAP_PROBE_S``.
        """
        chosen = await self.choose()
        if chosen is None:
            return "no move to probe with"
        seat, action = chosen
        phone = self.phones[seat]
        moved = phone.wait_for(self.version + 1)
        refused = await phone.tap(action, self.version)
        done, _ = await asyncio.wait({moved, refused}, timeout=TAP_PROBE_S, return_when=asyncio.FIRST_COMPLETED)
        moved.cancel()
        refused.cancel()
        if not done:
            return f"a socket tap got neither a new version nor a refusal within {TAP_PROBE_S:.0f} s"
        if moved in done:
            self.version += 1
        return None

    async def move(self) -> None:
        if self.finished:
            return
        if self.kind == "app":
            chosen = await self.choose()
            if chosen is None:
                if self.finished:
                    self.run.finished_tables += 1
                else:
                    await asyncio.sleep(0.2)  # the prompt failed: do not hammer the server
                return
            seat, action = chosen
        else:
            if self.version < 0:
                self.version = max(p.version for p in self.phones)
            seat = self.next_seat
            self.next_seat = (seat + 1) % 4
            action = {"bump": seat}
        if self.taps == "socket":
            await self._socket_move(seat, action)
        else:
            await self._post_move(seat, action)

    async def _socket_move(self, seat: int, action: dict) -> None:
        """The tap on the acting phone's own socket; timed from the send to every other phone's new version."""
        before = self.version
        t0 = time.perf_counter()
        refused = await self.phones[seat].tap(action, before)
        others = asyncio.gather(*(p.wait_for(before + 1) for p in self.phones if p.seat != seat))
        others.add_done_callback(lambda f: f.cancelled() or f.exception())  # a refused tap cancels it: read it
        done, _ = await asyncio.wait({others, refused}, timeout=MOVE_TIMEOUT_S, return_when=asyncio.FIRST_COMPLETED)
        refused.cancel()
        if others in done:
            self.version = before + 1
            if self.run.recording:
                self.run.latencies.append(max(others.result()) - t0)
            return
        others.cancel()
        self.version = -1  # the next move starts from what the phones hold
        if refused in done and not refused.cancelled():
            self.run.error(f"refused {refused.result()}")
            self.run.refused.setdefault(refused.result(), {"seat": seat, "version": before, "action": action})
            return
        self.run.timeouts += 1
        if self.run.recording:
            self.run.censored.append(MOVE_TIMEOUT_S)

    async def _post_move(self, seat: int, action: dict) -> None:
        """The API's POST (the app) or ``/bump/`` (a floor); timed from the send to every other phone's push."""
        t0 = time.perf_counter()
        if self.kind == "app":
            r = await http(self.post_port, "POST", f"/api/tables/{self.code}/actions/",
                           {"action": action, "version": self.version, "key": uuid.uuid4().hex},
                           headers={"Authorization": f"Bearer {self.tokens[seat]}"})
        else:
            r = await http(self.post_port, "POST", f"/bump/{self.code}/", {"version": self.version})
        if self.run.recording:
            self.run.post_s.append(time.perf_counter() - t0)
        if r.status != 200:
            self.run.error(f"HTTP {r.status}")
            self.version = -1
            return
        new = r.json()["version"]
        self.version = new
        others = [p.wait_for(new) for p in self.phones if p.seat != seat]
        try:
            done = await asyncio.wait_for(asyncio.gather(*others), MOVE_TIMEOUT_S)
        except TimeoutError:
            self.run.timeouts += 1
            if self.run.recording:
                self.run.censored.append(MOVE_TIMEOUT_S)
            return
        if self.run.recording:
            self.run.latencies.append(max(done) - t0)


# -- one configuration --------------------------------------------------------------------------------

def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


async def bounded(coros: list, limit: int) -> list:
    sem = asyncio.Semaphore(limit)

    async def one(c):
        async with sem:
            return await c

    return await asyncio.gather(*(one(c) for c in coros), return_exceptions=True)


async def run_config(servers: Servers, tables: int, mode: str, window: float, on_window: Any = None,
                     taps: str = "post", tap_check: dict[str, str | None] | None = None, game: str = "sorry",
                     auth: str = "cookie") -> dict[str, Any]:
    """One measured window against running ``servers``; the result row (see the module docstring).

    ``taps`` ``socket``: one socket tap is tried first (not recorded); a server that answers it with
    nothing is measured with POST taps instead, and the row says so (``taps_fallback``). ``tap_check``
    remembers that answer across configurations of one app (the same code: tried once).
    """
    run = RunStats()
    loads: list[TableLoad] = []
    if servers.kind == "app":
        body = {"game": game, "options": {}, "seats": [{"name": n} for n in SEATS]}
        created = await bounded([http(servers.ports[i % len(servers.ports)], "POST", "/api/tables/", body)
                                 for i in range(tables)], 8)
        for i, r in enumerate(created):
            if isinstance(r, BaseException) or r.status != 201:
                raise RuntimeError(f"create table failed: {r!r} {getattr(r, 'body', b'')[:300]!r}")
            data = r.json()
            seats = sorted(data["seats"], key=lambda s: s["index"])
            tokens = [s["token"] for s in seats]
            join_urls = [s.get("join_url") or f"/t/{data['code']}/join/#{s['token']}" for s in seats]
            loads.append(TableLoad(run, "app", data["code"], tokens, servers.ports, i, taps, join_urls, auth))
    else:
        loads = [TableLoad(run, "floor", f"F{uuid.uuid4().hex[:8].upper()}", [], servers.ports, i, taps)
                 for i in range(tables)]
    t_connect = time.perf_counter()
    results = await bounded([p.connect() for t in loads for p in t.phones], 16)
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        raise RuntimeError(f"{len(failed)} phones failed to connect, first: {failed[0]!r}")
    connect_s = time.perf_counter() - t_connect
    await asyncio.sleep(0.5)
    fallback = None
    if taps == "socket" and servers.kind == "app":
        tap_check = {} if tap_check is None else tap_check
        if "socket" not in tap_check:
            tap_check["socket"] = await loads[0].probe_socket_taps()
        fallback = tap_check["socket"]
        if fallback is not None and not TAP_FALLBACK:
            raise RuntimeError(f"socket taps not answered ({fallback}); measure this server with --taps post")
        if fallback is not None:
            print(f"     socket taps not answered ({fallback}): measured with POST taps", flush=True)
            for t in loads:
                t.taps = "post"

    stop_at = 0.0

    async def table_loop(t: TableLoad, offset: float) -> None:
        await asyncio.sleep(offset)
        next_at = time.perf_counter()
        while time.perf_counter() < stop_at and not t.finished:
            try:
                await t.move()
            except Exception as exc:  # noqa: BLE001 - counted, the run goes on
                run.error(type(exc).__name__)
                await asyncio.sleep(0.2)
            if mode == "paced":
                next_at += PACE_S
                delay = next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(min(delay, max(0.0, stop_at - time.perf_counter())))
                else:
                    next_at = time.perf_counter()

    client = psutil.Process()
    if on_window is not None:
        await on_window()
    cpu0, ccpu0 = servers.cpu(), sum(client.cpu_times()[:2])
    t0 = time.perf_counter()
    stop_at = t0 + window
    run.recording = True
    tasks = [asyncio.create_task(table_loop(t, (i * PACE_S / tables) if mode == "paced" else 0.0))
             for i, t in enumerate(loads)]
    done, pending = await asyncio.wait(tasks, timeout=window + DRAIN_S)
    for task in pending:
        task.cancel()
    t1 = time.perf_counter()
    run.recording = False
    cpu1, ccpu1 = servers.cpu(), sum(client.cpu_times()[:2])
    await bounded([p.close() for t in loads for p in t.phones], 64)
    if pending:
        run.error(f"moves cancelled after the {DRAIN_S:.0f} s drain")
        run.errors[f"moves cancelled after the {DRAIN_S:.0f} s drain"] = len(pending)
    elapsed = t1 - t0
    moves = len(run.latencies)
    fb, wb = run.frame_bytes, run.wire_bytes
    pages = [p.page for t in loads for p in t.phones if p.page]
    lat = run.latencies + run.censored  # percentiles count a timed-out move at the timeout
    return {
        "tables": tables, "mode": mode, "taps": "post" if fallback else taps, "taps_fallback": fallback,
        "window_s": window, "elapsed_s": round(elapsed, 2),
        "connect_s": round(connect_s, 2), "moves": moves,
        "p50_ms": _ms(pct(lat, 0.50)), "p95_ms": _ms(pct(lat, 0.95)), "p99_ms": _ms(pct(lat, 0.99)), "max_ms": _ms(max(run.latencies) if moves else None),
        "post_p50_ms": _ms(pct(run.post_s, 0.50)), "post_p95_ms": _ms(pct(run.post_s, 0.95)),
        "moves_per_s": round(moves / elapsed, 2) if elapsed else None,
        "cpu_ms_per_move": round(1000 * (cpu1 - cpu0) / moves, 1) if moves else None,
        "server_cpu_util": round((cpu1 - cpu0) / elapsed, 2),
        "client_cpu_util": round((ccpu1 - ccpu0) / elapsed, 2),
        "push_bytes_median": int(statistics.median(fb)) if fb else None, "push_bytes_max": max(fb) if fb else None,
        "push_wire_median": int(statistics.median(wb)) if wb else None,
        "page_wire_median": int(statistics.median(p["wire"] for p in pages)) if pages else None,
        "page_html_median": int(statistics.median(p["html"] for p in pages)) if pages else None,
        "game": game if servers.kind == "app" else None, "auth": loads[0].auth if servers.kind == "app" else None,
        "frames": len(fb), "timeouts": run.timeouts, "errors": run.errors, "refused": run.refused,
        "finished_tables": run.finished_tables, "frames_without_version": run.frames_without_version,
        "deflate": any(p.deflate for t in loads for p in t.phones), "deflate_params": run.deflate_params,
    }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(1000 * seconds, 1)


# -- environments --------------------------------------------------------------------------------------

@dataclass
class App:
    """One checkout of the app under test: ``label`` in the tables, ``root`` its directory, ``taps`` its tap mode.

    ``--app before=/work/bench-before:post`` gives ``App("before", Path("/work/bench-before"), "post")``.
    The server runs from ``root`` (its own code, migrations and static files) with this bench's venv.
    """

    label: str
    root: Path
    taps: str
    tap_check: dict[str, str | None] = field(default_factory=dict)  # the socket tap probe's answer, once

    @classmethod
    def parse(cls, text: str, default_taps: str) -> App:
        """``LABEL=DIR[:socket|:post]`` or ``DIR``; raises ``ValueError`` for a directory without manage.py."""
        label, _, rest = text.rpartition("=")
        taps = default_taps
        head, _, tail = rest.rpartition(":")
        if head and tail in ("socket", "post"):
            rest, taps = head, tail
        root = Path(rest).expanduser().resolve()
        if not (root / "manage.py").exists():
            raise ValueError(f"{root} is not a checkout of the app (no manage.py)")
        return cls(label or root.name, root, taps)

    def git(self) -> str:
        return _git(self.root)


class Env:
    """Databases for each app checkout: a migrated SQLite template, a fresh PostgreSQL database; removed at the end."""

    def __init__(self, tmp: Path, redis_db: int) -> None:
        self.tmp = tmp
        self.redis_db = redis_db
        self.redis_url = f"redis://{HOST}:6379/{redis_db}"  # the floors'; checkouts: redis_db, redis_db + 1, ...
        self.sqlite_templates: dict[Path, Path] = {}
        self.pg_names: dict[Path, str] = {}
        self.durable_pg: str | None = None  # the durable floor's PostgreSQL database (scale-out)
        self.n = 0

    def base(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "PYTHONPATH")}
        env["PYTHONUNBUFFERED"] = "1"
        env["STATIC_FROM_FINDERS"] = "false"  # the collected, precompressed static files, as make run serves them
        env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
        return env

    def migrate(self, env: dict[str, str], root: Path = ROOT) -> None:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=root, env=env,
                       check=True, timeout=300)
        # As `make run` does: ServeStatic then serves the collected, precompressed static files.
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=root, env=env,
                       check=True, timeout=300)

    def app_embedded(self, root: Path = ROOT) -> dict[str, str]:
        if root not in self.sqlite_templates:
            template = self.tmp / f"template{len(self.sqlite_templates)}.sqlite3"
            self.migrate(self.base() | {"DATABASE_URL": f"sqlite:///{template}"}, root)
            self.sqlite_templates[root] = template
        self.n += 1
        db = self.tmp / f"db{self.n}.sqlite3"
        shutil.copy(self.sqlite_templates[root], db)
        return self.base() | {"DATABASE_URL": f"sqlite:///{db}"}

    def app_scaleout(self, root: Path = ROOT) -> dict[str, str]:
        """A fresh PostgreSQL database and a Redis database of its own for each checkout (its cache keys are its own)."""
        if root not in self.pg_names:
            n = len(self.pg_names)
            if self.redis_db + n > 15:
                raise RuntimeError(f"checkout {n + 1} would need Redis database {self.redis_db + n}: lower --redis-db")
            name = f"companion_bench_{os.getpid()}_{n}"
            subprocess.run(["createdb", "-h", HOST, "-U", "root", name], check=True, timeout=60)
            self.pg_names[root] = name
            self.migrate(self.base() | {"DATABASE_URL": f"postgres://root@{HOST}:5432/{name}",
                                        "REDIS_URL": self.redis_of(root)}, root)
        return self.base() | {"DATABASE_URL": f"postgres://root@{HOST}:5432/{self.pg_names[root]}",
                              "REDIS_URL": self.redis_of(root)}

    def redis_of(self, root: Path) -> str:
        return f"redis://{HOST}:6379/{self.redis_db + list(self.pg_names).index(root)}"

    def floor(self, redis: bool) -> dict[str, str]:
        env = self.base()
        if redis:
            env["REDIS_URL"] = self.redis_url
        return env

    def durable_floor(self, scaleout: bool) -> dict[str, str]:
        """The durable floor's database, of the layout's kind: a fresh SQLite file (embedded) or the bench's own
        PostgreSQL database (scale-out, made once, dropped at the end); its tables made by ``bare_app.py init-durable``."""
        env = self.floor(scaleout)
        if scaleout:
            if self.durable_pg is None:
                name = f"companion_bench_{os.getpid()}_durable"
                subprocess.run(["createdb", "-h", HOST, "-U", "root", name], check=True, timeout=60)
                self.durable_pg = name
            env["DATABASE_URL"] = f"postgres://root@{HOST}:5432/{self.durable_pg}"
        else:
            self.n += 1
            env["DATABASE_URL"] = f"sqlite:///{self.tmp / f'durable{self.n}.sqlite3'}"
        subprocess.run([sys.executable, str(BENCH_DIR / "bare_app.py"), "init-durable"], cwd=BENCH_DIR, env=env,
                       check=True, timeout=120)
        return env

    def close(self) -> None:
        if self.durable_pg is not None:
            subprocess.run(["dropdb", "-h", HOST, "-U", "root", "--if-exists", self.durable_pg], timeout=60, check=False)
        for name in self.pg_names.values():
            subprocess.run(["dropdb", "-h", HOST, "-U", "root", "--if-exists", name], timeout=60, check=False)


@dataclass
class Subject:
    """What one configuration measures: an app checkout with its tap mode, or a floor (``app`` is then ``None``)."""

    name: str  # the row's name: the app's label, "floor socket", "floor POST", "django floor"
    kind: str  # app | floor | durable | django (Servers' kind)
    taps: str  # socket | post
    app: App | None = None


FLOORS = {"socket": Subject("floor socket", "floor", "socket"), "durable": Subject("floor durable", "durable", "socket"),
          "post": Subject("floor POST", "floor", "post"), "django": Subject("django floor", "django", "post")}


async def one_config(envs: Env, logdir: Path, layout: str, subject: Subject, server: str, tables: int, mode: str,
                     window: float, game: str = "sorry", auth: str = "cookie") -> dict[str, Any]:
    workers = 2 if layout == "scaleout" else 1
    app = subject.app
    if app is not None:
        env = envs.app_scaleout(app.root) if layout == "scaleout" else envs.app_embedded(app.root)
    elif subject.kind == "durable":
        env = envs.durable_floor(layout == "scaleout")
    else:
        env = envs.floor(layout == "scaleout")
    label = (f"{layout} {subject.name} ({subject.taps} taps" + (f", {auth} phones) {game}" if app else ")")
             + f" {server} T={tables} {mode}")
    print(f"  .. {label}", flush=True)
    t_start = time.perf_counter()
    servers = Servers(subject.kind, server, workers, env, logdir, app.root if app else ROOT,
                      re.sub(r"\W+", "-", subject.name))
    try:
        await servers.ready()
        result = await asyncio.wait_for(
            run_config(servers, tables, mode, window, taps=subject.taps, tap_check=app.tap_check if app else None,
                       game=game, auth=auth),
            window + DRAIN_S + 300)
    except Exception as exc:  # noqa: BLE001 - one failed configuration must not lose the others
        result = {"tables": tables, "mode": mode, "taps": subject.taps, "game": game if app else None,
                  "auth": auth if app else None, "failed": f"{type(exc).__name__}: {exc}"[:400]}
        print(f"     FAILED: {result['failed']}", flush=True)
    finally:
        servers.close()
    server_errors = servers.errors()
    if server_errors:
        result["server_errors"] = server_errors
        print(f"     server errors: {server_errors}", flush=True)
    result.update(layout=layout, name=subject.name, kind=subject.kind, server=server, workers=workers,
                  app_dir=str(app.root) if app else None, git=app.git() if app else None,
                  wall_s=round(time.perf_counter() - t_start, 1))
    return result


# -- first-load bytes ---------------------------------------------------------------------------------

ASSET_RE = re.compile(r'(?:src|href)="([^"#]+)"')
CSS_URL_RE = re.compile(r'url\(\s*["\']?([^"\')]+)["\']?\s*\)')
ASSET_EXT = (".css", ".js", ".png", ".svg", ".jpg", ".jpeg", ".webp", ".gif", ".ico", ".woff", ".woff2",
             ".webmanifest")


def _decoded(r: Reply) -> bytes:
    enc = r.headers.get("content-encoding", "")
    if enc == "gzip":
        return gzip.decompress(r.body)
    if enc == "br":
        try:
            import brotli  # type: ignore[import-not-found]
        except ImportError:
            return b""
        return brotli.decompress(r.body)
    return r.body


FONT_FACE_RE = re.compile(r"@font-face\s*{([^}]*)}", re.S)
UNICODE_RANGE_RE = re.compile(r"U\+([0-9A-Fa-f]+)(?:-([0-9A-Fa-f]+))?")
PAGE_LANGUAGES = ("en", "fa", "az", "ps")


def _font_ranges(css: str) -> dict[str, list[tuple[int, int]]]:
    """``{font file name: [(first, last) code point]}`` of each ``@font-face`` with a ``unicode-range``."""
    found = {}
    for block in FONT_FACE_RE.findall(css):
        src = CSS_URL_RE.search(block)
        ranges = [(int(a, 16), int(b or a, 16)) for a, b in UNICODE_RANGE_RE.findall(block.split("unicode-range", 1)[-1])]
        if src and "unicode-range" in block:
            found[src.group(1).rsplit("/", 1)[-1]] = ranges
    return found


def _uses(text: str, ranges: list[tuple[int, int]]) -> bool:
    """Whether ``text`` has a character a browser would draw with a face of ``ranges`` (it fetches only those)."""
    points = {ord(ch) for ch in text}
    return any(lo <= cp <= hi for cp in points for lo, hi in ranges)


async def first_load(port: int) -> list[dict[str, Any]]:
    """Each game's phone page in each language, with what a browser fetches for it (compressed, as sent).

    A browser fetches a font face only when the page draws a character of its ``unicode-range``: a face is
    counted when the page's HTML holds such a character (tags and attributes too, so never fewer than a
    browser fetches).
    """
    out = []
    accept = {"Accept-Encoding": "gzip, br", "Accept": "text/html,*/*"}
    for game in ("sorry", "yellow_yangtze", "amun_re", "catan_junior"):
        try:
            r = await http(port, "POST", "/api/tables/",
                           {"game": game, "options": {}, "seats": [{"name": n} for n in SEATS]})
            if r.status != 201:
                out.append({"game": game, "failed": f"create {r.status} {r.body[:200]!r}"})
                continue
            data = r.json()
            code, token = data["code"], data["seats"][0]["token"]
            page = await http(port, "GET", f"/t/{code}/join/", headers=accept)
            csrf = next(c.split(";")[0] for c in page.cookies if c.startswith("csrftoken="))
            j = await http(port, "POST", f"/t/{code}/join/", form={
                "token": token, "csrfmiddlewaretoken": csrf.split("=", 1)[1]}, headers={
                "Cookie": csrf, "Origin": f"http://{HOST}:{port}", "Referer": f"http://{HOST}:{port}/"})
            j.cookies.append(csrf)
            cookie = "; ".join(c.split(";")[0] for c in j.cookies)
            for language in PAGE_LANGUAGES:
                lang_cookie = f"{cookie}; django_language={language}"
                page = await http(port, "GET", f"/t/{code}/", headers=accept | {"Cookie": lang_cookie})
                html = _decoded(page).decode("utf-8", "replace")
                seen: set[str] = set()
                queue = list(ASSET_RE.findall(html))
                rows, fonts = [], {}
                while queue and len(seen) < 60:
                    url = queue.pop(0).replace("&amp;", "&")
                    if url.startswith(("http:", "https:", "//", "data:", "mailto:")) or url in seen:
                        continue
                    if not url.split("?")[0].lower().endswith(ASSET_EXT) and "/static/" not in url:
                        continue
                    seen.add(url)
                    name = url.rsplit("/", 1)[-1].split("?")[0]
                    if name in fonts and not _uses(html, fonts[name]):
                        continue  # a face the page never draws: a browser does not fetch it
                    a = await http(port, "GET", url, headers=accept | {"Cookie": lang_cookie})
                    rows.append({"url": url, "status": a.status, "bytes": len(a.body),
                                 "encoding": a.headers.get("content-encoding", "identity")})
                    if url.split("?")[0].endswith(".css") and a.status == 200:
                        css = _decoded(a).decode("utf-8", "replace")
                        base = url.rsplit("/", 1)[0] + "/"
                        for face, ranges in _font_ranges(css).items():
                            fonts[face] = ranges
                        for ref in CSS_URL_RE.findall(css):
                            if not ref.startswith(("data:", "http:", "https:", "#")):
                                queue.append(ref if ref.startswith("/") else posixpath.normpath(base + ref))
                out.append({
                    "game": game, "language": language, "page_status": page.status, "html_bytes": len(page.body),
                    "html_encoding": page.headers.get("content-encoding", "identity"),
                    "assets_bytes": sum(x["bytes"] for x in rows),
                    "total_bytes": len(page.body) + sum(x["bytes"] for x in rows),
                    "compressed": page.headers.get("content-encoding") is not None
                    or any(x["encoding"] != "identity" for x in rows),
                    "assets": rows,
                })
        except Exception as exc:  # noqa: BLE001
            out.append({"game": game, "failed": f"{type(exc).__name__}: {exc}"[:300]})
    return out


# -- profile ------------------------------------------------------------------------------------------

def summarise_raw_profile(path: Path, top: int = 10) -> str:
    """py-spy --format raw: 'frame;frame;... count' lines; top functions by self and by inclusive samples."""
    self_c: dict[str, int] = {}
    incl: dict[str, int] = {}
    total = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = stack.split(";")
        leaf = frames[-1]
        self_c[leaf] = self_c.get(leaf, 0) + n
        for f in set(frames):
            incl[f] = incl.get(f, 0) + n
    lines = [f"py-spy samples: {total}", f"top {top} by self time:"]
    for f, n in sorted(self_c.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"  {100 * n / max(total, 1):5.1f}%  {f}")
    lines.append(f"top {top * 2} by inclusive time:")
    for f, n in sorted(incl.items(), key=lambda kv: -kv[1])[:top * 2]:
        lines.append(f"  {100 * n / max(total, 1):5.1f}%  {f}")
    lines.append(f"top {top * 2} of the project's own code (games/, companion/) by inclusive time:")
    own = {f: n for f, n in incl.items() if "(games/" in f or "(companion/" in f}
    for f, n in sorted(own.items(), key=lambda kv: -kv[1])[:top * 2]:
        lines.append(f"  {100 * n / max(total, 1):5.1f}%  {f}")
    return "\n".join(lines)


async def profile(envs: Env, logdir: Path, out: Path, tables: int, app: App, server: str = "uvicorn",
                  game: str = "sorry", layout: str = "embedded") -> None:
    """py-spy ``app`` saturated (``layout``, ``tables`` tables of ``game``, its tap mode) into ``out`` and ``out.gil``;
    prints the top. Scale-out: each of the two workers is recorded, into ``out.1``/``out.1.gil`` for the second."""
    pyspy = BIN / "py-spy"
    if not pyspy.exists():
        print("py-spy is not installed in this venv (pip install py-spy); skipping the profile")
        return
    scaleout = layout == "scaleout"
    env = envs.app_scaleout(app.root) if scaleout else envs.app_embedded(app.root)
    servers = Servers("app", server, 2 if scaleout else 1, env, logdir, app.root)
    try:
        await servers.ready()
        recs = []
        outs = [out] + ([out.with_name(out.name + ".1")] if scaleout else [])
        paths = [(path, path.with_name(path.name + ".gil"), proc) for path, proc in zip(outs, servers.procs, strict=False)]

        async def start_pyspy() -> None:  # when the measured window starts: tables made, phones connected
            # two recorders per worker: every thread (time waiting on the database included) and only the GIL holder
            for path, gil_path, proc in paths:
                for where, extra in ((path, []), (gil_path, ["--gil"])):
                    recs.append(await asyncio.create_subprocess_exec(
                        str(pyspy), "record", "-d", "15", "-r", "200", "-p", str(proc.pid), "-o", str(where),
                        "--format", "raw", "--nonblocking", *extra, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))

        result = await run_config(servers, tables, "saturated", 20.0, on_window=start_pyspy, taps=app.taps,
                                  tap_check=app.tap_check, game=game)
        errs = [(await asyncio.wait_for(rec.communicate(), 60))[1] for rec in recs]
        print(f"profiled run: {result['moves_per_s']} moves/s, p50 {result['p50_ms']} ms, "
              f"server CPU {result['cpu_ms_per_move']} ms/move")
        written = [(p, title) for path, gil_path, _ in paths
                   for p, title in ((path, "every thread"), (gil_path, "GIL holder only (--gil)"))]
        for (path, title), err in zip(written, errs, strict=False):
            print(f"\n== py-spy, {title}: {path}")
            print(summarise_raw_profile(path) if path.exists() else f"py-spy wrote nothing: {err.decode()[-500:]}")
    finally:
        servers.close()


# -- main ---------------------------------------------------------------------------------------------

TARGETS = "embedded:10:saturated,embedded:50:paced,scaleout:200:paced"  # the configurations of the targets


def ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def fmt(v: Any) -> str:
    return "-" if v is None else str(v)


def _ratio(a: Any, b: Any) -> str:
    return f"{a / b:.2f}" if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b else "-"


def print_tables(results: list[dict[str, Any]]) -> None:
    """Every row with its notes (moves, POST alone, CPU use, timeouts, errors), one table per mode."""
    cols = ["p50_ms", "p95_ms", "p99_ms", "moves_per_s", "cpu_ms_per_move", "push_bytes_median", "push_wire_median",
            "push_bytes_max", "page_wire_median"]
    heads = ["p50 ms", "p95 ms", "p99 ms", "moves/s", "CPU ms/move", "push B med", "wire B med", "push B max",
             "page B"]
    for mode in ("paced", "saturated"):
        rows = [r for r in results if r.get("mode") == mode]
        if not rows:
            continue
        print(f"\n{mode}" + (" (one move per table every 2 s)" if mode == "paced"
                              else " (one outstanding move per table)"))
        label_w = 66
        print(f"{'config':<{label_w}}" + "".join(f"{h:>12}" for h in heads) + "   notes")
        for r in rows:
            label = (f"{r['layout']} {r['name']} {r['taps']}" + (f" {r['auth']} {r['game']}" if r.get("game") else "")
                     + f" {r['server']} T={r['tables']}")
            if "failed" in r:
                print(f"{label:<{label_w}}  FAILED {r['failed'][:160]}")
                continue
            notes = [f"n={r['moves']}", f"srvCPU {r['server_cpu_util']}", f"cliCPU {r['client_cpu_util']}"]
            if r["post_p50_ms"] is not None:
                notes.insert(1, f"POST p50 {r['post_p50_ms']}ms")
            if r.get("taps_fallback"):
                notes.append(f"socket taps unanswered: POST taps ({r['taps_fallback']})")
            if r["timeouts"]:
                notes.append(f"timeouts={r['timeouts']}(at {MOVE_TIMEOUT_S:.0f} s in pct)")
            if r["errors"]:
                notes.append(f"errors={r['errors']}")
            for code, first in r.get("refused", {}).items():
                notes.append(f"first refused {code}: seat {first['seat']} at v{first['version']} "
                             f"tapped {json.dumps(first['action'], sort_keys=True)}")
            if r["finished_tables"]:
                notes.append(f"finished={r['finished_tables']}")
            if r["deflate"]:
                notes.append("deflate")
            notes.append(f"conn {r['connect_s']}s")
            print(f"{label:<{label_w}}" + "".join(f"{fmt(r[c]):>12}" for c in cols) + "   " + " ".join(notes))


def markdown_table(results: list[dict[str, Any]]) -> str:
    """The side-by-side table: each configuration's apps and floors, with ratios to the floor of their tap mode.

    ``CPU ÷ floor`` and ``p99 ÷ floor`` divide by the bare floor of the row's own tap mode (socket taps:
    ``floor socket``; POST taps: ``floor POST``); ``CPU ÷ Django`` by the Django floor (POST).
    """
    out = ["| config | measured | game | taps | p50 ms | p99 ms | CPU ms/move | moves/s | push B (median) "
           "| push B deflated | CPU ÷ floor | p99 ÷ floor | CPU ÷ durable | CPU ÷ Django | notes |",
           "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for r in results:
        groups.setdefault((r["layout"], r["server"], r["tables"], r["mode"]), []).append(r)
    for (layout, server, tables, mode), rows in groups.items():
        config = f"{layout} {server} T={tables} {mode}"
        floors = {r["name"]: r for r in rows if r["kind"] != "app" and "failed" not in r}
        for r in rows:
            if "failed" in r:
                out.append(f"| {config} | {r['name']} | {r.get('game') or ''} | {r['taps']} | FAILED |  |  |  |  |  |  |  |  |  "
                           f"| {r['failed'][:120].replace('|', '/')} |")
                continue
            floor = floors.get("floor socket" if r["taps"] == "socket" else "floor POST", {})
            django = floors.get("django floor", {})
            durable = floors.get("floor durable", {})
            notes = [f"n={r['moves']}"]
            if r.get("auth"):
                notes.append(f"{r['auth']} phones")
            if r.get("finished_tables"):
                notes.append(f"{r['finished_tables']} games over")
            if r.get("taps_fallback"):
                notes.append("socket taps unanswered: POST taps")
            if r["timeouts"]:
                notes.append(f"{r['timeouts']} timeouts")
            if r["errors"]:
                notes.append(f"{sum(r['errors'].values())} errors")
            if r.get("git"):
                notes.append(r["git"])
            out.append(
                f"| {config} | {r['name']} | {r.get('game') or ''} | {r['taps']} | {fmt(r['p50_ms'])} | {fmt(r['p99_ms'])} "
                f"| {fmt(r['cpu_ms_per_move'])} | {fmt(r['moves_per_s'])} | {fmt(r['push_bytes_median'])} "
                f"| {fmt(r.get('push_wire_median'))} "
                f"| {_ratio(r['cpu_ms_per_move'], floor.get('cpu_ms_per_move'))} "
                f"| {_ratio(r['p99_ms'], floor.get('p99_ms'))} "
                f"| {_ratio(r['cpu_ms_per_move'], durable.get('cpu_ms_per_move'))} "
                f"| {_ratio(r['cpu_ms_per_move'], django.get('cpu_ms_per_move'))} | {', '.join(notes)} |")
    return "\n".join(out)


#: The suffix of an app's label in the second pass of ``--abba``.
SECOND_PASS = "-2"


def abba_table(results: list[dict[str, Any]]) -> str:
    """Markdown, one row per app, game and configuration of an ``--abba`` run: each pass's CPU ms per move (in the
    order they ran) and the mean of both passes for CPU, moves/s, p50 and p99."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in results:
        if r.get("kind") == "app" and r.get("cpu_ms_per_move") is not None:
            label = r["name"].removesuffix(SECOND_PASS)
            groups.setdefault((r["layout"], r["server"], r["tables"], r["mode"], label, r["game"]), []).append(r)
    out = ["| config | app | game | CPU ms/move, each pass | CPU ms/move | moves/s | p50 ms | p99 ms |",
           "|---|---|---|---|---:|---:|---:|---:|"]
    for (layout, server, tables, mode, label, game), rows in groups.items():
        mean = {k: sum(r[k] for r in rows) / len(rows) for k in ("cpu_ms_per_move", "moves_per_s", "p50_ms", "p99_ms")}
        each = ", ".join(f"{r['cpu_ms_per_move']:.1f}" for r in rows)
        out.append(f"| {layout} {server} T={tables} {mode} | {label} | {game} | {each} | {mean['cpu_ms_per_move']:.2f} "
                   f"| {mean['moves_per_s']:.1f} | {mean['p50_ms']:.1f} | {mean['p99_ms']:.1f} |")
    return "\n".join(out)


def games_table(results: list[dict[str, Any]], first: list[dict[str, Any]]) -> str:
    """Markdown, one row per app, game and configuration: what a move costs and what a phone receives.

    ``first load KB``: the page with what a browser fetches for it (``first_load``, the largest of the four
    languages) when it was measured, else the table page the phones loaded (HTML only, as sent).
    """
    loads: dict[tuple[str, str], int] = {}
    for f in first:
        if "failed" not in f:
            loads[(f["app"], f["game"])] = max(loads.get((f["app"], f["game"]), 0), f["total_bytes"])
    out = ["| config | app | game | CPU ms/move | moves/s | p50 ms | p99 ms | push B median raw | push B median deflated "
           "| first load KB | ÷ Sorry! CPU |", "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    sorry = {(r["layout"], r["server"], r["tables"], r["mode"], r["name"]): r.get("cpu_ms_per_move")
             for r in results if r.get("game") == "sorry" and "failed" not in r}
    for r in results:
        if r.get("kind") != "app":
            continue
        config = f"{r['layout']} {r['server']} T={r['tables']} {r['mode']}"
        if "failed" in r:
            out.append(f"| {config} | {r['name']} | {r.get('game')} | FAILED |  |  |  |  |  |  |  |")
            continue
        kb = loads.get((r["name"], r["game"]))
        kb_text = f"{kb / 1000:.1f}" if kb else (f"{r['page_wire_median'] / 1000:.1f} (page)"
                                                   if r.get("page_wire_median") else "-")
        base = sorry.get((r["layout"], r["server"], r["tables"], r["mode"], r["name"]))
        out.append(f"| {config} | {r['name']} | {r['game']} | {fmt(r['cpu_ms_per_move'])} | {fmt(r['moves_per_s'])} "
                   f"| {fmt(r['p50_ms'])} | {fmt(r['p99_ms'])} | {fmt(r['push_bytes_median'])} "
                   f"| {fmt(r.get('push_wire_median'))} | {kb_text} | {_ratio(r['cpu_ms_per_move'], base)} |")
    return "\n".join(out)


def print_first_load(first: list[dict[str, Any]]) -> None:
    print("\nfirst load of a phone page (/t/<code>/ after the join link; Accept-Encoding: gzip, br; fonts only"
          " where the page draws their characters):")
    print(f"{'app':<12}{'game':<16}{'lang':<6}{'status':>7}{'HTML B':>10}{'assets B':>10}{'total B':>10}"
          "  compressed  assets")
    for f in first:
        if "failed" in f:
            print(f"{f.get('app', ''):<12}{f['game']:<16}FAILED {f['failed']}")
            continue
        names = ", ".join(f"{a['url'].rsplit('/', 1)[-1]} {a['bytes']} ({a['encoding']})" for a in f["assets"])
        print(f"{f['app']:<12}{f['game']:<16}{f['language']:<6}{f['page_status']:>7}{f['html_bytes']:>10}"
              f"{f['assets_bytes']:>10}{f['total_bytes']:>10}  {'yes' if f['compressed'] else 'no':<10}  {names}")


def first_load_table(first: list[dict[str, Any]], labels: list[str]) -> str:
    """Markdown: each game's phone page, total bytes a browser fetches per language, one column per app."""
    totals = {(f["game"], f["language"], f["app"]): f["total_bytes"] for f in first if "failed" not in f}
    keys = list(dict.fromkeys((f["game"], f["language"]) for f in first if "failed" not in f))
    out = ["| first load B | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels)]
    for game, language in keys:
        out.append(f"| {game} {language} | " + " | ".join(fmt(totals.get((game, language, a))) for a in labels) + " |")
    return "\n".join(out)


POST_ACTION_RE = re.compile(r"^(api|tap): ([\d.]+) CPU ms/move .*?, ([\d.]+) queries/move", re.M)


def write_path(apps: list[App], args: str) -> list[dict[str, Any]]:
    """``bench_post_action.py ARGS --app-dir ROOT`` for each app: CPU ms and queries per move, API and htmx tap."""
    rows = []
    for app in apps:
        cmd = [sys.executable, str(BENCH_DIR / "bench_post_action.py"), *args.split(), "--app-dir", str(app.root)]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=False)
        found = {m.group(1): (float(m.group(2)), float(m.group(3))) for m in POST_ACTION_RE.finditer(done.stdout)}
        row: dict[str, Any] = {"app": app.label}
        for path in ("api", "tap"):
            if path in found:
                row[f"{path}_cpu_ms"], row[f"{path}_queries"] = found[path]
        if done.returncode or not found:
            row["failed"] = (done.stdout + done.stderr)[-300:]
        rows.append(row)
    return rows


def write_path_table(rows: list[dict[str, Any]]) -> str:
    out = ["| write path (in process) | API CPU ms/move | API queries/move | htmx tap CPU ms/move | htmx tap queries/move |",
           "|---|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['app']} | {fmt(r.get('api_cpu_ms'))} | {fmt(r.get('api_queries'))} "
                   f"| {fmt(r.get('tap_cpu_ms'))} | {fmt(r.get('tap_queries'))} |"
                   + (f" FAILED {r['failed'][-120:]!r}" if "failed" in r else ""))
    return "\n".join(out)


def plan_of(args: argparse.Namespace) -> list[tuple[str, str, int, str]]:
    """``[(layout, server, tables, mode)]``: ``--configs`` as given, else ``--embedded``/``--scaleout`` x ``--modes``."""
    if args.configs:
        plan = []
        for item in args.configs.split(","):
            layout, tables, mode = item.strip().split(":")
            if layout not in ("embedded", "scaleout") or mode not in ("paced", "saturated"):
                raise SystemExit(f"--configs: {item!r} is not embedded|scaleout:T:paced|saturated")
            plan.append((layout, args.server, int(tables), mode))
        return plan
    servers_list = [s for s in (args.servers or args.server).split(",") if s]
    modes = [m for m in args.modes.split(",") if m]
    plan = []
    for tables in ints(args.embedded):
        for mode in modes:
            for server in servers_list if tables == min(ints(args.embedded)) else [args.server]:
                plan.append(("embedded", server, tables, mode))
    for tables in ints(args.scaleout):
        for mode in modes:
            plan.append(("scaleout", args.server, tables, mode))
    return plan


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="bench-realtime-"))
    envs = Env(tmp, args.redis_db)
    results: list[dict[str, Any]] = []
    first: list[dict[str, Any]] = []
    apps: list[App] = args.apps
    try:
        if args.profile:
            await profile(envs, tmp, Path(args.profile), args.profile_tables, apps[0], args.server,
                          (args.games or ["sorry"])[0], args.profile_layout)
            return {}
        floors = [FLOORS[f] for f in args.floors.split(",") if f]
        subjects = [Subject(a.label, "app", a.taps, a) for a in apps] + floors
        if args.abba:  # the apps again in reverse order: a drift of the machine over the run weighs on each alike
            subjects += [Subject(f"{a.label}{SECOND_PASS}", "app", a.taps, a) for a in reversed(apps)]
        print("apps: " + "; ".join(f"{a.label} = {a.root} ({a.git() or 'no git'}), {a.taps} taps" for a in apps)
              + "; floors: " + (", ".join(f.name for f in floors) or "none"), flush=True)
        started = time.perf_counter()
        for layout, server, tables, mode in plan_of(args):
            for subject in subjects:  # interleaved: every app (each game) and floor of a configuration, one after another
                for game in (args.games if subject.app is not None else ["-"]):
                    results.append(await one_config(envs, tmp, layout, subject, server, tables, mode, args.window,
                                                    game, args.auth))
        if not args.no_first_load:
            for app in apps:
                servers = Servers("app", args.server, 1, envs.app_embedded(app.root), tmp, app.root, app.label)
                try:
                    await servers.ready()
                    first += [f | {"app": app.label} for f in await first_load(servers.ports[0])]
                finally:
                    servers.close()
        writes = write_path(apps, args.write_path) if args.write_path else []
        print_tables(results)
        if first:
            print_first_load(first)
        if results:
            print("\n" + markdown_table(results))
            if any(r.get("kind") == "app" for r in results):
                print("\n" + games_table(results, first))
            if args.abba:
                print("\n" + abba_table(results))
        if first:
            print("\n" + first_load_table(first, [a.label for a in apps]))
        if writes:
            print("\n" + write_path_table(writes))
        print(f"\ntotal wall time {time.perf_counter() - started:.0f} s")
        return {"bench": "realtime", "git": _git(), "cpus": os.cpu_count(),
                "apps": [{"label": a.label, "root": str(a.root), "git": a.git(), "taps": a.taps} for a in apps],
                "results": results, "first_load": first, "write_path": writes}
    finally:
        envs.close()
        shutil.rmtree(tmp, ignore_errors=True)


def _git(root: Path = ROOT) -> str:
    with contextlib.suppress(Exception):
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                              timeout=10).stdout.strip()
    return ""


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="the default: embedded T=10, paced and saturated, 10 s")
    p.add_argument("--full", action="store_true", help="embedded T=10,50,100 and scale-out T=50,100,200, 20 s")
    p.add_argument("--targets", action="store_true",
                   help=f"the targets' configurations ({TARGETS}), 30 s windows")
    p.add_argument("--configs", help="LAYOUT:T:MODE,... e.g. embedded:10:saturated,scaleout:200:paced")
    p.add_argument("--embedded", help="comma-separated T values for the embedded layout")
    p.add_argument("--scaleout", help="comma-separated T values for the 2-worker scale-out layout")
    p.add_argument("--server", default="uvicorn", choices=["uvicorn", "daphne"],
                   help="the ASGI server of every configuration: uvicorn, as make run and docs/scale-out.md run it")
    p.add_argument("--servers", help="daphne,uvicorn: both servers at the smallest embedded T (the others: --server)")
    p.add_argument("--modes", default="paced,saturated")
    p.add_argument("--window", type=float, help="measured seconds per configuration")
    p.add_argument("--taps", default="socket", choices=["socket", "post"],
                   help="how phones tap: a message on their own socket (default) or the API's POST; the tap mode"
                        " of every --app that does not name its own")
    p.add_argument("--abba", action="store_true",
                   help="after the apps and floors of each configuration, the apps again in reverse order (A B floors"
                        " B A; the second pass labelled LABEL-2), and a table of each app's mean over both passes:"
                        " the machine's drift over a run then weighs on before and after alike")
    p.add_argument("--app", "--app-dir", dest="app", action="append", default=[], metavar="[LABEL=]DIR[:TAPS]",
                   help="measure the checkout DIR (its own code, run with this venv), labelled LABEL, with TAPS"
                        " (socket|post; else --taps); repeat to measure several side by side in one run."
                        " Default: this checkout, labelled app")
    p.add_argument("--no-tap-fallback", action="store_true",
                   help="a server that answers a socket tap with nothing for 5 s fails its configuration"
                        " (default: it is measured with POST taps and its rows say so)")
    p.add_argument("--floors", default="socket,durable,post,django",
                   help="the floors measured beside the apps: socket (bare socket taps), durable (socket taps, each"
                        " one durable write on the layout's database first), post (bare POST), django (POST through"
                        " Django's request cycle)")
    p.add_argument("--no-floor", action="store_true", help="no floor (same as --floors '')")
    p.add_argument("--no-django-floor", action="store_true", help="skip the Django floor")
    p.add_argument("--no-first-load", action="store_true")
    p.add_argument("--games", help=f"the games the apps are measured with, each in its own servers ({','.join(GAMES)});"
                                   " default: all four, Sorry! alone in the default --quick run")
    p.add_argument("--auth", default="cookie", choices=["cookie", "bearer"],
                   help="how phones open their sockets: cookie (default: the join link, its signed seat cookie, the"
                        " table page once, the page's socket URL with its ?s= signature) or bearer (Authorization:"
                        " Bearer <seat token>, the API device path)")
    p.add_argument("--write-path", metavar="'TABLES MOVES RUNS'",
                   help="also run bench_post_action.py with these arguments against each app (CPU ms and queries"
                        " per move of the API POST and the htmx tap, in process); --targets: '8 60 3'")
    p.add_argument("--redis-db", type=int, default=13)
    p.add_argument("--json", help="also write the JSON line to this file")
    p.add_argument("--profile", help="py-spy record a saturated embedded server for 15 s into this file")
    p.add_argument("--profile-tables", type=int, default=10)
    p.add_argument("--profile-layout", default="embedded", choices=["embedded", "scaleout"],
                   help="the layout --profile records (scaleout: both workers, PostgreSQL and Redis)")
    p.add_argument("--ports", help="LO-HI: the servers listen on ports of this range only")
    args = p.parse_args()
    if args.ports:
        global PORT_RANGE
        lo, _, hi = args.ports.partition("-")
        PORT_RANGE = (int(lo), int(hi))
    if args.no_tap_fallback:
        global TAP_FALLBACK
        TAP_FALLBACK = False
    try:
        args.apps = [App.parse(a, args.taps) for a in args.app] or [App("app", ROOT, args.taps)]
    except ValueError as exc:
        p.error(str(exc))
    if len({a.label for a in args.apps}) < len(args.apps):
        p.error("two --app share a label: name them, e.g. --app before=DIR:post --app after=DIR:socket")
    if args.abba and any(a.label.endswith(SECOND_PASS) for a in args.apps):
        p.error(f"--abba labels each app's second pass LABEL{SECOND_PASS}: no --app label may end so")
    if args.no_floor:
        args.floors = ""
    floors = [f for f in args.floors.split(",") if f]
    if args.no_django_floor:
        floors = [f for f in floors if f != "django"]
    if any(f not in FLOORS for f in floors):
        p.error(f"--floors: choose among {','.join(FLOORS)}")
    args.floors = ",".join(floors)
    quick = not (args.targets or args.full or args.configs or args.embedded or args.scaleout)
    args.games = [g for g in (args.games or ("sorry" if quick else ",".join(GAMES))).split(",") if g]
    if any(g not in GAMES for g in args.games):
        p.error(f"--games: choose among {','.join(GAMES)}")
    if args.targets:
        args.configs = args.configs or TARGETS
        args.window = args.window or 30.0
        args.write_path = args.write_path or "8 60 3"
    if args.full:
        args.embedded = args.embedded if args.embedded is not None else "10,50,100"
        args.scaleout = args.scaleout if args.scaleout is not None else "50,100,200"
        args.window = args.window or 20.0
    else:
        args.embedded = args.embedded if args.embedded is not None else "10"
        args.scaleout = args.scaleout if args.scaleout is not None else ""
        args.window = args.window or 10.0
    summary = asyncio.run(main_async(args))
    if summary:
        line = json.dumps(summary, separators=(",", ":"))
        print(line)
        if args.json:
            Path(args.json).write_text(line + "\n")


if __name__ == "__main__":
    main()
