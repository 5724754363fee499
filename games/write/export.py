"""A finished game as a file: JSON (public log and result), CSV, the BG Stats link, and import.

The JSON holds only what the table screen may read once the game is over:
the game, options, seats (names, colours, teams), the published commitment,
the revealed seed and how the table keyed its draws (``draws.keys``,
``Table.draw_keys``; a file without it is of a table keyed by log row), each counted move (with its log line as English
text), every component switch and who-starts decision (``start`` rows, with
any cards turned up for it), and the final result. Never a seat
or host secret, never the opening deal (a hidden hand: it follows from the
seed) and never a move's private fields: a move whose owner's log line is
private (a Yellow & Yangtze draw or swap, a Sorry! points draw, an Amun-Re
offering) is *sealed*: the file keeps its kind, its public log line and
``sealed = HMAC-SHA256(table key, "<seq>:<payload as canonical JSON>")``.
Every move also carries ``after``, the SHA-256 of the public view after it.

The table key (:func:`seal_key`) is ``salted_hmac`` of the table's code and
seed under this server's ``SECRET_KEY`` with the salt :data:`SEAL_SALT`; the
file never holds it. A plain hash of the payload would not do: the seed is
revealed in the file and a private move has few possible values (eleven
Sorry! cards), so anyone holding the file could hash every guess and open a
hand entered by hand in physical mode or a Yellow & Yangtze swap, which no
view shows even at the end. ``seal`` (:func:`seal_check`, an HMAC of a
constant under the same key) lets an import tell a file of this server from
one of another server, or from before a key change, without a guess.

The whole file is sealed too: ``file_seal`` (:func:`file_seal`) is
``HMAC-SHA256(table key, canonical JSON of the file without file_seal)``.
Sealing each private move is not enough: the replay of an *edited* file
opens the sealed moves and then checks the edited public move against the
hidden hand, so whether it is refused as illegal, or only for the position
it leaves, or at which later move (the ``after`` digests can be recomputed
by anyone), would tell whether the seat held a card, to anyone who may
import (no seat needed, and a finished table's export is public). So an
import of a file holding any sealed move checks ``file_seal`` first, before
any replay, and refuses every changed file with the one answer
``IllegalAction("import_changed")``, whatever was changed. A file with no
sealed move is not checked (it imports on any server, edited or not): its
replay meets nothing hidden, and a private move written out in it is refused
as such before it is played. The three HMAC messages cannot collide: a
sealed move's starts with a digit, the seal check is a constant starting
with a letter, the file's starts with ``{``.

``created_at`` and ``finished_at`` are the times the game started and finished, as the table stored them
when they happened (``Table.started_at``, ``Table.finished_at``); the file of an imported copy holds the
original's, and ``copy_of``, the original's play id.

Format version 3 (this one). Version 2 files sealed the moves but not the
whole file: one holding sealed moves cannot be checked against changes and is
refused (``bad_import``, "export the table again") without a replay; one
with no sealed move imports as before. Version 1 files hashed sealed moves in
the open and are refused (``bad_import``), as is any other version.

:func:`import_export` rebuilds the table read-only (``Table.imported``): it
deals the opening from the seed, replays every move (a sealed move is found
again among the seat's legal moves, chance filled from the seed or spelled
out, by its digest), checks each ``after`` digest and the final result, and
re-derives every digital draw (``check_draws``). The first move that
does not fit is named in the refusal (``IllegalAction("import_diverges")``).
A file with sealed moves whose ``seal`` no key of this server gives
(``SECRET_KEY`` or one of ``SECRET_KEY_FALLBACKS``) was sealed by another
server: its private moves cannot be checked here, and it is refused
(``IllegalAction("import_sealed_elsewhere")``) before anything is written.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import hmac
import io
import json
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.dateparse import parse_datetime

from games.engines import REGISTRY, get_adapter, get_game_class
from games.engines.base import START_RULES, Game, IllegalAction, fill, gettext_noop
from games.engines.chance import DRAW_KEYS, SEQ_KEYS, draw_rng
from games.models import Action, Table, seed_commitment
from games.record.audit import check_draws, effective_actions, holds_draw, initial_mode, opening_state
from games.write.pregame import create_table
from games.write.write_path import prompt_key

FORMAT = "companion-export"
FORMAT_VERSION = 3  # 3: the whole file is sealed as well; 2: only the sealed moves (1 hashed them in the open)
MOVES_ONLY_VERSION = 2  # imported only when it holds no sealed move: nothing in it says whether it was changed
COPY_OF = "copy_of"  # in the file of an imported copy: the play id of the game it copies (BG Stats' sourcePlayId)
FILE_SEAL = "file_seal"  # the field of the whole file's HMAC (the one field it does not cover)
SEAL_SALT = "games.write.export.sealed-move"  # names the purpose of the key, apart from every other use of SECRET_KEY
SEAL_CHECK = b"companion-export-seal-check"
MAX_IMPORT_BYTES = settings.IMPORT_MAX_BYTES  # 2 MiB by default; a long game is ~300 KB
MAX_IMPORT_DEPTH = 20  # options nest like an edition profile (16, games/pages/edition_views.py) inside 4 levels
MAX_MOVES = 20000
BGSTATS_URL = "https://app.bgstatsapp.com/createPlay.html?data="  # BG Stats' documented push of one play


def canonical(value: Any) -> str:
    """``value`` as canonical JSON text (sorted keys, no spaces): what the digests hash."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def seal_key(code: str, seed: int, secret: str | bytes | None = None) -> bytes:
    """The table's sealing key (32 bytes): ``salted_hmac(SEAL_SALT, "<code>:<seed>")`` under ``secret``
    (default ``settings.SECRET_KEY``). Never written to a file: without the server's secret, a sealed
    digest cannot be recomputed, so a reader of the file cannot test guesses of a private move."""
    return salted_hmac(SEAL_SALT, f"{code}:{seed}", secret=secret, algorithm="sha256").digest()


