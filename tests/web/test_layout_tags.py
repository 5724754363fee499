"""Tap targets a thumb can hit (issue 9 item 2): the layout template filters."""

from __future__ import annotations

import math

import pytest

from games.engines.sorry.board import CELL
from games.templatetags.layout import SORRY_HIT_RADIUS, sorry_destinations, yy_picks


def move(pawn: str, to: str, label: str = "") -> dict:
    return {"kind": "move", "payload": {"pawn": pawn, "to": to}, "json": "{}", "label": label or f"{pawn} to {to}"}


POINTS = {"T10": [100, 20], "T11": [100 + CELL, 20], "T20": [300, 200]}


def test_a_pawns_destinations_on_neighbouring_squares_merge_into_one_choice():
    targets = sorry_destinations([move("R0", "T10"), move("R0", "T11")], POINTS)
    assert len(targets) == 1 and [i["payload"]["to"] for i in targets[0]["items"]] == ["T10", "T11"]
    assert targets[0]["x"] == 100 + CELL / 2, "the merged target sits between the two squares"


def test_destinations_far_apart_stay_separate_targets():
    targets = sorry_destinations([move("R0", "T10"), move("R0", "T20")], POINTS)
    assert [len(t["items"]) for t in targets] == [1, 1]
    assert math.dist((targets[0]["x"], targets[0]["y"]), (targets[1]["x"], targets[1]["y"])) >= 2 * SORRY_HIT_RADIUS


def test_two_pawns_never_share_a_target_and_split_sevens_are_left_to_the_list():
    split = {"kind": "move", "payload": {"pawn": "R1", "to": "T11", "then": {"pawn": "R0", "to": "T12"}},
             "json": "{}", "label": "split"}
    targets = sorry_destinations([move("R0", "T10"), move("R1", "T11"), split, {"kind": "draw", "payload": {}}],
                                 POINTS)
    assert [(t["pawn"], len(t["items"])) for t in targets] == [("R0", 1), ("R1", 1)]


def test_yellow_yangtze_picks_are_named_as_the_board_names_them_and_only_with_a_legal_hex():
    legal = [{"kind": "tile", "payload": {"colour": "red", "hex": [1, 2]}},
             {"kind": "leader", "payload": {"colour": "black", "hex": [3, 2]}},
             {"kind": "peasants", "payload": {"leader": True, "hex": [1, 1]}},
             {"kind": "peasants", "payload": {"leader": False, "hex": [1, 1]}},
             {"kind": "withdraw", "payload": {"colour": "green"}},
             {"kind": "swap", "payload": {"tiles": ["blue"]}}]
    assert yy_picks(legal) == {"tile-red", "leader-black", "peasants-1", "peasants-0"}
    assert yy_picks([{"kind": "tile", "payload": {"colour": "blue"}}]) == set(), "a tile without a hex lights nothing"


def test_the_sorry_board_draws_close_destinations_as_one_target_that_opens_the_pawns_list():
    from django.template.loader import render_to_string

    legal = [move("R0", "T10", "R0 to 10"), move("R0", "T11", "R0 to 11"), move("R0", "T20", "R0 to 20")]
    view = {"layout": {"viewbox": "0 0 376 376", "points": POINTS},
            "pawns": [{"id": "R0", "colour": "red", "loc": "T5", "x": 50, "y": 20}], "draw_pile": 40}
    html = render_to_string("games/sorry/board.html", {"view": view, "legal": legal})
    merged = html.split('class="dest tap merged"')[1].split("</g>")[0]
    assert 'data-open="moves-R0"' in merged and "data-action" not in merged
    assert "R0 to 10 · R0 to 11" in merged, "the merged target names both moves"
    assert html.count('class="dest tap"') == 1, "the far destination keeps its own one-tap target"
    assert 'class="hit tap pawn-hit" r="25"' in html and 'data-hit="hit-R0"' in html


