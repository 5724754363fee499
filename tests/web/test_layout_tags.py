"""Tap targets a thumb can hit, and what the boards drawn by Jinja2 show (each game's layout.py, *.jinja).

The filters regroup the legal actions by where their targets are drawn. The board templates are checked
on parsed HTML against the engine's own view and legal actions: pieces placed where the view puts them,
legal targets lit and nothing else, names escaped, words in the reader's language, other seats' secrets
absent.
"""

from __future__ import annotations

import json
import math
import random
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines
from django.utils import translation
from django.utils.translation import gettext
from jinja2 import meta, nodes

from games.read import regions
from games.templatetags.companion import shown
from games.web.jinja2env import draw
from games.write.moves import submit_action
from games.write.pregame import create_table
from shelf.sorry import pawn_words, square_words
from shelf.sorry.board import CELL
from shelf.sorry.layout import HIT_RADIUS as SORRY_HIT_RADIUS
from shelf.sorry.layout import destinations as sorry_destinations
from shelf.yellow_yangtze.layout import hex_picks as yy_hex_picks
from shelf.yellow_yangtze.layout import other_moves as yy_other_moves
from shelf.yellow_yangtze.layout import picks as yy_picks
from tests.conftest import phone_for
from tests.registry import GAMES

sorry_pawn, sorry_square = shown(pawn_words), shown(square_words)

NAMES = ("Ann", "B'o<b", "Cy", "Di")
LATIN_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")  # a Persian page writes its text's digits in Persian


class Node:
    """One parsed element: ``tag``, ``attrs`` (a dict, entities decoded), ``children`` and ``text``."""

    def __init__(self, tag: str, attrs: dict[str, str | None]) -> None:
        self.tag, self.attrs, self.children, self.parts = tag, attrs, [], []

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    @property
    def text(self) -> str:
        return "".join(self.parts) + "".join(child.text for child in self.children)

    def all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        """Every descendant with ``tag``, the class ``cls`` and the attributes ``attrs`` (names with ``_`` as ``-``)."""
        found = []
        for child in self.children:
            if ((tag is None or child.tag == tag) and (cls is None or cls in child.classes)
                    and all(child.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())):
                found.append(child)
            found.extend(child.all(tag, cls, **attrs))
        return found

    def one(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Node:
        found = self.all(tag, cls, **attrs)
        assert len(found) == 1, (tag, cls, attrs, len(found))
        return found[0]


class _Tree(HTMLParser):
    VOID = {"br", "hr", "img", "input", "link", "meta", "source", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in self.VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, dict(attrs)))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].parts.append(data)


def parse(html: str) -> Node:
    """The parsed tree of ``html`` (its root holds the top-level elements)."""
    tree = _Tree()
    tree.feed(html)
    tree.close()
    return tree.root


def board_of(client, code: str, language: str) -> Node:
    """The ``#r-board`` region of the phone page ``client`` gets in ``language``."""
    client.cookies["django_language"] = language
    page = client.get(f"/t/{code}/")
    assert page.status_code == 200
    return parse(page.content.decode()).one(id="r-board")


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
    assert yy_hex_picks(legal + [{"kind": "tile", "payload": {"colour": "blue", "hex": [1, 2]}}]) == [
        (1, 2, "tile-red tile-blue"), (3, 2, "leader-black"), (1, 1, "peasants-1 peasants-0")], \
        "one target per hex, every pick legal there"
    assert yy_hex_picks([{"kind": "tile", "payload": {"hex": [7]}}, {"kind": "tile", "payload": None}]) == []


def test_yellow_yangtze_other_moves_are_the_groups_regroup_makes_without_the_placements():
    legal = [{"kind": "tile", "n": 1}, {"kind": "withdraw", "n": 2}, {"kind": "withdraw", "n": 3},
             {"kind": "leader", "n": 4}, {"kind": "swap", "n": 5}, {"kind": "tile", "n": 6}, {"kind": "swap", "n": 7},
             {"kind": "peasants", "n": 8}, {"kind": "pass", "n": 9}]
    regrouped = engines["django"].from_string(
        "{% regroup legal by kind as kinds %}{% for k in kinds %}{{ k.grouper }}:{% for i in k.list %}{{ i.n }}"
        "{% endfor %} {% endfor %}").render({"legal": legal})
    assert regrouped == "tile:1 withdraw:23 leader:4 swap:5 tile:6 swap:7 peasants:8 pass:9 "
    assert [(g["grouper"], [i["n"] for i in g["list"]]) for g in yy_other_moves(legal)] == [
        ("withdraw", [2, 3]), ("swap", [5]), ("swap", [7]), ("pass", [9])], "regroup's groups, placements left out"