def sealed_digest(key: bytes, seq: int, payload: Mapping[str, Any]) -> str:
    """``HMAC-SHA256(key, "<seq>:<canonical payload>")`` in hex: a sealed move's fingerprint (key: :func:`seal_key`)."""
    return hmac.new(key, f"{seq}:{canonical(payload)}".encode(), hashlib.sha256).hexdigest()


def seal_check(key: bytes) -> str:
    """HMAC-SHA256 of a constant under ``key`` in hex: tells which server key sealed a file, says nothing of a move."""
    return hmac.new(key, SEAL_CHECK, hashlib.sha256).hexdigest()


def file_seal(key: bytes, data: Mapping[str, Any]) -> str:
    """HMAC-SHA256 under ``key`` (:func:`seal_key`) of the export document ``data`` as canonical JSON, every field but
    ``file_seal`` itself, in hex. ``data`` is the document as JSON reads it back (string keys, lists); text the
    file may hold that UTF-8 cannot encode (a lone surrogate escaped in JSON) is hashed as it came."""
    return _file_seal(key, _file_message(data))


def _file_message(data: Mapping[str, Any]) -> bytes:
    body = {name: value for name, value in data.items() if name != FILE_SEAL}
    return canonical(body).encode("utf-8", "surrogatepass")


def _file_seal(key: bytes, message: bytes) -> str:
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def _import_key(code: str, seed: int, check: str) -> bytes | None:
    """The key of this server (``SECRET_KEY``, then each of ``SECRET_KEY_FALLBACKS``) whose check is ``check``."""
    for secret in _secrets():
        key = seal_key(code, seed, secret)
        if _same_hex(seal_check(key), check):
            return key
    return None


def _secrets() -> list[str | bytes]:
    """This server's keys, newest first: ``SECRET_KEY``, then each of ``SECRET_KEY_FALLBACKS``."""
    return [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]


def _same_hex(digest: str, given: Any) -> bool:
    """True when ``given`` (from a file: any JSON value) is the hex ``digest``, compared in constant time."""
    return isinstance(given, str) and given.isascii() and hmac.compare_digest(digest, given)


def view_digest(game: Game, state: Any) -> str:
    """The SHA-256 of the public view (``game.view(state, None)``) as canonical JSON."""
    return _sha(canonical(game.view(state, None)))


class NotFinished(Exception):
    """Only a finished game can be exported (HTTP 409, code ``not_finished``)."""

    code = "not_finished"
    message = "Only a finished game can be exported: this one is still being played or was ended by the host."


#: The log rows besides counted moves that a replay needs: component switches and who-starts decisions.
REPLAYED_KINDS = (Action.Kind.OPTIONS, Action.Kind.START)


