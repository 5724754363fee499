"""Door probes for the secrecy suite (DESIGN.md "Pages and sync": secrets stay on their owner's phone).

Two kinds of probe, both run for one seat (the *viewer*) at a live table:

- **Twin probes** (non-interference). For each other seat, a *twin* of the
  table's state changes only that seat's hidden values (a tile or card
  swapped between their hand and the bag or deck, screened points, a sealed
  offering) and is checked to give the viewer the very same engine view.
  Every snapshot door is then read with the real state and with the twin
  (the phone page and its fragment, the API view, prompt and log, the
  refusals of deliberately illegal actions): any difference is a leak,
  whatever form it takes, since the viewer could tell the two apart.
- **Marker probes**. Doors built from the log (log lines, the fix-move page,
  correction refusals) cannot be twinned by editing the snapshot, so they are
  searched for the owner's own rendering of each hidden outcome (the log line
  a seat reads for their own draw, e.g. "You drew red, blue"): found in
  another seat's door, it is a leak.

Writes made while probing (an illegal action that turns out legal, a
correction proposal) are rolled back with a savepoint, so probing never
changes the game. A rolled-back write's revision is used again by the next
real write, so the read model forgets what it read meanwhile (:func:`roll_back`).
"""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F
from django.test import Client

from games.engines.base import IllegalAction
from games.models import Action, Table
from games.pages.history import LOOKED_COOKIE
from games.read import snapshots
from games.read.presenters import error_message, tr
from games.record.audit import effective_actions, replay_rows
from games.write.corrections import confirm_correction, correction_choices, propose_correction
from tests.conftest import phone_for
from tests.registry import GAMES, examples

# -- twins: one other seat's hidden values changed, the viewer's view unchanged ---------------------------


#: Per game with hidden values, how to change one other seat's hidden values only (a game's secrets are
#: its own rules: ``twin`` in its ``examples.py``; tests/secrecy/test_secrecy_suite.py fails for a registered game
#: with secrets and no twin).
TWINS: dict[str, Callable[[Any, Any, int], Any]] = {
    slug: examples(slug).twin for slug in GAMES if hasattr(examples(slug), "twin")
}


def has_hidden_values(slug: str) -> bool:
    """Whether game ``slug``'s seats see something the table does not (``view["private"]``) in a game played at
    random from its default options: such a game needs a twin here and a case in every secrecy suite."""
    from games.engines import get_game_class
    from games.engines.base import SeatInfo
    from games.engines.chance import table_rng

    cls = get_game_class(slug)
    game = cls({}, [SeatInfo(i, f"P{i}", cls.colours[i]) for i in range(cls.min_seats)])
    state, chooser = game.setup(table_rng(1, 0)), random.Random(1)
    for step in range(1, 200):
        if game.result(state) is not None:
            return False
        if any(game.view(state, s).get("private") for s in range(len(game.seats))):
            return True
        seat = game.prompt(state).seats[0]
        action = chooser.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, game.fill_chance(state, seat, action, table_rng(1, step)))
    return False


# -- reading the doors --------------------------------------------------------------------------------

_VOLATILE = [
    re.compile(r'(csrfmiddlewaretoken"?\s+value=")[^"]*'),
    re.compile(r'(name="csrf-token"\s+content=")[^"]*'),
    re.compile(r'("X-CSRFToken"\s*:\s*")[^"]*'),
    re.compile(r"(csrftoken=)[^;\"'&]*"),
]


def normalise(text: str) -> str:
    """The response text without what changes per request (CSRF tokens)."""
    for pattern in _VOLATILE:
        text = pattern.sub(r"\1-", text)
    return text


def readable(text: str) -> str:
    """Text as a person reads it: HTML entities and JSON escapes undone, so markers match every rendering."""
    text = html.unescape(text)
    try:
        text = json.dumps(json.loads(text), ensure_ascii=False)
    except ValueError:
        pass
    return text


@dataclass
class Figures:
    """What a run probed: doors read, comparisons and searches made, leaks found (with where)."""

    probes: int = 0
    leaks: list[str] = field(default_factory=list)
    twins: int = 0
    steps: int = 0

    def check(self, ok: bool, where: str) -> None:
        self.probes += 1
        if not ok:
            self.leaks.append(where)


