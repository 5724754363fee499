"""What one seat (or the table screen) is shown: the per-seat view, prompt, legal taps, log.

Every page, fragment, API answer and websocket frame is built from
:func:`seat_context`, which reads the state only through the engine's
``view``, ``legal_actions`` and ``describe`` for that viewer
(shared/STYLE.md principle 7). No template or consumer touches the raw state.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.translation import gettext

from games.engines.base import Game, IllegalAction, LogLine
from games.models import Action, Correction, Table
from games.services import effective_actions

LOG_LINES = 40  # how many log rows a phone shows


def tr(text: str, details: Mapping[str, Any] | None = None) -> str:
    """Translate an engine's English template, then fill ``{placeholders}`` from ``details``."""
    translated = gettext(text) if text else ""
    if not details:
        return translated
    try:
        return translated.format(**{k: _plain(v) for k, v in details.items()})
    except (KeyError, IndexError, ValueError):
        return translated


def _plain(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_plain(v)) for v in value)
    return value


def error_message(exc: IllegalAction) -> str:
    """The translated message of an ``IllegalAction``."""
    return tr(exc.template, exc.details)


def action_label(game: Game, seat: int, payload: Mapping[str, Any]) -> str:
    """The button text of a legal action (the engine's ``label``)."""
    line = game.label(seat, payload)
    return tr(line.text, line.details)


def legal_for(game: Game, state: Any, seat: int | None) -> list[dict[str, Any]]:
    """``seat``'s legal actions as ``{"payload", "json", "label", "kind"}`` (empty for the table screen)."""
    if seat is None or game.result(state) is not None:
        return []
    items = []
    for payload in game.legal_actions(state, seat):
        items.append(
            {
                "payload": payload,
                "json": json.dumps(payload, separators=(",", ":"), sort_keys=True),
                "label": action_label(game, seat, payload),
                "kind": payload.get("kind", ""),
            }
        )
    return items


def log_lines(table: Table, game: Game, viewer: int | None, limit: int = LOG_LINES) -> list[dict[str, Any]]:
    """The newest ``limit`` log rows as ``viewer`` may read them, newest first.

    Game rows go through the engine's ``describe`` (which hides other seats'
    private outcomes); undone and corrected rows are marked, never dropped.
    """
    rows = list(table.actions.order_by("seq"))
    counted = {row.seq: row for row in effective_actions(rows)}
    names = {s.index: s.name for s in table.seats.all()}
    lines = []
    for row in reversed(rows[-limit:]):
        entry: dict[str, Any] = {"seq": row.seq, "kind": row.kind, "seat": row.seat, "private": False}
        if row.kind == Action.Kind.GAME:
            shown = counted.get(row.seq, row)
            line: LogLine = game.describe(row.seat, shown.payload, viewer)
            entry["text"] = tr(line.text, line.details)
            entry["private"] = line.private
            entry["counted"] = row.seq in counted
            entry["corrected"] = row.seq in counted and counted[row.seq].payload != row.payload
            if entry["corrected"]:  # the log keeps both: what was logged first, and the agreed correction
                first = game.describe(row.seat, row.payload, viewer)
                entry["original"] = tr(first.text, first.details)
            entry["who"] = names.get(row.seat, "")
        elif row.kind == Action.Kind.UNDO:
            entry["text"] = gettext("The host undid the last move.")
            undone = row.payload.get("undone")
            if undone:
                entry["text"] = gettext("The host undid move #%(seq)s.") % {"seq": undone}
        elif row.kind == Action.Kind.CORRECT and row.payload.get("rejected"):
            by = row.payload.get("by")
            entry["text"] = gettext("The correction of move #%(seq)s was turned down by %(who)s; the move stands.") % {
                "seq": row.payload.get("target"), "who": names.get(by, "?")}
        elif row.kind == Action.Kind.CORRECT and row.payload.get("void"):
            entry["text"] = gettext("The correction of move #%(seq)s no longer fits the later moves and was dropped.") % {
                "seq": row.payload.get("target")}
        elif row.kind == Action.Kind.CORRECT:
            entry["text"] = gettext("Correction of move #%(seq)s agreed by the table.") % {
                "seq": row.payload.get("target")
            }
        elif row.kind == Action.Kind.END:
            entry["text"] = gettext("The host ended the game.")
        elif row.kind == Action.Kind.SETUP:  # its payload is the whole opening state: never shown, only named
            entry["text"] = gettext("The opening position was dealt.")
        else:
            entry["text"] = gettext("The host switched the components to %(mode)s.") % {
                "mode": row.payload.get("components", "")
            }
        lines.append(entry)
    return lines


