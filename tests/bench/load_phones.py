"""Load: many tables of websocket phones against a running server, as real phones use it; prints what went wrong.

Not a speed benchmark (``bench_realtime.py`` is): this checks that the server holds up. Loopback only
(``--ports`` of servers already running on 127.0.0.1, e.g. ``make run`` or two uvicorn workers);
every loop is bounded by ``--seconds``; prints numbers and findings, asserts nothing about time.

    python tests/bench/load_phones.py --ports 18901 --tables 40 --seconds 60
    python tests/bench/load_phones.py --ports 18911,18912 --tables 60 --seconds 60

Load: T tables (games and page languages mixed: Sorry!, Amun-Re, Catan Junior, Yellow & Yangtze;
en, fa, az, ps), 4 phones each holding a websocket (spread over the ports). Each table moves about
every ``--pace`` seconds, the acting phone reading its legal moves from ``GET .../prompt/`` and posting
one (``POST .../actions/``); every ``--dup``-th move two phones post the same version at once (one
must win, the other get 409). ``--taps socket``: the acting phone sends its move on its own socket
(``{"action", "version", "key"}``) and a ``--dup`` move is that message sent twice (a resent tap: one
move); applied when every phone holds the next version, else refused (``data-code``) or unanswered. Meanwhile phones reload their page (``GET /t/<code>/`` with the seat
cookie) and, at a third and two thirds of the run, a reconnect storm drops and reopens half the
sockets at once. At the end: each table's log against the moves answered 200 (lost or duplicated
moves), every phone's last version against the table's (phones that never caught up), then those
phones send one message (a resync) and are checked again.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_realtime import HOST, REFUSAL_RE, VERSION_RE, http, pct  # noqa: E402

GAMES = ["sorry", "amun_re", "catan_junior", "yellow_yangtze"]
LANGS = ["en", "fa", "az", "ps"]
CSRF_RE = re.compile(r"csrftoken=([^;]+)")


class Stats:
    def __init__(self) -> None:
        self.status: dict[str, int] = {}
        self.post_s: list[float] = []
        self.push_s: list[float] = []
        self.page_s: list[float] = []
        self.reconnect_s: list[float] = []
        self.notes: dict[str, int] = {}
        self.frames = 0
        self.frame_bytes = 0

    def count(self, what: str, n: int = 1) -> None:
        self.status[what] = self.status.get(what, 0) + n

    def note(self, what: str, n: int = 1) -> None:
        self.notes[what] = self.notes.get(what, 0) + n


class Phone:
    def __init__(self, table: Table, seat: int, port: int) -> None:
        self.table, self.seat, self.port = table, seat, port
        self.version = -1
        self.ws: Any = None
        self.task: asyncio.Task | None = None
        self.cookie: str | None = None
        self.waiters: list[tuple[int, asyncio.Future]] = []
        self.refusal: asyncio.Future | None = None  # the code of the next refusal frame (a socket tap's)

    async def connect(self) -> None:
        url = f"ws://{HOST}:{self.port}/ws/tables/{self.table.code}/"
        headers = {"Authorization": f"Bearer {self.table.tokens[self.seat]}", "Accept-Language": self.table.lang}
        self.ws = await websockets.connect(url, additional_headers=headers, origin=f"http://{HOST}:{self.port}",
                                           max_size=2 ** 23, open_timeout=30, ping_interval=None)
        self.task = asyncio.create_task(self.listen())

    async def listen(self) -> None:
        ws = self.ws
        with contextlib.suppress(websockets.ConnectionClosed, asyncio.CancelledError):
            async for frame in ws:
                raw = frame if isinstance(frame, bytes) else frame.encode()
                self.table.stats.frames += 1
                self.table.stats.frame_bytes += len(raw)
                if b"Traceback" in raw or b"Server Error" in raw:
                    self.table.stats.note("frame with an error page")
                refused = REFUSAL_RE.search(raw)
                if refused is not None and self.refusal is not None and not self.refusal.done():
                    self.refusal.set_result(refused.group(1).decode())
                versions = [int(v) for v in VERSION_RE.findall(raw)]
                if versions and max(versions) > self.version:
                    self.version = max(versions)
                    now = time.perf_counter()
                    for target, fut in list(self.waiters):
                        if self.version >= target and not fut.done():
                            fut.set_result(now)
                    self.waiters = [(t, f) for t, f in self.waiters if not f.done()]
        if ws is self.ws and ws.close_code not in (None, 1000, 1001):
            self.table.stats.note(f"socket closed by server {ws.close_code}")

    def wait_for(self, version: int) -> asyncio.Future:
        fut = asyncio.get_running_loop().create_future()
        if self.version >= version:
            fut.set_result(time.perf_counter())
        else:
            self.waiters.append((version, fut))
        return fut

    async def drop(self) -> None:
        if self.task:
            self.task.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 3)

    async def reload(self) -> None:
        """A page load as a phone makes it: the join link once (sets the seat cookie), then ``GET /t/<code>/``."""
        stats = self.table.stats
        if self.cookie is None:
            r = await http(self.port, "GET", f"/t/{self.table.code}/join/")
            csrf = next((m.group(1) for c in r.cookies if (m := CSRF_RE.search(c))), "")
            r = await http(self.port, "POST", f"/t/{self.table.code}/join/",
                           form={"token": self.table.tokens[self.seat], "csrfmiddlewaretoken": csrf},
                           headers={"Cookie": f"csrftoken={csrf}", "Origin": f"http://{HOST}:{self.port}",
                                    "Referer": f"http://{HOST}:{self.port}/t/{self.table.code}/join/"})
            stats.count(f"join {r.status}")
            if r.status != 302:
                return
            self.cookie = "; ".join([f"csrftoken={csrf}"] + [c.split(";")[0] for c in r.cookies])
        t0 = time.perf_counter()
        r = await http(self.port, "GET", f"/t/{self.table.code}/",
                       headers={"Cookie": self.cookie, "Accept-Language": self.table.lang,
                                "Accept-Encoding": "gzip"})
        stats.page_s.append(time.perf_counter() - t0)
        stats.count(f"page {r.status}")


class Table:
    def __init__(self, stats: Stats, data: dict[str, Any], lang: str, ports: list[int], index: int) -> None:
        self.stats, self.code, self.lang = stats, data["code"], lang
        self.game = data["game"]
        self.tokens = [s["token"] for s in sorted(data["seats"], key=lambda s: s["index"])]
        self.ports = ports
        self.phones = [Phone(self, s, ports[(index + s) % len(ports)]) for s in range(4)]
        self.version = 0
        self.posted: list[int] = []  # versions answered 200
        self.rng = random.Random(index)
        self.stuck = ""
        self.moves = 0
        self.taps = "post"  # or "socket": the acting phone sends its move on its own socket

    async def prompt(self, seat: int) -> dict[str, Any] | None:
        r = await http(self.phones[seat].port, "GET", f"/api/tables/{self.code}/prompt/",
                       headers={"Authorization": f"Bearer {self.tokens[seat]}"})
        self.stats.count(f"prompt {r.status}")
        return r.json() if r.status == 200 else None

    async def post(self, seat: int, action: dict, version: int) -> tuple[int, Any]:
        t0 = time.perf_counter()
        r = await http(self.phones[seat].port, "POST", f"/api/tables/{self.code}/actions/",
                       {"action": action, "version": version, "key": uuid.uuid4().hex},
                       headers={"Authorization": f"Bearer {self.tokens[seat]}"})
        self.stats.post_s.append(time.perf_counter() - t0)
        self.stats.count(f"post {r.status}")
        body = None
        with contextlib.suppress(ValueError):
            body = r.json()
        if r.status == 200:
            self.posted.append(body["version"])
        return r.status, body

    async def tap(self, seat: int, action: dict, version: int, dup: bool) -> int | None:
        """A socket tap (sent twice with one key when ``dup``: a resent tap, one move); the new version or ``None``."""
        phone = self.phones[seat]
        phone.refusal = asyncio.get_running_loop().create_future()
        message = json.dumps({"action": action, "version": version, "key": uuid.uuid4().hex})
        t0 = time.perf_counter()
        for _ in range(2 if dup else 1):
            await phone.ws.send(message)
        self.stats.post_s.append(time.perf_counter() - t0)
        moved = asyncio.gather(*(p.wait_for(version + 1) for p in self.phones))
        moved.add_done_callback(lambda f: f.cancelled() or f.exception())  # cancelled when refused: read it
        done, _ = await asyncio.wait({moved, phone.refusal}, timeout=20, return_when=asyncio.FIRST_COMPLETED)
        if moved in done:
            self.stats.count("tap applied")
            self.posted.append(version + 1)
            if dup:  # the resent copy must make no second move; a refusal of it is counted, not an error
                with contextlib.suppress(TimeoutError):
                    self.stats.count(f"resent tap refused {await asyncio.wait_for(phone.refusal, 0.5)}")
            return version + 1
        moved.cancel()
        if phone.refusal in done:
            self.stats.count(f"tap refused {phone.refusal.result()}")
        else:
            self.stats.count("tap unanswered")
            self.stats.note("socket tap answered by neither a push nor a refusal within 20 s")
        return None

    async def move(self, dup: bool) -> bool:
        """One move (``False`` when the table cannot move: finished, or no listed legal action)."""
        p0 = await self.prompt(0)
        if p0 is None:
            return False
        if p0["status"] != "playing":
            self.stuck = p0["status"]
            return False
        seats = p0["prompt"]["seats"]
        if not seats:
            self.stuck = "no seat to act"
            return False
        seat = seats[0]
        p = p0 if seat == 0 else await self.prompt(seat)
        if p is None:
            return False
        if not p["legal"]:
            self.stuck = f"no listed legal action at step {p['prompt'].get('step')}"
            return False
        action = self.rng.choice(p["legal"])["action"]
        version = p["version"]
        t0 = time.perf_counter()
        if self.taps == "socket":
            new = await self.tap(seat, action, version, dup)
            if new is None:
                return True
        elif dup:  # the same phone twice at once (a double tap on two connections): exactly one may land
            answers = await asyncio.gather(self.post(seat, action, version), self.post(seat, action, version))
            wins = [a for a in answers if a[0] == 200]
            if len(wins) != 1:
                self.stats.note(f"double post: {len(wins)} answered 200 ({[a[0] for a in answers]})")
            if not wins:
                return True
            new = wins[0][1]["version"]
        else:
            status, body = await self.post(seat, action, version)
            if status != 200:
                if status >= 500:
                    self.stats.note(f"POST {status}: {str(body)[:120]}")
                return True
            new = body["version"]
        self.moves += 1
        others = [ph.wait_for(new) for ph in self.phones if ph.seat != seat]
        try:
            done = await asyncio.wait_for(asyncio.gather(*others), 20)
            self.stats.push_s.append(max(done) - t0)
        except TimeoutError:
            self.stats.note("push not seen by every phone within 20 s")
        return True


async def bounded(coros: list, limit: int) -> list:
    sem = asyncio.Semaphore(limit)

    async def one(c):
        async with sem:
            return await c

    return await asyncio.gather(*(one(c) for c in coros), return_exceptions=True)


async def run(args: argparse.Namespace) -> None:
    ports = [int(p) for p in args.ports.split(",")]
    stats = Stats()
    rng = random.Random(7)
    tables: list[Table] = []
    bodies = []
    for i in range(args.tables):
        game = GAMES[i % len(GAMES)] if args.games == "mix" else args.games
        bodies.append((i, game, LANGS[(i // len(GAMES)) % len(LANGS)]))
    created = await bounded([http(ports[i % len(ports)], "POST", "/api/tables/",
                                  {"game": g, "seats": [{"name": n} for n in ("Ann", "Bob", "Cy", "Di")]})
                             for i, g, _ in bodies], 8)
    for (i, _g, lang), r in zip(bodies, created, strict=True):
        if isinstance(r, BaseException) or r.status != 201:
            stats.note(f"create failed {getattr(r, 'status', r)!r}")
            continue
        tables.append(Table(stats, r.json(), lang, ports, i))
        tables[-1].taps = args.taps
    t0 = time.perf_counter()
    res = await bounded([p.connect() for t in tables for p in t.phones], 32)
    for r in res:
        if isinstance(r, BaseException):
            stats.note(f"connect failed {type(r).__name__}")
    print(f"{len(tables)} tables, {4 * len(tables)} phones connected in {time.perf_counter() - t0:.1f} s", flush=True)

    stop = time.perf_counter() + args.seconds

    async def table_loop(t: Table) -> None:
        await asyncio.sleep(rng.random() * args.pace)
        n = 0
        while time.perf_counter() < stop:
            n += 1
            try:
                if not await t.move(dup=args.dup > 0 and n % args.dup == 0):
                    break
            except Exception as exc:  # noqa: BLE001 - counted, the run goes on
                stats.note(f"move raised {type(exc).__name__}")
            if rng.random() < args.reload:
                with contextlib.suppress(Exception):
                    await t.phones[rng.randrange(4)].reload()
            await asyncio.sleep(max(0.0, min(args.pace * (0.5 + rng.random()), stop - time.perf_counter())))

    async def storms() -> None:
        for frac in (1 / 3, 2 / 3):
            await asyncio.sleep(max(0.0, stop - args.seconds * (1 - frac) - time.perf_counter()))
            victims = [p for t in tables for p in t.phones if rng.random() < 0.5]
            t1 = time.perf_counter()
            await asyncio.gather(*(p.drop() for p in victims))
            res = await asyncio.gather(*(p.connect() for p in victims), return_exceptions=True)
            bad = [r for r in res if isinstance(r, BaseException)]
            stats.reconnect_s.append(time.perf_counter() - t1)
            print(f"storm: {len(victims)} sockets dropped and reopened in {time.perf_counter() - t1:.1f} s, "
                  f"{len(bad)} failed", flush=True)
            if bad:
                stats.note(f"storm reconnect failed {type(bad[0]).__name__}: {str(bad[0])[:80]}", len(bad))

    await asyncio.gather(storms(), *(table_loop(t) for t in tables))
    await asyncio.sleep(3)  # the last pushes land

    # -- checks ------------------------------------------------------------------------------------------
    found = {"lost": 0, "dup": 0, "behind": 0, "behind_after": 0, "no_socket": 0}

    async def check(t: Table) -> None:
        r = await http(t.ports[0], "GET", f"/api/tables/{t.code}/log/",
                       headers={"Authorization": f"Bearer {t.tokens[0]}"})
        log = [row for row in r.json()["log"] if row["seq"] > 0]
        seqs = [row["seq"] for row in log]
        info = (await http(t.ports[0], "GET", f"/api/tables/{t.code}/")).json()
        if len(set(t.posted)) != len(t.posted):
            found["dup"] += 1
            stats.note(f"{t.code}: two 200 answers for one version")
        if len(seqs) != len(set(seqs)) or sorted(seqs) != list(range(1, len(seqs) + 1)):
            stats.note(f"{t.code}: log sequence not 1..N: {seqs[:20]}")
        if info["version"] != (max(t.posted) if t.posted else 0):
            found["lost"] += 1
            stats.note(f"{t.code}: table version {info['version']}, last 200 answer {max(t.posted, default=0)}")
        late = [p for p in t.phones if p.version < info["version"]]
        if late:
            found["behind"] += len(late)
            for p in late:  # a phone that missed a push asks for a resync: a heartbeat naming a frame its socket never sent
                with contextlib.suppress(Exception):
                    await p.ws.send('{"frame": "resync"}')
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(p.wait_for(info["version"]) for p in late)), 10)
            found["behind_after"] += sum(p.version < info["version"] for p in late)
            # A phone whose socket never opened (connect refused or timed out) cannot hear a push nor ask again.
            found["no_socket"] += sum(p.version < info["version"] and (p.ws is None or p.ws.close_code is not None)
                                      for p in late)
        if t.stuck:
            stats.note(f"{t.game}: stopped ({t.stuck})")

    for r in await bounded([check(t) for t in tables], 16):  # checked side by side: 200 tables end in seconds
        if isinstance(r, BaseException):
            stats.note(f"check raised {type(r).__name__}")
    lost, dup, behind, behind_after = found["lost"], found["dup"], found["behind"], found["behind_after"]
    await bounded([p.drop() for t in tables for p in t.phones], 64)

    def ms(v: float | None) -> str:
        return "-" if v is None else f"{1000 * v:.0f}"

    moves = sum(t.moves for t in tables)
    print(f"moves landed {moves} in {args.seconds:.0f} s ({moves / args.seconds:.1f}/s); frames {stats.frames} "
          f"({stats.frame_bytes / max(stats.frames, 1):.0f} B mean)")
    print(f"{'tap sent' if args.taps == 'socket' else 'POST'} p50 {ms(pct(stats.post_s, .5))} "
          f"p99 {ms(pct(stats.post_s, .99))} ms; "
          f"move->all phones p50 {ms(pct(stats.push_s, .5))} p99 {ms(pct(stats.push_s, .99))} ms; "
          f"page p50 {ms(pct(stats.page_s, .5))} p99 {ms(pct(stats.page_s, .99))} ms (n={len(stats.page_s)})")
    print(f"answers: {json.dumps(dict(sorted(stats.status.items())))}")
    print(f"tables whose version differs from the last 200: {lost}; with two 200s for a version: {dup}; "
          f"phones behind at the end: {behind}, still behind after a resync message: {behind_after} "
          f"(of which without an open socket: {found['no_socket']})")
    for k, v in sorted(stats.notes.items(), key=lambda kv: -kv[1]):
        print(f"  {v:5d}  {k}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ports", required=True, help="comma-separated ports of servers on 127.0.0.1")
    p.add_argument("--tables", type=int, default=40)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--pace", type=float, default=2.0, help="seconds between a table's moves (about)")
    p.add_argument("--dup", type=int, default=7, help="every N-th move is posted twice at once (0: never)")
    p.add_argument("--reload", type=float, default=0.15, help="chance of a page reload after each move")
    p.add_argument("--games", default="mix", help="mix, or one game slug")
    p.add_argument("--taps", default="post", choices=["post", "socket"],
                   help="post: POST .../actions/; socket: the acting phone's own socket (a --dup move is the same"
                        " message sent twice, one key: a resent tap must make one move)")
    args = p.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