# The template loops the board drew its moving pieces with before issue 8 moved them into Python
# (games/templatetags/layout.py sorry_pieces): the markup must not change, byte for byte.
TEMPLATE_PIECES = """{% load i18n companion layout %}{% localize off %}<use href="#sorry-geo"/>
  {% regroup legal by payload.pawn as movable %}
  {# Hit areas first (issue 9): a transparent 44 px circle under each movable pawn; the pawn drawn on top keeps its own tap. #}
  {% for p in view.pawns %}{% for m in movable %}{% if m.grouper == p.id %}<circle class="hit tap pawn-hit" r="25" cx="{{ p.x }}" cy="{{ p.y }}" data-piece="{{ p.id }}" data-open="moves-{{ p.id }}" id="hit-{{ p.id }}"/>{% endif %}{% endfor %}{% endfor %}
  {% for p in view.pawns %}<g class="pawn {{ p.colour }}{% for m in movable %}{% if m.grouper == p.id %} tap legal{% endif %}{% endfor %}" data-pawn="{{ p.id }}" data-loc="{{ p.loc }}"{% for m in movable %}{% if m.grouper == p.id %} data-open="moves-{{ p.id }}" data-hit="hit-{{ p.id }}"{% endif %}{% endfor %} transform="translate({{ p.x }} {{ p.y }})"><circle r="7" fill="{{ p.colour }}"/><text>{{ p.id|slice:"1:"|add:1 }}</text><title>{{ p.id|sorry_pawn }} · {{ p.loc|sorry_square }}</title></g>{% endfor %}
  {# Destinations of the chosen pawn (simple moves; split 7s are picked from the list below the board). #}
  {% for t in legal|sorry_destinations:view.layout.points %}{% if t.items|length == 1 %}{% with item=t.items.0 %}
  <g class="dest tap" data-for="{{ t.pawn }}" data-action='{{ item.json }}'>
    <circle class="hit" cx="{{ t.x }}" cy="{{ t.y }}" r="25"/>
    <circle cx="{{ t.x }}" cy="{{ t.y }}" r="10" fill="#2a6" fill-opacity="0.55" stroke="#064" stroke-width="2"/>
    <title>{{ item.label }}</title>
  </g>{% endwith %}{% else %}{# Destinations too close for two thumbs: one target that opens the pawn's list of moves. #}
  <g class="dest tap merged" data-for="{{ t.pawn }}" data-piece="{{ t.pawn }}" data-open="moves-{{ t.pawn }}">
    <circle class="hit" cx="{{ t.x }}" cy="{{ t.y }}" r="25"/>
    {% for item in t.items %}{% with key=item.payload|where %}{% with xy=view.layout.points|get:key %}<circle cx="{{ xy.0 }}" cy="{{ xy.1 }}" r="8" fill="#2a6" fill-opacity="0.45" stroke="#064" stroke-width="1.5"/>{% endwith %}{% endwith %}{% endfor %}
    <circle cx="{{ t.x }}" cy="{{ t.y }}" r="8" fill="#064"/><text class="merged-n" x="{{ t.x }}" y="{{ t.y }}">{{ t.items|length }}</text>
    <title>{% for item in t.items %}{{ item.label }}{% if not forloop.last %} · {% endif %}{% endfor %}</title>
  </g>{% endif %}{% endfor %}
{% endlocalize %}"""