class Doors:
    """Every door of one table for one seat: phone page and fragment, API view/prompt/log/actions, fix page."""

    def __init__(self, table: Table, viewer: int) -> None:
        self.table = table
        self.viewer = viewer
        self.phone = phone_for(table, viewer)
        seat = table.seats.get(index=viewer)
        self.api = Client(HTTP_AUTHORIZATION=f"Bearer {seat.token}")
        # The viewer's phone and the API are two devices holding one seat: the first bearer read is logged
        # ("opened on another phone"); read once here so that line is there before any door is compared.
        self.api.get(f"/api/tables/{table.code}/view/")

    def snapshot_doors(self) -> dict[str, str]:
        """The doors that render the table's snapshot (and the log), read once."""
        code = self.table.code
        return {
            "page": self.phone.get(f"/t/{code}/").content.decode(),
            "fragment": self.phone.get(f"/t/{code}/fragment/").content.decode(),
            "api view": self.api.get(f"/api/tables/{code}/view/").content.decode(),
            "api prompt": self.api.get(f"/api/tables/{code}/prompt/").content.decode(),
            "api log": self.api.get(f"/api/tables/{code}/log/").content.decode(),
            # The doors of the table's other pages: the table screen (its draw statistics), the public table answer, the
            # timeline and a replay step of a table still played, its exports (refused), who starts and undo-my-move.
            "screen": Client().get(f"/t/{code}/screen/").content.decode(),
            "api table": Client().get(f"/api/tables/{code}/").content.decode(),
            "history": self._first_look(f"/t/{code}/history/"),
            "replay": self.phone.get(f"/t/{code}/history/replay/?step=1").content.decode(),
            "export": self.phone.get(f"/t/{code}/export.json").content.decode()
            + self.api.get(f"/api/tables/{code}/export.csv").content.decode(),
            "undo mine": self._rolled_back(f"/api/tables/{code}/undo-mine/", {"key": ""}),
            "start": self._rolled_back(f"/api/tables/{code}/start/", {"seat": 1, "key": ""}),
        }

    def _first_look(self, path: str) -> str:
        """The timeline as this phone's first look reads it: each read moves the phone's last look on (a cookie),
        so two reads of one position would differ in what they mark as new (tests/secrecy/test_timeline.py
        compares the marks between twins)."""
        self.phone.cookies.pop(LOOKED_COOKIE, None)
        return self.phone.get(path).content.decode()

    def _rolled_back(self, path: str, body: dict[str, Any]) -> str:
        """The API's answer to one write of the viewer at the current version, rolled back if it was taken."""
        self.table.refresh_from_db()
        sid = transaction.savepoint_create()
        try:
            answer = self.api.post(path, {**body, "version": self.table.version}, content_type="application/json")
            return f"{answer.status_code} {answer.content.decode()}"
        finally:
            roll_back(sid)

    def refusal(self, action: dict[str, Any]) -> str:
        """The API's answer to ``action`` posted by the viewer, rolled back if it was accepted after all."""
        self.table.refresh_from_db()
        sid = transaction.savepoint_create()
        try:
            answer = self.api.post(f"/api/tables/{self.table.code}/actions/",
                                   {"action": action, "version": self.table.version}, content_type="application/json")
            return f"{answer.status_code} {answer.content.decode()}"
        finally:
            roll_back(sid)

    def fix_page(self, seq: int) -> str:
        """The fix-move page of log row ``seq`` (the choice list, shown to the mover only)."""
        return self.phone.get(f"/t/{self.table.code}/corrections/fix/{seq}/").content.decode()

    def proposal_answer(self, target: int, replacement: dict[str, Any] | None) -> str:
        """The viewer proposes a correction through the page; the answer page (its message), rolled back."""
        sid = transaction.savepoint_create()
        try:
            data = {"target": str(target), "replacement": json.dumps(replacement) if replacement else ""}
            answer = self.phone.post(f"/t/{self.table.code}/corrections/", data, follow=True)
            return answer.content.decode()
        finally:
            roll_back(sid)


def roll_back(sid: str) -> None:
    """Roll back to savepoint ``sid`` and forget the snapshots read since: their revisions never committed."""
    transaction.savepoint_rollback(sid)
    snapshots.clear()


