"""What each seat may see (principle 7): built from allowed pieces only.

Public: the board (tiles, leaders, pagodas), the market, leaders in hand,
hand sizes, counts of tiles left in the bag and in the box, the conflict in
progress (committed tiles are shown face up, §5.1). Private (``view["private"]``
of the owner only): the hand's colours and the points behind the screen.
Never: the bag's colours or order, the box's colours, another seat's hand or
points. After the game (§7) every screen is open in ``view["final"]``.
"""

from __future__ import annotations

from typing import Any

from .board import layout
from .rules.common import Ctx, leader_map, tile_map
from .rules.conflicts import black_support, war_strengths
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
            "attacker_base": black_support(ctx, s, p.attacker_hex),
            "defender_base": black_support(ctx, s, p.defender_hex),
            "attacker_tiles": p.attacker_tiles if p.stage == "defender" else None,
        }
    if isinstance(p, War):
        lmap = leader_map(s)
        strengths = war_strengths(s, p)
        side_leaders = [[lmap[h] for h in side if h in lmap] for side in p.sides]
        colours = [{c for _seat, c in ls} for ls in side_leaders]
        sides = []
        for i, side in enumerate(p.sides):
            owners = sorted({st for st, c in side_leaders[i] if any(c in cs for j, cs in enumerate(colours) if j != i)})
            sides.append({
                "index": i, "number": i + 1, "hexes": [list(h) for h in side],
                "leaders": [{"seat": st, "colour": c, "name": names[st]} for st, c in side_leaders[i]],
                "owners": owners, "names": ", ".join(names[st] for st in owners),
                "strength": strengths[i],
            })
        return {
            "type": "war", "unifier": p.unifier, "hex": list(p.hex), "stage": p.stage, "sides": sides,
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


def build_view(ctx: Ctx, s: State, seat: int | None, names: list[str]) -> dict[str, Any]:
    """``view(state, seat)`` as documented in the module docstring."""
    board = ctx.board
    geo = layout(board)
    tmap = tile_map(s)
    covered = {h: c for c, tri in s.pagodas for h in tri}
    pos = {(h["q"], h["r"]): (h["x"], h["y"]) for h in geo["hexes"]}
    view: dict[str, Any] = {
        "edition": {"name": board.name, "verified": board.verified, "practice": board.practice,
                    "fixture": board.fixture},
        "board": geo,
        "phase": s.phase,
        "turn": s.turn,
        "active": s.active,
        "start": s.start,
        "actions_left": s.actions_left,
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
            {"seat": i, "name": names[i], "dynasty": DYNASTIES[i], "hand_count": sum(s.hands[i]),
             "leaders_in_hand": [c for c in COLOURS if not any(x[0] == i and x[1] == c for x in s.leaders)]}
            for i in range(ctx.n)
        ],
        "conflict": conflict_view(ctx, s, names),
        "ended_by": s.ended_by or None,
    }
    if seat is not None and 0 <= seat < ctx.n:
        view["private"] = {
            "hand": as_dict(s.hands[seat]),
            "hand_tiles": [c for i, c in enumerate(COLOURS) for _ in range(s.hands[seat][i])],
            "points": as_dict(s.points[seat]),
        }
    if s.phase == "over":
        view["final"] = [{"seat": i, "hand": as_dict(s.hands[i]), "points": as_dict(s.points[i])}
                         for i in range(ctx.n)]
    return view