def _counted_rows(table: Table) -> tuple[list[Action], list[Action]]:
    """All log rows in order, and the exported ones in log order: counted game moves (as corrected), component
    switches (``options``) and every who-starts decision (``start``, the last one naming a seat counts)."""
    rows = list(table.actions.order_by("seq"))
    counted = effective_actions(rows)
    by_seq = {row.seq: row for row in counted}
    out = [by_seq.get(row.seq, row) for row in rows
           if row.seq in by_seq or row.kind in REPLAYED_KINDS]
    return rows, out


def _opening_options(table: Table, rows: list[Action]) -> dict[str, Any]:
    options = dict(table.options)
    if "components" in options:
        options["components"] = initial_mode(table, rows)
    return options


def is_sealed(game: Game, seat: int | None, payload: Mapping[str, Any]) -> bool:
    """True when the move's own log line is private: its fields say something only its owner may read."""
    if seat is None:
        return False
    return bool(game.describe(seat, payload, seat).private)


def build_export(table: Table) -> dict[str, Any]:
    """The export document of a finished table (shape in the module docstring), as JSON reads it back (string
    keys, lists), ``file_seal`` last; :class:`NotFinished` otherwise."""
    if table.status != Table.Status.FINISHED:
        raise NotFinished()
    game = table.game()
    rows, moves = _counted_rows(table)
    state = opening_state(table, game, rows)
    key = seal_key(table.code, table.seed)
    out_moves = []
    for row in moves:
        if row.kind in REPLAYED_KINDS:  # public: which mode, who starts (and the start cards turned up)
            out_moves.append({"seq": row.seq, "kind": str(row.kind), "payload": dict(row.payload)})
            continue
        state = game.apply(state, row.seat, row.payload)
        line = game.describe(row.seat, row.payload, None)
        entry: dict[str, Any] = {"seq": row.seq, "kind": "game", "seat": row.seat,
                                 "line": fill(line.text, line.details)}
        if is_sealed(game, row.seat, row.payload):
            entry["payload"] = {"kind": row.payload.get("kind")}
            entry["sealed"] = sealed_digest(key, row.seq, row.payload)
        else:
            entry["payload"] = dict(row.payload)
        entry["after"] = view_digest(game, state)
        out_moves.append(entry)
    result = game.result(state)
    document = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "game": {"slug": table.slug, "title": table.title},
        "code": table.code,
        "created_at": table.started_at.isoformat(),
        "finished_at": (table.finished_at or table.started_at).isoformat(),
        "options": dict(table.options),
        "opening_options": _opening_options(table, rows),
        "seats": [{"index": s.index, "name": s.name, "colour": s.colour, "team": s.team}
                  for s in table.seats.order_by("index")],
        "draws": {"commitment": table.seed_commitment, "seed": str(table.seed), "keys": table.draw_keys},
        "seal": seal_check(key),
        "moves": out_moves,
        "result": result,
    }
    if table.copy_of:
        document[COPY_OF] = table.copy_of
    # Sealed as JSON reads it back (an int key of a result becomes text), so the file checks as it is written.
    document = json.loads(json.dumps(document, ensure_ascii=False))
    document[FILE_SEAL] = file_seal(key, document)
    return document


# -- CSV ----------------------------------------------------------------------------------------


def _flatten(value: Any, prefix: str) -> dict[str, Any]:
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key in value:
            out.update(_flatten(value[key], f"{prefix}.{key}" if prefix else str(key)))
        return out
    if isinstance(value, (list, tuple)):
        return {prefix: " ".join(str(v) for v in value)}
    return {prefix: value}


FIXED_COLUMNS = ("seat", "name", "colour", "rank", "winner", "score")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may read as the start of a formula