def with_state(table: Table, state_json: dict[str, Any], read: Callable[[], Any]) -> Any:
    """Run ``read`` while the table's snapshot is ``state_json`` (version unchanged), then put the real one back.

    ``revision`` moves with each swap: phones read a table through the snapshot of its revision
    (games/read/snapshots.py), so a swap that kept the revision would show the real state again.
    """
    real = Table.objects.get(id=table.id).state
    Table.objects.filter(id=table.id).update(state=state_json, revision=F("revision") + 1)
    try:
        return read()
    finally:
        Table.objects.filter(id=table.id).update(state=real, revision=F("revision") + 1)


def is_outcome(game: Any, action: dict[str, Any]) -> bool:
    """True for a payload that carries a chance outcome (a physical draw, roll or revealed tile)."""
    return any(k in action for k in game.chance_fields.get(action.get("kind"), ()))


def illegal_actions(game: Any, state: Any, viewer: int) -> list[dict[str, Any]]:
    """Deliberately illegal actions for ``viewer``: a prompted seat's moves, and listed outcomes the truth refuses.

    Another seat's moves are refused (not the viewer's turn, or not the
    viewer's pieces); in physical mode, a listed outcome the real bag or
    deck cannot give is refused too: no refusal may differ
    between the state and its twin.
    """
    out: list[dict[str, Any]] = []
    for other in game.prompt(state).seats:
        if other != viewer:
            out += game.legal_actions(state, other)[:2]
    if game.physical:
        refused = []
        for action in game.legal_actions(state, viewer):
            if is_outcome(game, action):
                try:
                    game.apply(state, viewer, action)
                except IllegalAction:
                    refused.append(action)
        out += refused[:3]
    return out


def owner_markers(table: Table, game: Any, viewer: int) -> list[str]:
    """How each other seat reads its own hidden outcomes in the log: text the viewer must never be shown."""
    markers, shown = [], set()
    for row in table.actions.filter(kind=Action.Kind.GAME).order_by("seq"):
        seen = game.describe(row.seat, row.payload, viewer)
        shown.add(str(tr(seen.text, seen.details)))
        if row.seat == viewer:
            continue
        own = game.describe(row.seat, row.payload, row.seat)
        if own.private and tr(own.text, own.details) != tr(seen.text, seen.details):
            markers.append(str(tr(own.text, own.details)))
    # A marker the viewer reads anyway (its own "You offer 0 gold.") tells nothing: not distinctive.
    return [m for m in markers if m not in shown]


def probe_step(table: Table, viewer: int, doors: Doors, figures: Figures, label: str) -> None:
    """Probe every door of ``viewer`` once, against a twin for each other seat and for the log's markers."""
    table.refresh_from_db()
    game = table.game()
    state = game.decode(table.state)
    real = {k: normalise(v) for k, v in doors.snapshot_doors().items()}
    illegal = illegal_actions(game, state, viewer)
    refusals = [normalise(doors.refusal(a)) for a in illegal]
    make_twin = TWINS.get(table.slug)
    for other in range(len(game.seats)):
        if other == viewer or make_twin is None:
            continue
        if game.result(state) is not None:
            continue  # the final tally shows every hand: nothing is hidden any more
        twin = make_twin(game, state, other)
        if twin is None or twin == state:
            continue
        figures.twins += 1
        figures.check(game.view(twin, viewer) == game.view(state, viewer),
                      f"{label}: the engine view depends on seat {other}'s hidden values")
        seen = with_state(table, game.encode(twin), doors.snapshot_doors)
        for name, text in seen.items():
            figures.check(normalise(text) == real[name], f"{label}: {name} depends on seat {other}'s hidden values")
        twin_refusals = with_state(table, game.encode(twin), lambda: [normalise(doors.refusal(a)) for a in illegal])
        for action, a, b in zip(illegal, refusals, twin_refusals, strict=True):
            if is_outcome(game, action) and a[:1] != b[:1]:
                # A typed-in outcome the hidden truth rules out is refused, one it allows is taken: that is
                # the table-truth discrepancy the refusal exists for; its words are engine-tested,
                # and every such refusal is a public line (refused_entry_probe below, and test_refused_entries).
                continue
            figures.check(a == b, f"{label}: refusal of {action} depends on seat {other}'s hidden values")
    markers = owner_markers(table, game, viewer)
    counted = effective_actions(list(table.actions.order_by("seq")))
    texts = {name: readable(text) for name, text in real.items()}
    mine = [row.seq for row in counted if row.seat == viewer][-1:]
    theirs = [row.seq for row in counted if row.seat != viewer][-1:]
    for seq in mine + theirs:
        texts[f"fix page #{seq}"] = readable(doors.fix_page(seq))
    for name, text in texts.items():
        for marker in markers:
            figures.check(marker not in text, f"{label}: {name} shows another seat's own line {marker!r}")
    open_correction_probe(table, game, viewer, doors, figures, label, counted)
    refused_entry_probe(table, viewer, figures, label)
    figures.steps += 1