@pytest.mark.django_db
def test_the_python_board_pieces_write_the_markup_the_template_loops_wrote():
    import random

    from django.template import engines
    from django.utils import translation

    from games import snapshots
    from games.commands.moves import submit_action
    from games.commands.pregame import create_table
    from games.models import Table
    from games.presenters import seat_context

    loops = engines["django"].from_string("{% load l10n %}" + TEMPLATE_PIECES)
    python = engines["django"].from_string(
        '{% load l10n layout %}{% localize off %}<use href="#sorry-geo"/>\n  {% sorry_pieces view legal %}\n'
        "{% endlocalize %}")
    table = create_table("sorry", {"team_mode": True}, [{"name": n} for n in ("Ann", "B'o<b", "Cy", "Di")],
                                  seed=5)
    chooser, compared = random.Random(5), 0
    for _ in range(40):
        row = Table.objects.get(code=table.code)
        game = row.game()
        state = game.decode(row.state)
        for language in ("en", "fa", "az"):
            with translation.override(language):
                for seat in (None, *game.prompt(state).seats):
                    context = seat_context(snapshots.for_table(row), seat)
                    assert python.render(context) == loops.render(context)
                    compared += bool(context["legal"])
        seat = chooser.choice(game.prompt(state).seats)
        submit_action(table.code, seat, chooser.choice(game.legal_actions(state, seat)), row.version)
    assert compared >= 40, "the comparison covered boards with legal moves on them"


# The template loop the Yellow & Yangtze board drew its action-step targets with before issue 8 moved it into Python
# (games/templatetags/layout.py yy_targets): the markup must not change, byte for byte.
TEMPLATE_YY_TARGETS = """{% regroup legal by payload.hex as byhex %}{% for g in byhex %}{% if g.grouper %}<g class="yy-t tap" data-hex="{{ g.grouper.0 }},{{ g.grouper.1 }}" data-picks="{% for it in g.list %} {{ it.kind }}-{% if it.kind == 'peasants' %}{{ it.payload.leader|yesno:'1,0' }}{% else %}{{ it.payload.colour }}{% endif %}{% endfor %} "><use href="#yyh" x="{{ g.grouper.0 }}" y="{{ g.grouper.1 }}"/></g>{% endif %}{% endfor %}"""


def test_the_python_yellow_yangtze_targets_write_what_the_template_loops_wrote_for_odd_items_too():
    from django.template import engines

    odd = [{"kind": "tile", "payload": {"hex": [1, -2], "colour": "red"}},
           {"kind": "tile", "payload": {"hex": [1, -2], "colour": None}},
           {"kind": "peasants", "payload": {"hex": [1, -2], "leader": True}},
           {"kind": "peasants", "payload": {"hex": [0, 3]}},
           {"kind": "x<y", "payload": {"hex": [0, 3]}},
           {"kind": "pass", "payload": {}},
           {"kind": "tile", "payload": {"hex": [1, -2], "colour": "a&b"}},
           {"kind": "tile", "payload": {"hex": None, "colour": "red"}},
           {"kind": "tile", "payload": {"hex": [7], "colour": "red"}}]
    loops = engines["django"].from_string("{% load l10n %}{% localize off %}" + TEMPLATE_YY_TARGETS + "{% endlocalize %}")
    python = engines["django"].from_string("{% load l10n layout %}{% localize off %}{% yy_targets legal %}{% endlocalize %}")
    for legal in (odd, odd[::-1], odd[:3], []):
        assert python.render({"legal": legal}) == loops.render({"legal": legal})


@pytest.mark.django_db
def test_the_python_yellow_yangtze_targets_write_the_markup_the_template_loops_wrote():
    import random

    from django.template import engines
    from django.utils import translation

    from games import snapshots
    from games.commands.moves import submit_action
    from games.commands.pregame import create_table
    from games.models import Table
    from games.presenters import seat_context

    loops = engines["django"].from_string("{% load l10n %}{% localize off %}" + TEMPLATE_YY_TARGETS + "{% endlocalize %}")
    python = engines["django"].from_string("{% load l10n layout %}{% localize off %}{% yy_targets legal %}{% endlocalize %}")
    table = create_table("yellow_yangtze", {}, [{"name": n} for n in ("Ann", "B'o<b", "Cy", "Di")], seed=5)
    chooser, compared = random.Random(5), 0
    for _ in range(60):
        row = Table.objects.get(code=table.code)
        game = row.game()
        state = game.decode(row.state)
        if game.result(state) is not None:
            break
        for language in ("en", "fa"):
            with translation.override(language):
                for seat in game.prompt(state).seats:
                    context = seat_context(snapshots.for_table(row), seat)
                    assert python.render(context) == loops.render(context)
                    compared += context["prompt"]["step"] == "action" and bool(context["legal"])
        seat = chooser.choice(game.prompt(state).seats)
        submit_action(table.code, seat, chooser.choice(game.legal_actions(state, seat)), row.version)
    assert compared >= 20, "the comparison covered action steps with targets on the board"


