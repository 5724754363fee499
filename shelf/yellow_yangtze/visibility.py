"""What each seat may see (principle 7): built from allowed pieces only.

Public: the board (tiles, leaders, pagodas), the market, leaders in hand,
hand sizes, counts of tiles left in the bag and in the box, the conflict in
progress (committed tiles are shown face up, §5.1). Private (``view["private"]``
of the owner only): the hand's colours and the points behind the screen.
Never: the bag's colours or order, the box's colours, another seat's hand or
points. After the game (§7) every screen and hand is open in ``view["final"]``; once the host ended it,
every screen (points) but no hand: the table's seed stays sealed then, so that the hands stay held.

Everything but ``private`` is the same for every viewer: it is made once per state object
(:func:`public_view`) and every seat's view holds those very objects: never mutate a view.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import kept_view

from .board import layout
from .rules.common import Ctx, leader_map, tile_map
from .rules.conflicts import black_support, stakes, war_strengths
from .state import COLOURS, DYNASTIES, DrawStep, FollowUp, Revolt, State, War, as_dict


def conflict_view(ctx: Ctx, s: State, names: list[str] | None = None) -> dict[str, Any] | None:
    """The pending step as everybody sees it.

    A war side also lists ``owners``: the seats whose leaders on it share a
    colour with a leader on another side (the leaders at stake), and their
    ``names``, so a phone can say "Bob's side".
    """
    names = names or [str(i) for i in range(ctx.n)]
    p = s.pending
    if isinstance(p, Revolt):
        return {
            "type": "revolt", "colour": p.colour, "attacker": p.attacker, "defender": p.defender,
            "attacker_name": names[p.attacker], "defender_name": names[p.defender],
            "attacker_hex": list(p.attacker_hex), "defender_hex": list(p.defender_hex), "stage": p.stage,
            "attacker_label": ctx.board.label(p.attacker_hex), "defender_label": ctx.board.label(p.defender_hex),
            "attacker_base": black_support(ctx, s, p.attacker_hex),
            "defender_base": black_support(ctx, s, p.defender_hex),
            "attacker_tiles": p.attacker_tiles if p.stage == "defender" else None,
        }
    if isinstance(p, War):
        lmap = leader_map(s)
        strengths = war_strengths(s, p)
        sides = []
        for i, side in enumerate(p.sides):
            owners = stakes(s, p, i)
            sides.append({
                "index": i, "number": i + 1, "hexes": [list(h) for h in side],
                "leaders": [{"seat": lmap[h][0], "colour": lmap[h][1], "name": names[lmap[h][0]],
                             "hex": ctx.board.label(h)} for h in side if h in lmap],
                "owners": owners, "names": ", ".join(names[st] for st in owners),
                "strength": strengths[i],
            })
        return {
            "type": "war", "unifier": p.unifier, "hex": list(p.hex), "hex_label": ctx.board.label(p.hex),
            "stage": p.stage, "sides": sides,
            "commits": [{"seat": a, "name": names[a], "side": b, "tiles": c, "leader": d} for a, b, c, d in p.commits],
            "waiting": list(p.order), "unifier_name": names[p.unifier], "tied": list(p.tied), "winner": p.winner,
            "burn_left": p.burn_left, "remove_left": p.remove_left,
        }
    if isinstance(p, FollowUp):
        return {"type": "followup", "stage": p.stage, "hex": list(p.hex), "colour": p.colour}
    if isinstance(p, DrawStep):
        seat, target, n = p.queue[0]
        return {"type": "draw", "seat": seat, "target": target, "n": min(n, s.bag_left)}
    return None


def outcome_view(ctx: Ctx, s: State, names: list[str]) -> dict[str, Any] | None:
    """The last settled conflict (§5) as everybody sees it; shown through the rest of its turn and the next one.

    Hidden while another conflict is being fought (that one is on show
    instead). Hexes carry their board labels ("C4"), seats their names.
    """
    o = s.last_conflict
    if o is None or isinstance(s.pending, (Revolt, War)) or o.turn < s.turn - 1:
        return None
    side_names = [", ".join(names[x] for x in side) for side in o.sides]
    label = ctx.board.label
    return {
        "kind": o.kind,
        "winner": o.winner,
        "winner_names": side_names[o.winner],
        "loser_names": ", ".join(n for i, n in enumerate(side_names) if i != o.winner and n),
        "tie": o.tie,
        "strengths": [{"names": side_names[i], "number": i + 1, "strength": v} for i, v in enumerate(o.strengths)],
        "leaders": [{"name": names[st], "colour": c, "hex": label(h)} for st, c, h in o.leaders],
        "tiles": [{"colour": c, "hex": label(h)} for h, c in o.tiles],
        "hexes": [list(h) for h, _c in o.tiles] + [list(h) for _st, _c, h in o.leaders],
        "burned": o.burned,
        "points": [{"name": names[st], "colour": c, "n": n} for st, c, n in o.points],
    }


def actions_left(s: State) -> int:
    """The active player's actions not yet begun this turn (the ``n`` of "n of 2 actions left").

    ``State.actions_left`` drops when an action ends. An action still under
    way (a war or revolt it caused, its follow-up market tile, pagoda or blue
    chain, the draw of a swap) is one already taken: conflicts are settled
    inside the action that caused them (rules §2, legal positions; §5.1).
    So once a placement starts a war, the header reads 1 of 2 left all through
    the war, as the prompt reads "action 2 of 2" after it.
    """
    p = s.pending
    under_way = isinstance(p, (FollowUp, Revolt, War)) or (isinstance(p, DrawStep) and p.then == "action")
    return max(0, s.actions_left - 1) if s.phase == "play" and under_way else s.actions_left


def build_view(ctx: Ctx, s: State, seat: int | None, names: list[str], lifted: bool = False,
               holder: object | None = None) -> dict[str, Any]:
    """``view(state, seat)`` as documented in the module docstring: the public view (:func:`public_view`), the
    seat's own hand and points under ``private``, then ``final`` once the screens are lifted.

    ``lifted``: every screen is open although the game did not reach its end (the host ended it: the
    engine's ``ended_view``); ``view["final"]`` then shows what the end of the game shows (§7). ``holder``: the
    object that keeps the public view of the last state asked (the engine); ``None``: it is made for this call.

    A new dictionary per call whose public pieces (and ``final``) are the objects :func:`public_view` made once
    for ``s``: every seat's view shares them (read them, never mutate them)."""
    public, final = public_view(ctx, s, names, lifted, holder)
    view = dict(public)
    if seat is not None and 0 <= seat < ctx.n:
        view["private"] = {
            "hand": as_dict(s.hands[seat]),
            "hand_tiles": [c for i, c in enumerate(COLOURS) for _ in range(s.hands[seat][i])],
            "points": as_dict(s.points[seat]),
        }
    if final is not None:
        view["final"] = final
    return view


def public_view(ctx: Ctx, s: State, names: list[str], lifted: bool = False,
                holder: object | None = None) -> tuple[dict[str, Any], list[dict[str, Any]] | None]:
    """What every seat and the table screen see of ``s``: the view without ``private``, and its ``final`` (the
    screens, and the hands once the game is over; ``None`` while they are closed), which comes after ``private``.

    Made once per state object and kept on ``holder`` (the last one asked), keyed by everything it is made of:
    ``s`` and ``ctx`` by identity, ``names`` and ``lifted`` by value. Never mutate it."""
    return kept_view(holder, (s, ctx), (tuple(names), bool(lifted)),
                     lambda: (_build_public(ctx, s, names), _final(ctx, s, lifted)))


def _build_public(ctx: Ctx, s: State, names: list[str]) -> dict[str, Any]:
    board = ctx.board
    geo = layout(board)
    tmap = tile_map(s)
    covered = {h: c for c, tri in s.pagodas for h in tri}
    pos = {(h["q"], h["r"]): (h["x"], h["y"]) for h in geo["hexes"]}
    return {
        "edition": {"name": board.name, "verified": board.verified, "practice": board.practice,
                    "fixture": board.fixture},
        "board": geo,
        "phase": s.phase,
        "turn": s.turn,
        "active": s.active,
        "start": s.start,
        "actions_left": actions_left(s),
        "tiles": [{"q": h[0], "r": h[1], "colour": c, "pagoda": covered.get(h), "x": pos[h][0], "y": pos[h][1],
                   "token": isinstance(s.pending, War) and s.pending.hex == h} for h, c in sorted(tmap.items())],
        "leaders": [{"seat": st, "colour": c, "q": h[0], "r": h[1], "x": pos[h][0], "y": pos[h][1],
                     "dynasty": DYNASTIES[st]} for st, c, h in s.leaders],
        "pagodas": [{"colour": c, "triangle": [list(h) for h in tri],
                     "x": round(sum(pos[h][0] for h in tri) / 3, 1),
                     "y": round(sum(pos[h][1] for h in tri) / 3, 1)} for c, tri in s.pagodas],
        "pagoda_supply": as_dict(s.pagoda_supply),
        "market": as_dict(s.market),
        "market_tiles": [c for i, c in enumerate(COLOURS) for _ in range(s.market[i])],
        "bag_left": s.bag_left,
        "box_count": sum(s.box),
        "players": [
            {"seat": i, "name": names[i], "dynasty": DYNASTIES[i],
             "hand_count": sum(s.hands[i]),
             "leaders_in_hand": [c for c in COLOURS if not any(x[0] == i and x[1] == c for x in s.leaders)]}
            for i in range(ctx.n)
        ],
        "conflict": conflict_view(ctx, s, names),
        "last_conflict": outcome_view(ctx, s, names),
        "ended_by": s.ended_by or None,
    }


def _final(ctx: Ctx, s: State, lifted: bool) -> list[dict[str, Any]] | None:
    if s.phase == "over":
        return [{"seat": i, "hand": as_dict(s.hands[i]), "points": as_dict(s.points[i])} for i in range(ctx.n)]
    if lifted:
        # The host's end lifts the screens only: the hands stay held, as the table's sealed seed keeps them.
        return [{"seat": i, "points": as_dict(s.points[i])} for i in range(ctx.n)]
    return None