def open_correction_probe(table: Table, game: Any, viewer: int, doors: Doors, figures: Figures, label: str,
                          counted: list[Action]) -> None:
    """Another seat proposes to change its own latest hidden move: the viewer's confirm card must not show it.

    The proposal waits on the viewer's phone (page and fragment) for a yes or
    no; its text is the move as the viewer may read it, never as its owner
    reads it ("Bob drew red, red" is Bob's alone). Rolled back afterwards.
    """
    for other in range(len(game.seats)):
        theirs = [row for row in counted if row.seat == other and other != viewer]
        if not theirs:
            continue
        target = theirs[-1]
        try:
            _seat, _original, alternatives = correction_choices(table, target.seq)
        except IllegalAction:
            continue
        for alternative in alternatives[:3]:
            own = game.describe(other, alternative, other)
            seen = game.describe(other, alternative, viewer)
            marker = str(tr(own.text, own.details))
            if not own.private or marker == str(tr(seen.text, seen.details)):
                continue
            doors_at = (("page", f"/t/{table.code}/"), ("fragment", f"/t/{table.code}/fragment/"))
            # The viewer's own log may read the same words ("You drew a 1." of its own draw): only a copy
            # the proposal adds is a leak.
            before = {name: readable(doors.phone.get(url).content.decode()).count(marker) for name, url in doors_at}
            sid = transaction.savepoint_create()
            try:
                propose_correction(table.code, other, target.seq, alternative)
                for name, url in doors_at:
                    text = readable(doors.phone.get(url).content.decode())
                    figures.check(text.count(marker) <= before[name],
                                  f"{label}: seat {other}'s open correction shows {marker!r} on the {name}")
                return
            except IllegalAction:
                continue  # this change no longer fits the later moves: try another
            finally:
                roll_back(sid)


def correction_refusal_probe(table: Table, viewer: int, doors: Doors, figures: Figures, label: str) -> None:
    """The viewer proposes to drop or change its own latest move; a refusal must not quote another seat's rule.

    When the change makes a later move of another seat illegal, the answer may
    say "move #N no longer fits", never the rule that move broke: that rule is
    about the other seat's hidden hand or offering.
    """
    table.refresh_from_db()
    rows = list(table.actions.order_by("seq"))
    counted = effective_actions(rows)
    mine = [row for row in counted if row.seat == viewer]
    if not mine:
        return
    target = mine[-1]
    try:
        _seat, _original, alternatives = correction_choices(table, target.seq)
    except IllegalAction:
        alternatives = []
    game = table.game()
    for replacement in [None, *alternatives[:2]]:
        # Which later move the change breaks, and the rule it breaks: from the replay itself, whatever words
        # the correction commands choose to answer with.
        probe = [*rows, Action(table_id=table.id, seq=0, kind=Action.Kind.CORRECT,
                               payload={"target": target.seq, "replacement": replacement}, version=0)]
        try:
            replay_rows(table, game, probe)
            continue
        except IllegalAction as exc:
            cause = exc.__cause__ if isinstance(exc.__cause__, IllegalAction) else None
            conflict = exc.details.get("seq")
        mover = next((row.seat for row in rows if row.seq == conflict), viewer)
        if cause is None or mover == viewer:
            continue
        page = readable(doors.proposal_answer(target.seq, replacement))
        figures.check(str(error_message(cause)) not in page,
                      f"{label}: a correction refusal quotes seat {mover}'s rule at move #{conflict}: "
                      f"{error_message(cause)!r}")