def csv_cell(value: Any) -> Any:
    """``value`` as a CSV cell no spreadsheet runs as a formula (OWASP, CSV injection).

    Text that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
    return gets a leading single quote (``=HYPERLINK(...)`` becomes
    ``'=HYPERLINK(...)``), so it is shown as the text it is. Numbers
    (``int``, ``float``, not ``bool``) stay numbers: a negative score is
    written ``-3`` and a spreadsheet reads it as the number -3. Every other
    value is written as its text, neutralised the same way.
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if value is None:
        return ""
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def result_rows(table: Table, result: Mapping[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """``(columns, rows)``: one row per player (seat order) with seat (1-based), name, colour, team (1-based,
    only in a game played in teams: :meth:`Game.seat_teams`), rank, winner, score and every further score
    component of the game's ranking (nested ones as ``totals.red``)."""
    seats = {s.index: s for s in table.seats.all()}
    teams = table.game().seat_teams()
    winners = set(result.get("winners", []))
    extra: list[str] = []
    rows = []
    for entry in sorted(result.get("ranking", []), key=lambda r: r["seat"]):
        seat = seats[entry["seat"]]
        components = _flatten({k: v for k, v in entry.items() if k not in ("seat", "place", "rank", "score")}, "")
        for key in components:
            if key not in extra:
                extra.append(key)
        rows.append({"seat": seat.index + 1, "name": seat.name, "colour": seat.colour,
                     "team": _team_label(teams, seat.index),
                     "rank": entry.get("rank", entry.get("place")), "winner": "yes" if seat.index in winners else "no",
                     "score": entry.get("score", ""), **components})
    fixed = list(FIXED_COLUMNS)
    if any(team is not None for team in teams):
        fixed.insert(fixed.index("colour") + 1, "team")
    return [*fixed, *extra], rows


def _team_label(teams: list[int | None], index: int) -> str:
    """Seat ``index``'s team as people count it (``"1"``, ``"2"``), or ``""`` without teams."""
    team = teams[index] if index < len(teams) else None
    return "" if team is None else str(team + 1)


def build_csv(table: Table) -> str:
    """The result as CSV text (header row, then one row per player), every cell through :func:`csv_cell`;
    :class:`NotFinished` when not finished."""
    if table.status != Table.Status.FINISHED:
        raise NotFinished()
    result = table.game().result(table.game().decode(table.state))
    columns, rows = result_rows(table, result or {})
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([csv_cell(c) for c in columns])
    writer.writerows([csv_cell(row.get(c, "")) for c in columns] for row in rows)
    return buffer.getvalue()


# -- BG Stats -----------------------------------------------------------------------------------


def bgstats_play(table: Table) -> dict[str, Any]:
    """The play as BG Stats' ``createPlay`` import reads it (https://www.bgstatsapp.com/support/push-plays-to-bg-
    stats-from-other-apps-or-websites/): ``sourceName``, ``sourcePlayId`` (:attr:`Table.play_id`: the table code, or
    for an imported copy the original's, so logging the copy twice is one play), ``playDate`` (the stored finish
    time ``Table.finished_at``, ``YYYY-MM-DD HH:MM:SS``, local time), ``durationMin`` (stored start to finish), ``game`` (``name``, ``sourceGameId``, ``bggId`` where
    the game's adapter gives its checked id (``WebAdapter.bgg_id``; a game without one is matched by name), ``highestWins``, ``noPoints``) and ``players`` (``name``, ``sourcePlayerId``,
    ``score``, ``rank``, ``winner``, ``startPlayer``, ``role`` (the seat's colour), and ``team`` (1-based) in a game played in teams)."""
    game = table.game()
    result = game.result(game.decode(table.state)) or {}
    ranking = {r["seat"]: r for r in result.get("ranking", [])}
    winners = set(result.get("winners", []))
    first = table.actions.filter(kind=Action.Kind.GAME).order_by("seq").first()
    finished = timezone.localtime(table.finished_at or table.started_at)
    game_entry: dict[str, Any] = {"name": table.title, "sourceGameId": table.slug, "highestWins": True,
                                  "noPoints": False}
    bgg_id = get_adapter(table.slug).bgg_id
    if bgg_id is not None:
        game_entry["bggId"] = bgg_id
    players = []
    teams = game.seat_teams()
    for s in table.seats.order_by("index"):
        player = {"name": s.name, "sourcePlayerId": f"{table.play_id}-{s.index}",
                  "score": ranking.get(s.index, {}).get("score"), "rank": ranking.get(s.index, {}).get("rank"),
                  "winner": s.index in winners, "startPlayer": first is not None and first.seat == s.index,
                  "role": s.colour}
        team = _team_label(teams, s.index)
        if team:
            player["team"] = team
        players.append(player)
    return {
        "sourceName": "Companion",
        "sourcePlayId": table.play_id,
        "playDate": finished.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": table.duration_minutes,
        "game": game_entry,
        "players": players,
    }