def game_template(slug: str, name: str, fallback: str) -> str:
    """``games/<slug>/<name>`` if the game ships it, else the generic ``fallback``."""
    try:
        get_template(f"games/{slug}/{name}")
    except TemplateDoesNotExist:
        return fallback
    return f"games/{slug}/{name}"


def seat_context(table: Table, viewer: int | None) -> dict[str, Any]:
    """Everything a phone (``viewer`` = seat index) or the table screen (``None``) renders.

    Shape: ``{"table", "game", "view", "prompt", "legal", "result", "seats",
    "log", "corrections", "version", "waiting_names", "my_turn", "signature"}``;
    ``signature`` changes whenever what the phone shows may change, so a
    phone can skip a pushed fragment it already shows.
    """
    game = table.game()
    state = game.decode(table.state)
    prompt = game.prompt(state)
    result = game.result(state)
    seats = [
        {"index": s.index, "name": s.name, "colour": s.colour, "team": s.team, "claimed": bool(s.claimed_at)}
        for s in table.seats.all()
    ]
    prompt_json = prompt.as_json()
    prompt_json["text_shown"] = tr(prompt.text, {**prompt.details, "names": [seats[i]["name"] for i in prompt.seats]})
    open_corrections = []
    for c in table.corrections.filter(status=Correction.Status.OPEN):
        open_corrections.append(
            {
                "id": c.id,
                "proposer": seats[c.proposer]["name"] if c.proposer < len(seats) else "?",
                "target": c.target_seq,
                "replacement": tr(game.describe(_seat_of(table, c.target_seq), c.replacement, viewer).text,
                                  game.describe(_seat_of(table, c.target_seq), c.replacement, viewer).details)
                if c.replacement
                else None,
                "reason": c.reason,
                "waiting": [seats[i]["name"] for i in c.waiting_for(len(seats))],
                "can_confirm": viewer is not None and viewer in c.waiting_for(len(seats)),
                "can_withdraw": viewer is not None and viewer == c.proposer,
            }
        )
    signature = hashlib.sha1(json.dumps(
        [table.code, table.version, table.status, [(c["id"], c["waiting"]) for c in open_corrections],
         [s["claimed"] for s in seats]], sort_keys=True).encode()).hexdigest()[:12]
    return {
        "table": table,
        "game": game,
        "signature": signature,
        "board_template": game_template(table.slug, "board.html", "games/_board.html"),
        "controls_template": game_template(table.slug, "controls.html", "games/_controls.html"),
        "slug": table.slug,
        "view": game.view(state, viewer),
        "prompt": prompt_json,
        "legal": legal_for(game, state, viewer) if table.is_open else [],
        "result": result,
        "seats": seats,
        "seat": viewer,
        "me": seats[viewer] if viewer is not None else None,
        "log": log_lines(table, game, viewer),
        "corrections": open_corrections,
        "version": table.version,
        "waiting_names": [seats[i]["name"] for i in prompt.seats],
        "my_turn": viewer is not None and viewer in prompt.seats and table.is_open,
        "result_steps": [tr(step.get("text", ""), step.get("details")) for step in (result or {}).get("steps", [])],
    }


def _seat_of(table: Table, seq: int) -> int:
    row = table.actions.filter(seq=seq).first()
    return row.seat if row and row.seat is not None else 0