def test_the_sorry_board_draws_close_destinations_as_one_target_that_opens_the_pawns_list():
    legal = [move("R0", "T10", "R0 to 10"), move("R0", "T11", "R0 to 11"), move("R0", "T20", "R0 to 20")]
    view = {"layout": {"viewbox": "0 0 376 376", "points": POINTS},
            "pawns": [{"id": "R0", "colour": "red", "loc": "T5", "x": 50, "y": 20},
                      {"id": "B1", "colour": "blue", "loc": "START", "x": 80, "y": 90}], "draw_pile": 40}
    board = parse(draw("sorry/board.jinja", {"view": view, "legal": legal}))
    merged = board.one("g", "merged")
    assert merged.attrs["data-open"] == "moves-R0" and "data-action" not in merged.attrs
    assert merged.one("title").text == "R0 to 10 — R0 to 11", "the merged target names both moves"
    assert merged.one("text", "merged-n").text == "2"
    assert [(c.attrs["cx"], c.attrs["cy"]) for c in merged.all("circle", fill="#2a6")] == [
        ("100", "20"), (str(100 + CELL), "20")], "a dot on each square of the merged target"
    single = [g for g in board.all("g", "dest") if "merged" not in g.classes]
    assert len(single) == 1 and single[0].one("title").text == "R0 to 20", "the far one keeps its one-tap target"
    hit = board.one("circle", "pawn-hit")
    assert hit.attrs == {
        "class": "hit tap pawn-hit", "r": "25", "cx": "50", "cy": "20", "data-piece": "R0", "data-open": "moves-R0",
        "id": "hit-R0"}, "a 44 px hit area over the movable pawn only"
    red, blue = board.one("g", "pawn", data_pawn="R0"), board.one("g", "pawn", data_pawn="B1")
    assert hit.one("title").text == red.one("title").text == "red pawn 1 — square 6", (
        "the hit area covers the pawn: it names the pawn as the pawn does")
    assert board.one("circle", "pawn-ring").attrs == {"class": "pawn-ring", "r": "7", "cx": "50", "cy": "20"}
    assert board.one("circle", "pawn-core").attrs == {
        "class": "hit tap pawn-core", "r": str(CELL // 2), "cx": "50", "cy": "20", "data-piece": "R0",
        "data-open": "moves-R0", "data-hit": "hit-R0"}, "the pawn's own square picks it, over every hit area"
    for pawn in (red, blue):  # the pawns are the same on every phone: nothing of the seat's taps
        assert not {"tap", "legal"} & pawn.classes and not {"data-open", "data-hit"} & set(pawn.attrs)
    assert blue.attrs["transform"] == "translate(80 90)" and blue.one("text").text == "2"
    svg = board.one("svg")
    assert [c.attrs["id"] for c in svg.children if c.tag == "g"] == ["sorry-pawns", "sorry-targets", "sorry-card"], (
        "the targets are drawn over the pawns")
    targets = [c.attrs.get("class") for c in board.one("g", id="sorry-targets").children][:3]
    assert targets == ["hit tap pawn-hit", "pawn-ring", "hit tap pawn-core"], (
        "the ring follows its hit circle (companion.css shows the pick by it), the pawn's own square over both")


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fa"])
def test_the_sorry_board_places_every_pawn_and_lights_exactly_the_legal_moves(language):
    table = create_table("sorry", {"team_mode": True}, [{"name": n} for n in NAMES], seed=5)
    phones = [phone_for(table, seat) for seat in range(4)]
    chooser, lit = random.Random(5), 0
    for _ in range(40):
        table.refresh_from_db()
        game = table.game()
        state = game.decode(table.state)
        for seat, phone in enumerate(phones):
            view, legal = game.view(state, seat), game.legal_actions(state, seat)
            board = board_of(phone, table.code, language)
            pawns = {g.attrs["data-pawn"]: g for g in board.all("g", "pawn")}
            assert set(pawns) == {p["id"] for p in view["pawns"]}
            movable = {a["pawn"] for a in legal if "pawn" in a}
            with translation.override(language):
                for p in view["pawns"]:
                    g = pawns[p["id"]]
                    assert g.attrs["data-loc"] == p["loc"] and g.attrs["transform"] == f"translate({p['x']} {p['y']})"
                    assert g.classes == {"pawn", p["colour"]} and "data-open" not in g.attrs
                    assert g.one("title").text.translate(LATIN_DIGITS) == f"{sorry_pawn(p['id'])} — {sorry_square(p['loc'])}"
            hits = {c.attrs["data-piece"]: c for c in board.all("circle", "pawn-hit")}
            assert {c.attrs["id"] for c in hits.values()} == {f"hit-{p}" for p in movable}
            assert {c.attrs["data-hit"] for c in board.all("circle", "pawn-core")} == {f"hit-{p}" for p in movable}
            assert len(board.all("circle", "pawn-ring")) == len(movable)
            for piece, hit in hits.items():
                assert hit.one("title").text == pawns[piece].one("title").text
            simple = [a for a in legal if a.get("kind") == "move" and a.get("to") and not a.get("then")]
            shown = [json.loads(g.attrs["data-action"]) for g in board.all("g", "dest") if "merged" not in g.classes]
            merged = sum(int(g.one("text", "merged-n").text) for g in board.all("g", "merged"))
            assert all(a in simple for a in shown) and len(shown) + merged == len(simple), "every simple move, once"
            for target in board.all("g", "dest"):
                assert target.attrs["data-for"] in movable
            lit += len(simple)
        seat = chooser.choice(game.prompt(state).seats)
        submit_action(table.code, seat, chooser.choice(game.legal_actions(state, seat)), table.version)
    assert lit >= 10, "the boards compared had destinations on them"


def _pick(action: dict) -> str:
    return f"peasants-{int(bool(action.get('leader')))}" if action["kind"] == "peasants" else \
        f"{action['kind']}-{action.get('colour', '')}"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fa"])
def test_the_yellow_yangtze_map_shows_the_view_and_lights_exactly_the_legal_hexes(language):
    table = create_table("yellow_yangtze", {}, [{"name": n} for n in NAMES], seed=7)
    phones = [phone_for(table, seat) for seat in range(4)]
    chooser, targets, leaders, steps = random.Random(7), 0, 0, set()
    for _ in range(45):
        table.refresh_from_db()
        game = table.game()
        state = game.decode(table.state)
        if game.result(state) is not None:
            break
        prompt = game.prompt(state)
        for seat, phone in enumerate(phones):
            view, legal = game.view(state, seat), game.legal_actions(state, seat)
            board = board_of(phone, table.code, language)
            svg = board.one("svg", "yy-svg")
            assert sorted((u.attrs["data-tile"], " ".join(sorted(u.classes))) for u in svg.all("use", "t")) == sorted(
                (f"{t['q']},{t['r']}", " ".join(sorted({"t", t["colour"], *(["token"] if t.get("token") else [])})))
                for t in view["tiles"]), "every tile where the view puts it, in its colour"
            with translation.override(language):
                for leader in view["leaders"]:
                    g = svg.one("g", "leader", data_leader=f"{leader['seat']}-{leader['colour']}")
                    name = next(p["name"] for p in view["players"] if p["seat"] == leader["seat"])
                    assert g.one("title").text == f"{name} — {gettext(leader['colour'])} {gettext('leader')}"
                    assert g.one("use").attrs["href"] == f"#yyd-{leader['dynasty']}"
                    leaders += 1
            on_map = [a for a in legal if "hex" in a]
            if prompt.step == "action" and seat in prompt.seats:
                drawn = {g.attrs["data-hex"]: g.attrs["data-picks"].split() for g in svg.all("g", "yy-t")}
                wanted: dict[str, list[str]] = {}
                for a in on_map:
                    wanted.setdefault("{},{}".format(*a["hex"]), []).append(_pick(a))
                assert drawn == wanted, "one target per legal hex, naming every pick legal there"
                assert all("data-action" not in g.attrs for g in svg.all("g", "yy-t")), "the picker arms them"
                targets += len(drawn)
            else:
                drawn_actions = [json.loads(g.attrs["data-action"]) for g in svg.all("g", "yy-t")]
                assert drawn_actions == on_map, (prompt.step, "each legal hex its own target, posted as it is")
                targets += len(drawn_actions)
            screen = board.all("section", "yy-screen")
            assert len(screen) == 1, "the seat's own screen"
            hand = {s.attrs["data-hand-colour"]: s for s in screen[0].all("span", "tile")}
            assert set(hand) == {c for c, n in view["private"]["hand"].items() if n}, "its own tiles, no one else's"
        steps.add(prompt.step)
        seat = prompt.seats[0]
        submit_action(table.code, seat, chooser.choice(game.legal_actions(state, seat)), table.version)
    assert targets >= 20 and leaders and "action" in steps, "the maps compared had targets and leaders"
    screen_page = parse(phones[0].get(f"/t/{table.code}/screen/").content.decode())
    assert not screen_page.all("section", "yy-screen") and screen_page.all("g", "leader"), "no screen on the table's"


def test_the_yellow_yangtze_map_escapes_what_it_prints_and_tolerates_missing_fields():
    odd = {"board": {"leader_scale": 0.75},
           "tiles": [{"q": 1, "r": -2, "colour": "a&b"}, {"q": 0, "colour": None, "token": True}],
           "leaders": [{"colour": "red", "x": 1.5, "y": -2.25, "dynasty": "x<y"}, {"seat": 1, "colour": "black"}],
           "players": [{"seat": 1, "name": "<B>"}, {"name": "nobody"}],
           "pagodas": [{"x": 3, "y": 4, "colour": "green"}]}
    legal = [{"kind": "tile", "payload": {"hex": [1, -2], "colour": "r\"d"}, "json": '{"a":"b\'c"}', "label": "<x>"}]
    with translation.override("az"):
        # The map's three layers: its tiles, a seat's targets (a step other than the action step), its pieces.
        html = "".join(engines["jinja2"].get_template(f"yellow_yangtze/{name}.jinja").render(inputs) for name, inputs in (
            ("map", {"tiles": odd["tiles"]}),
            ("targets", {"legal": legal}),
            ("pieces", {"leader_scale": odd["board"]["leader_scale"], "leaders": odd["leaders"],
                        "players": odd["players"], "pagodas": odd["pagodas"]})))
        tree = parse(html)
        assert [u.attrs["class"] for u in tree.all("use", "t")] == ["t a&b", "t None token"]
        assert tree.one("g", data_leader="1-black").one("title").text == f"<B> — {gettext('black')} {gettext('leader')}"
        assert tree.one("g", data_leader="-red").one("use").attrs["href"] == "#yyd-x<y"
        assert tree.one("rect", "pagoda").one("title").text == f"{gettext('pagoda')} — {gettext('green')}"
    target = tree.one("g", "yy-t")
    assert json.loads(target.attrs["data-action"]) == {"a": "b'c"} and target.one("title").text == "<x>"
    assert "<B>" not in html and "x<y" not in html and "a&b" not in html and "b'c" not in html, "escaped"


def test_jinja_translations_are_django_catalogue_words_escaped_as_django_tags_escape_them():
    """``_("literal")`` is ``{% translate "literal" %}`` (as written), ``gettext(value)`` is ``{% translate value %}``
    (escaped), ``_("... %(n)s", n=...)`` and ``ngettext`` are ``{% blocktranslate %}`` (as written, the values escaped)."""
    env = engines["jinja2"].env
    django = engines["django"]
    for language in ("en", "fa"):
        with translation.override(language):
            drawn = env.from_string(
                '{{ _("Yellow & Yangtze board") }}|{{ _("Peasants\' Revolt") }}|{{ gettext(word) }}|'
                '{{ _("%(name)s\'s turn — %(n)s of 2 actions left", name=name, n=2) }}|'
                '{{ ngettext("%(n)s tile", "%(n)s tiles", 2, n=2) }}|{{ pgettext("dynasty", "Lion") }}').render(
                word="a&b", name="<Ann>")
            expected = django.from_string(
                '{% load i18n %}{% translate "Yellow & Yangtze board" %}|{% translate "Peasants\' Revolt" %}|'
                '{% translate word %}|{% blocktranslate with n=2 %}{{ name }}\'s turn — {{ n }} of 2 actions left'
                '{% endblocktranslate %}|{% blocktranslate count n=2 %}{{ n }} tile{% plural %}{{ n }} tiles'
                '{% endblocktranslate %}|{% translate "Lion" context "dynasty" %}').render(
                {"word": "a&b", "name": "<Ann>"})
            assert drawn.replace("&#39;", "&#x27;") == expected, language
    with translation.override("fa"):
        assert gettext("leader") != "leader" and gettext("leader") in env.from_string("{{ _('leader') }}").render()


#: A part drawn by a Jinja2 template: ``part(ID, "ELEMENT", "body.jinja", name=value, ...)``; its body is the template.
PART_CALL = re.compile(r'part\((?:[^(),]|\([^()]*\))+,\s*"[^"]+",\s*"([^"]+)"((?:[^()]|\([^()]*\))*)\)')


def test_each_jinja_template_reads_only_the_inputs_its_includer_passes():
    """A Jinja2 template sees only what it is drawn from, and reading anything else is a bug caught here: a part's
    body exactly the inputs its ``part(...)`` call names, a template Django draws with ``{% jinja %}`` exactly what
    the tag passes, a region's template (games/read/regions.py) and the board and controls templates it includes at
    most the region's declared keys (a game's static geometry, the static region's). A library of macros (imported by other Jinja2 templates) reads nothing at all."""
    # The Jinja2 backend's folders: the platform's templates and each game's (shelf/<slug>/templates/).
    roots = [Path(d) for backend in settings.TEMPLATES if backend["BACKEND"].endswith("Jinja2") for d in backend["DIRS"]]
    env = engines["jinja2"].env
    jinja_templates = {str(p.relative_to(root)) for root in roots for p in root.rglob("*.jinja")}
    exactly: dict[str, set[str]] = {}
    for path in (p for root in roots for p in root.rglob("*.html")):
        for name, args in re.findall(r'{%\s*jinja\s+"([^"]+)"([^%]*)%}', path.read_text()):
            exactly.setdefault(name, set()).update(re.findall(r"(\w+)=", args))
    for name in jinja_templates:
        for body, args in PART_CALL.findall(env.loader.get_source(env, name)[0]):
            exactly.setdefault(body, set()).update(re.findall(r"(\w+)=", args))
    exactly[regions.LOG_LINE] = {"line", "me", "table"}  # regions.render_line: one line, alone or in the log region
    helpers = {"snapshot", "step_rule", "_parts"}
    at_most = {region.template: set(region.reads) | helpers for region in regions.BY_NAME.values()}
    included = {"board": {"games/_board.jinja"} | {f"{slug}/board.jinja" for slug in GAMES},
                "controls": {"games/_controls.jinja"} | {f"{slug}/controls.jinja" for slug in GAMES},
                "static": {f"{slug}/static.jinja" for slug in GAMES}}
    for name, templates in included.items():
        for template in templates & jinja_templates:
            at_most[template] = set(regions.BY_NAME[name].reads) | helpers
    assert jinja_templates == set(exactly) | set(at_most) | _pieces(env, jinja_templates) and jinja_templates, (
        "every Jinja2 template is drawn, by its name")
    # A Jinja2 template imported or included by another by its name (macros, a shared piece) is drawn from what
    # that one has: at most its includer's inputs and the names its includer sets.
    for name in _pieces(env, jinja_templates) - set(exactly) - set(at_most):
        allowed = set()
        for includer in jinja_templates:
            if name in _pieces(env, {includer}):
                read, own = _reads(env, includer)
                allowed |= exactly.get(includer, at_most.get(includer, read)) | own
        at_most[name] = allowed
    for name, inputs in exactly.items():
        read, own = _reads(env, name)
        assert read - (own - inputs) == inputs, (name, read - (own - inputs), inputs)
    for name, keys in at_most.items():
        read, own = _reads(env, name)
        assert read - own <= keys, (name, read - own - keys)


def _pieces(env, names) -> set[str]:
    """The templates ``names`` import or include by their name (a template named by a value, a region's board, is
    one of the region's)."""
    return {found for name in names
            for found in meta.find_referenced_templates(env.parse(env.loader.get_source(env, name)[0]))
            if found is not None}


def _reads(env, name: str) -> tuple[set[str], set[str]]:
    """The names template ``name`` may read from what it is drawn from (not the environment's globals), and the
    names it sets itself: Jinja2 counts a name set in one branch of an ``if`` as read, for the other branch, so a
    name the template sets is an input only where its includer passes it (``{% set pawns = pawns or [] %}``)."""
    tree = env.parse(env.loader.get_source(env, name)[0])
    own = {target.name for assign in tree.find_all((nodes.Assign, nodes.AssignBlock))
           for target in (assign.target, *assign.target.find_all(nodes.Name)) if isinstance(target, nodes.Name)}
    own |= {target.name for block in tree.find_all(nodes.With) for target in block.targets
            if isinstance(target, nodes.Name)}  # {% with ids = ... %}{% include ... %}{% endwith %}
    return meta.find_undeclared_variables(tree) - set(env.globals), own