def bgstats_link(table: Table) -> str:
    """``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON of bgstats_play>``: opens BG Stats'
    new-play dialog filled with this play."""
    return BGSTATS_URL + quote(json.dumps(bgstats_play(table), separators=(",", ":"), ensure_ascii=False), safe="")


# -- import -------------------------------------------------------------------------------------


def _refuse(template: str, **details: Any) -> IllegalAction:
    return IllegalAction("bad_import", template, **details)


def _diverges(seq: Any, template: str) -> IllegalAction:
    """``IllegalAction("import_diverges")`` naming move ``seq``; ``template`` is a whole sentence with ``{seq}``."""
    return IllegalAction("import_diverges", template, seq=seq)


def _require(ok: bool, template: str, **details: Any) -> None:
    if not ok:
        raise _refuse(template, **details)


def _check_format(data: Any) -> int:
    """The format version of export document ``data`` (:data:`FORMAT_VERSION` or :data:`MOVES_ONLY_VERSION`);
    ``bad_import`` when it is not a Companion export or of another version."""
    _require(isinstance(data, dict) and data.get("format") == FORMAT,
             gettext_noop("This is not a Companion game export (format {format}, version {version})."),
             format=FORMAT, version=FORMAT_VERSION)
    version = data.get("version")
    _require(type(version) is int and version in (FORMAT_VERSION, MOVES_ONLY_VERSION),
             gettext_noop("This Companion export is of another format version than the one this server reads "
                          "({version}); export the game again from a current server."), version=FORMAT_VERSION)
    return version


def _holds_sealed(data: Mapping[str, Any]) -> bool:
    """True when any move of ``data`` carries a sealed digest: the moves the replay opens with the server's key."""
    moves = data.get("moves")
    return isinstance(moves, list) and any(isinstance(m, dict) and m.get("sealed") for m in moves)


def _is_seed(text: Any) -> bool:
    """True for a seed as an export writes it: 1 to 19 ASCII digits."""
    return isinstance(text, str) and 0 < len(text) <= 19 and text.isascii() and text.isdigit()


def _file_time(text: Any) -> datetime.datetime | None:
    """An exported time (ISO 8601 text, as ``isoformat`` writes it) as an aware datetime (UTC when it names no
    zone); ``None`` when ``text`` is not one."""
    if not (isinstance(text, str) and text.isascii() and len(text) <= 40):
        return None
    try:
        moment = parse_datetime(text)
    except ValueError:
        return None
    if moment is None:
        return None
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment, datetime.UTC)


def _changed() -> IllegalAction:
    """The one refusal of a file with sealed moves that is not as it was exported, whatever was changed."""
    return IllegalAction("import_changed", gettext_noop(
        "This file was changed after it was exported; a file with hidden moves is only taken as exported."))


def _sealing_key(data: Mapping[str, Any]) -> bytes:
    """The key of this server (``SECRET_KEY``, then each of ``SECRET_KEY_FALLBACKS``) under which ``data``'s
    ``file_seal`` is the HMAC of the file, checked before anything of the file is read further.

    Raises ``IllegalAction``: ``import_sealed_elsewhere`` when no key of this server gives the file's ``seal``
    check (another server's file, or one from before a key change), else ``import_changed`` for a file whose
    ``file_seal`` (or the code, seed or seal check the key is derived from) is missing, malformed or not the
    HMAC of the rest: one code and message whatever was changed, so that no answer depends on a hidden move.
    """
    draws = data.get("draws")
    code, check, given = data.get("code"), data.get("seal"), data.get(FILE_SEAL)
    seed = draws.get("seed") if isinstance(draws, dict) else None
    if not (isinstance(code, str) and code.isascii() and 0 < len(code) <= 32 and _is_seed(seed)):
        raise _changed()
    message = _file_message(data)
    for secret in _secrets():
        key = seal_key(code, int(seed), secret)
        if _same_hex(_file_seal(key, message), given):
            return key
    if _import_key(code, int(seed), check) is None:
        raise IllegalAction("import_sealed_elsewhere", gettext_noop(
            "This file comes from another server (or that server's key has changed): its private moves are "
            "sealed with a key this server does not hold, so they cannot be checked here. Import it where it "
            "was exported."))
    raise _changed()