# The loops the Yellow & Yangtze board drew its tiles and leaders with before issue 8 (yy_tiles, yy_leaders).
TEMPLATE_YY_MAP = """{% load i18n %}{% for t in view.tiles %}<use href="#yyt" x="{{ t.q }}" y="{{ t.r }}" class="t {{ t.colour }}{% if t.token %} token{% endif %}" data-tile="{{ t.q }},{{ t.r }}"/>{% endfor %}
  {% for l in view.leaders %}<g class="leader {{ l.colour }}" data-leader="{{ l.seat }}-{{ l.colour }}"><use href="#yyd-{{ l.dynasty }}" transform="translate({{ l.x }} {{ l.y }}) scale({{ view.board.leader_scale }})"/><title>{% for p in view.players %}{% if p.seat == l.seat %}{{ p.name }}{% endif %}{% endfor %} · {% translate l.colour %} {% translate "leader" %}</title></g>{% endfor %}"""
PYTHON_YY_MAP = """{% load layout %}{% yy_tiles view.tiles %}
  {% yy_leaders view %}"""


@pytest.mark.django_db
def test_the_python_yellow_yangtze_tiles_and_leaders_write_what_the_template_loops_wrote():
    import random

    from django.template import engines
    from django.utils import translation

    from games import snapshots
    from games.commands.moves import submit_action
    from games.commands.pregame import create_table
    from games.models import Table
    from games.presenters import seat_context

    django_engine = engines["django"]
    pairs = [(django_engine.from_string(f"{{% load l10n %}}{{% localize {onoff} %}}{TEMPLATE_YY_MAP}{{% endlocalize %}}"),
              django_engine.from_string(f"{{% load l10n %}}{{% localize {onoff} %}}{PYTHON_YY_MAP}{{% endlocalize %}}"))
             for onoff in ("off", "on")]
    table = create_table("yellow_yangtze", {}, [{"name": n} for n in ("Ann", "B'o<b", "Cy", "Di")], seed=7)
    chooser, leaders = random.Random(7), 0
    for _ in range(40):
        row = Table.objects.get(code=table.code)
        game = row.game()
        state = game.decode(row.state)
        if game.result(state) is not None:
            break
        for language in ("en", "fa", "az", "ps"):
            with translation.override(language):
                for seat in (None, 0, 2):
                    context = seat_context(snapshots.for_table(row), seat)
                    for loops, python in pairs:
                        assert python.render(context) == loops.render(context), (language, seat)
                    leaders += len(context["view"]["leaders"])
        seat = chooser.choice(game.prompt(state).seats)
        submit_action(table.code, seat, chooser.choice(game.legal_actions(state, seat)), row.version)
    assert leaders, "the comparison covered leaders on the map"
    odd = {"tiles": [{"q": 1, "r": -2, "colour": "a&b"}, {"q": 0, "colour": None, "token": True}],
           "leaders": [{"colour": "red", "x": 1.5, "y": -2.25, "dynasty": "x<y"}, {"seat": 1, "colour": "black"}],
           "players": [{"seat": 1, "name": "<B>"}, {"name": "nobody"}], "board": {"leader_scale": 0.75}}
    for loops, python in pairs:
        with translation.override("az"):
            assert python.render({"view": odd}) == loops.render({"view": odd})