def refused_entry_probe(table: Table, viewer: int, figures: Figures, label: str) -> None:
    """The viewer types in listed outcomes the real bag or pile refuses: each refusal must be public, yet empty.

    A refused physical entry of an outcome the viewer cannot rule
    out tells the viewer something about the others' hands. Each refusal
    must leave exactly one new log line on another seat's phone, on the API
    log read without a seat and on the table screen, naming the viewer and
    nothing of what was typed in (the line is the same whichever refused
    outcome was entered). Every probe is rolled back.
    """
    table.refresh_from_db()
    game = table.game()
    state = game.decode(table.state)
    if not game.physical or viewer not in game.prompt(state).seats:
        return
    refused = []
    for action in game.legal_actions(state, viewer):
        if not is_outcome(game, action):
            continue
        try:
            game.apply(state, viewer, action)
        except IllegalAction as exc:
            if game.refusal_is_hidden(exc):
                refused.append(action)
    other = next(i for i in range(len(game.seats)) if i != viewer)
    code = table.code
    readers = {
        "another seat's api log": Client(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=other).token}"),
        "the public api log": Client(),
    }
    api = Client(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=viewer).token}")
    texts: set[str] = set()
    for action in refused[:4]:
        sid = transaction.savepoint_create()
        try:
            before = {name: {line["seq"] for line in reader.get(f"/api/tables/{code}/log/").json()["log"]}
                      for name, reader in readers.items()}
            table.refresh_from_db()
            answer = api.post(f"/api/tables/{code}/actions/", {"action": action, "version": table.version},
                              content_type="application/json")
            figures.check(answer.status_code == 400, f"{label}: {action} was not refused ({answer.status_code})")
            for name, reader in readers.items():
                lines = [line for line in reader.get(f"/api/tables/{code}/log/").json()["log"]
                         if line["seq"] not in before[name]]
                figures.check(len(lines) == 1 and lines[0]["kind"] == "refused" and lines[0]["seat"] == viewer,
                              f"{label}: the refusal of {action} left no public line on {name}: {lines}")
                texts.update(line["text"] for line in lines)
            screen = readable(Client().get(f"/t/{code}/screen/").content.decode())
            figures.check(all(text in screen for text in texts), f"{label}: the table screen misses {texts}")
        finally:
            roll_back(sid)
    figures.check(len(texts) <= 1, f"{label}: the public line differs between refused entries: {sorted(texts)}")


def reopened_seed_probe(table: Table, viewer: int, figures: Figures, label: str) -> None:
    """Once the game is over the seed is public: no write may make the game playable again with that seed.

    The viewer reads the revealed seed from the public table answer; then the
    host undoes the last move, and (another try) the viewer proposes to drop
    it and every other seat confirms. Where the seed drew anything, the
    table must stay over: otherwise the viewer could work out every hidden
    hand and each draw to come from the seed (``check_draws``). Rolled back.
    """
    code = table.code
    seed = Client().get(f"/api/tables/{code}/").json()["draws"]["seed"]
    figures.check(seed is not None, f"{label}: the seed is not revealed at the end")
    table.refresh_from_db()
    host = Client(HTTP_X_HOST_TOKEN=table.host_token)
    attempts = {
        "the host's undo": lambda: host.post(f"/api/tables/{code}/undo/", {"version": table.version},
                                             content_type="application/json"),
    }

    def agreed_correction() -> None:
        last = effective_actions(list(table.actions.order_by("seq")))[-1]
        try:
            correction = propose_correction(code, viewer, last.seq, None)
        except IllegalAction:
            return  # refused at once (a draw the app made stays drawn): nothing to reopen
        for other in range(table.seats.count()):
            if other != viewer:
                try:
                    confirm_correction(code, correction.id, other)
                except IllegalAction:
                    pass  # told to the confirming seat; what counts is whether the game reopened

    attempts["an agreed correction"] = agreed_correction
    for name, attempt in attempts.items():
        sid = transaction.savepoint_create()
        try:
            attempt()
            after = Client().get(f"/api/tables/{code}/").json()
            figures.check(after["status"] != "playing",
                          f"{label}: {name} reopened the game although its seed {seed} is public")
        finally:
            roll_back(sid)