def _check_shape(data: dict[str, Any], version: int) -> None:
    """The document's outer shape: the fields, their types and bounds (values are checked by the replay)."""
    known = {"format", "version", "game", "code", "created_at", "finished_at", "options", "opening_options",
             "seats", "draws", "seal", "moves", "result", COPY_OF} | ({FILE_SEAL} if version == FORMAT_VERSION else set())
    unknown = sorted(set(data) - known)
    _require(not unknown, gettext_noop("The export holds fields this version does not know: {fields}."),
             fields=", ".join(unknown[:5]))
    _require(all(_file_time(data.get(name)) is not None for name in ("created_at", "finished_at")),
             gettext_noop("The export must say when its game started and finished (ISO 8601 date and time)."))
    copy_of = data.get(COPY_OF)
    _require(copy_of is None or (isinstance(copy_of, str) and copy_of.isascii() and 0 < len(copy_of) <= 32),
             gettext_noop("The export must name its table's code and carry its seal check."))
    game = data.get("game")
    _require(isinstance(game, dict) and isinstance(game.get("slug"), str) and game["slug"] in REGISTRY,
             gettext_noop("The export names no game this server knows."))
    _require(isinstance(data.get("options"), dict) and isinstance(data.get("opening_options"), dict),
             gettext_noop("The export's options must be objects."))
    seats = data.get("seats")
    _require(isinstance(seats, list) and 1 <= len(seats) <= 12 and all(
        isinstance(s, dict) and isinstance(s.get("name"), str) and len(s["name"]) <= 40
        and isinstance(s.get("colour"), str) and len(s["colour"]) <= 20
        for s in seats),
        gettext_noop("The export's seats must be a list of names (at most 40 characters) and colours."))
    _require(all(s.get("team") is None or (type(s["team"]) is int and 0 <= s["team"] < 12) for s in seats),
             gettext_noop("A seat's team in the export must be a number (or absent)."))
    draws = data.get("draws")
    _require(isinstance(draws, dict) and _is_seed(draws.get("seed")) and isinstance(draws.get("commitment"), str),
             gettext_noop("The export must reveal the table's seed and its commitment."))
    _require(draws.get("keys", SEQ_KEYS) in DRAW_KEYS,
             gettext_noop("The export keys its draws in a way this server does not know."))
    _require(isinstance(data.get("code"), str) and 0 < len(data["code"]) <= 32
             and isinstance(data.get("seal"), str) and len(data["seal"]) <= 128,
             gettext_noop("The export must name its table's code and carry its seal check."))
    moves = data.get("moves")
    _require(isinstance(moves, list) and len(moves) <= MAX_MOVES,
             gettext_noop("The export's moves must be a list of at most {limit}."), limit=MAX_MOVES)
    last = 0
    for move in moves:
        _require(isinstance(move, dict) and isinstance(move.get("seq"), int) and not isinstance(move["seq"], bool)
                 and last < move["seq"] <= 10 ** 7 and move.get("kind") in ("game", "options", "start")
                 and isinstance(move.get("payload"), dict),
                 gettext_noop("Each exported move needs a rising seq, a kind and a payload."))
        last = move["seq"]
        if move["kind"] == "game":
            _require(isinstance(move.get("seat"), int) and 0 <= move["seat"] < len(seats)
                     and isinstance(move.get("after"), str)
                     and (move.get("sealed") is None or isinstance(move["sealed"], str)),
                     gettext_noop("Move #{seq} of the export names no seat of the table."), seq=move["seq"])
    _require(data.get("result") is None or isinstance(data.get("result"), dict),
             gettext_noop("The export's result must be an object."))


def _candidates(game: Game, physical: Game, state: Any, seat: int, kind: Any, seq: int, seed: int,
                digital: bool, keys: str = SEQ_KEYS, position: int = 0) -> Iterable[dict[str, Any]]:
    """What a sealed move may have been: the seat's legal moves of that kind, chance drawn from the seed
    (digital; keyed by ``keys``, the move's ``seq`` or draw ``position``, as ``check_draws`` keys it) or
    spelled out (as physical mode lists them)."""
    if digital:
        for action in game.legal_actions(state, seat):
            if action.get("kind") == kind:
                try:
                    yield game.fill_chance(state, seat, action, draw_rng(seed, keys, seq, position))
                except (IllegalAction, ValueError, IndexError, KeyError):
                    continue
    for action in physical.legal_actions(state, seat):
        if action.get("kind") == kind:
            yield action


def _replay_start(game: Game, dealt: Any, table: Table, move: Mapping[str, Any], played: bool) -> Any:
    """The opening after an exported ``start`` row: ``dealt`` with the seat it names as start player (or
    ``dealt`` itself while it names none: a tie still to draw again, or the host asking again). Records
    the decision on ``table.pregame``. ``import_diverges`` naming the row when a move came before it or
    the game refuses the seat. Whether a drawn start is the seed's is checked by ``check_draws``."""
    seq, payload = move["seq"], move["payload"]
    if played:
        raise _diverges(seq, gettext_noop(
            "The export does not replay: who starts (#{seq}) is decided after a move was played."))
    seat = payload.get("seat")
    _require(payload.get("rule") in START_RULES and (seat is None or (isinstance(seat, int)
                                                                     and not isinstance(seat, bool))),
             gettext_noop("Row #{seq} of the export names no rule of who starts or no seat."), seq=seq)
    if seat is None:
        return dealt
    try:
        state = game.with_start(dealt, game.check_start_seat(seat))
    except IllegalAction as exc:
        raise _diverges(seq, gettext_noop(
            "The export does not replay: row #{seq} names a start player this table does not have.")) from exc
    table.pregame = {**table.pregame, "start": {"rule": payload["rule"], "seat": seat}}
    return state


#: What an engine may raise on a position or move it was never meant to meet (an import's replay of a file):
#: the move is refused as not replaying, never a server error.
REPLAY_ERRORS = (IllegalAction, TypeError, ValueError, KeyError, IndexError, AttributeError)


def _but_components(options: Mapping[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in options.items() if name != "components"}


def _same_result(a: Any, b: Any) -> bool:
    return canonical(a) == canonical(b)


def import_export(data: Any, device: str = "") -> Table:
    """Rebuild an exported game as a new read-only table (``imported``, status finished) and return it.

    ``data`` is the document as JSON reads it (any JSON value: it is checked
    here). A file holding sealed moves is taken only exactly as exported: its
    ``file_seal`` is checked before anything else of it is read.

    Raises ``IllegalAction``: ``bad_import`` (the document's shape or format
    version, a format 2 file holding sealed moves, the seed against its
    commitment, options or seats the game refuses, opening options that are
    not the final ones but for the components mode), ``import_changed`` (a
    file with sealed moves that is not as exported, whatever was changed),
    ``import_sealed_elsewhere`` (sealed moves under another server's key: no
    key of this server gives the file's ``seal``) or ``import_diverges``
    naming the first move that does not replay (refused by the rules, a sealed
    digest no legal move gives, a public position other than the export's, a
    digital draw the seed does not give) or the result; an option the game's
    own validation refuses keeps the game's code. Nothing is written when it
    raises.
    """
    version = _check_format(data)
    key = None
    if _holds_sealed(data):  # first: no answer may come from replaying an edited file against hidden moves
        if version == MOVES_ONLY_VERSION:
            raise _refuse(gettext_noop(
                "This file is of export format 2, which seals its hidden moves but not the whole file, so this "
                "server cannot tell whether it was changed. Export the table again from the server that holds it."))
        key = _sealing_key(data)
    _check_shape(data, version)
    slug = data["game"]["slug"]
    seed = int(data["draws"]["seed"])
    _require(seed < 2 ** 63 and seed_commitment(seed) == data["draws"]["commitment"],
             gettext_noop("The revealed seed does not match the published commitment (SHA-256 of the seed)."))
    seats = [{"name": s["name"], "colour": s["colour"], "team": s.get("team")} for s in data["seats"]]
    cls = get_game_class(slug)
    try:
        with transaction.atomic():
            table = create_table(slug, data["opening_options"], seats, device=device, seed=seed)
            # Files from before draws were keyed by position name no scheme: their tables keyed them by log row.
            keys = table.draw_keys = data["draws"].get("keys", SEQ_KEYS)
            final = cls(data["options"], table.seat_infos())
            _require(_but_components(table.options) == _but_components(final.options),
                     gettext_noop("The export's opening options differ from its final ones in more than the "
                                  "components mode (the one option a game switches while it is played)."))
            table.options = final.options
            _require(final.options.get("team_mode") or all(s["team"] is None for s in seats),
                     gettext_noop("The export gives seats a team, but this game is played without teams."))
            mode = data["opening_options"].get("components", "digital")
            physical = cls({**final.options, "components": "physical"}, table.seat_infos())
            if any(m["kind"] == "start" for m in data["moves"]):  # the file's own start rows replace the one
                table.actions.filter(kind=Action.Kind.START).delete()  # a set-up draw logged at creation
            dealt = state = opening_state(table, final)
            version = 0
            rows = []
            played = False
            drawn = 0  # the app-drawn moves so far: every exported move counts (games.record.audit.draw_position)
            for move in data["moves"]:
                seq = move["seq"]
                if move["kind"] == "start":
                    state = _replay_start(final, dealt, table, move, played)
                    rows.append(Action(table=table, seq=seq, kind=Action.Kind.START, payload=move["payload"],
                                       version=0))
                    continue
                version += 1
                if move["kind"] == "options":
                    payload = move["payload"]
                    _require(payload.get("components") in ("digital", "physical") and set(payload) <= {
                        "components", "from"}, gettext_noop("Move #{seq} of the export switches to no known mode."),
                        seq=seq)
                    mode = payload["components"]
                    rows.append(Action(table=table, seq=seq, kind=Action.Kind.OPTIONS, payload=payload,
                                       version=version))
                    continue
                seat = move["seat"]
                payload = move["payload"]
                if move.get("sealed"):
                    _require(set(payload) == {"kind"} and isinstance(payload["kind"], str),
                             gettext_noop("Sealed move #{seq} of the export may name only its kind."), seq=seq)
                    try:
                        found = next((c for c in _candidates(final, physical, state, seat, payload["kind"], seq,
                                                             seed, mode == "digital", keys, drawn)
                                      if key is not None and _same_hex(sealed_digest(key, seq, c), move["sealed"])),
                                     None)
                    except REPLAY_ERRORS as exc:  # the position itself does not hold together
                        raise _diverges(seq, gettext_noop(
                            "The export does not replay: move #{seq} is not legal in the position before it.")) from exc
                    if found is None:
                        raise _diverges(seq, gettext_noop(
                            "The export does not replay: move #{seq} is sealed, and no move the rules allow there "
                            "has its digest."))
                    payload = found
                else:
                    try:
                        final.check_payload(payload)
                    except IllegalAction as exc:
                        raise _diverges(seq, gettext_noop("The export does not replay: move #{seq} is not a move of this game.")) from exc
                    if is_sealed(final, seat, payload):
                        raise _diverges(seq, gettext_noop(
                            "The export does not replay: move #{seq} shows what only its player may read; an export "
                            "seals it."))
                played = True
                try:
                    state = final.apply(state, seat, payload)
                    after, step = view_digest(final, state), prompt_key(final, state)
                except REPLAY_ERRORS as exc:
                    raise _diverges(seq, gettext_noop(
                        "The export does not replay: move #{seq} is not legal in the position before it.")) from exc
                if after != move["after"]:
                    raise _diverges(seq, gettext_noop(
                        "The export does not replay: move #{seq} leaves another position than the export records."))
                rows.append(Action(table=table, seq=seq, kind=Action.Kind.GAME, seat=seat, payload=payload,
                                   version=version, prompt_step=step))
                if mode == "digital" and holds_draw(final, payload):
                    drawn += 1
            try:
                result = final.result(state)
            except REPLAY_ERRORS:
                result = None
            if result is None or not _same_result(result, data.get("result")):
                raise IllegalAction("import_diverges", gettext_noop(
                    "The export does not replay: its moves give another final result than the one it records."))
            Action.objects.bulk_create(rows)
            table.state = final.encode(state)
            table.draws = drawn
            table.version = version
            table.status = Table.Status.FINISHED
            table.imported = True
            # The copy is of the same play: the original's times and play id, whenever it is imported.
            table.started_at = _file_time(data["created_at"])
            table.finished_at = _file_time(data["finished_at"])
            table.copy_of = data.get(COPY_OF) or data["code"]
            table.save()
            # check_draws deals its opening in digital mode, so it speaks only for tables dealt digitally.
            check = check_draws(table) if data["opening_options"].get("components") != "physical" else None
            if check is not None and not check.ok:
                raise _diverges(check.mismatch if check.mismatch is not None else "?",
                                gettext_noop(
                                "The export does not replay: move #{seq} holds a draw that the revealed seed does not "
                                "give."))
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:  # what the game cannot set up
        raise _refuse(gettext_noop("The export's options or seats are not ones this game accepts.")) from exc
    return table
