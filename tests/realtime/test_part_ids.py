"""A part drawn in a loop takes its id from what the pass draws (games/web/parts.py): one id per pass."""

from __future__ import annotations

import pytest
from django.template import engines
from jinja2 import ChoiceLoader, DictLoader

from games.web import parts
from games.web.jinja2env import draw

TEMPLATES = {
    "t/loop.jinja": ('<svg>{% for p in players %}<g data-player="{{ p.seat }}">'
                     '{{ part("row-" ~ p.seat, "g", "t/row.jinja", seat=p.seat, name=p.name) }}</g>{% endfor %}</svg>'),
    "t/row.jinja": "<text>{{ name }}</text>",
    "t/odd.jinja": '{{ part("p-" ~ x, "div", "t/dot.jinja", x=x) }}',
    "t/dot.jinja": ".",
}


@pytest.fixture(autouse=True)
def _templates(monkeypatch):
    env = engines["jinja2"].env
    monkeypatch.setattr(env, "loader", ChoiceLoader([DictLoader(TEMPLATES), env.loader]))


def test_a_part_in_a_loop_has_one_id_per_pass_made_from_its_inputs():
    players = [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "B<o"}]
    sink: list[parts.Part] = []
    skeleton = draw("t/loop.jinja", {"players": players, parts.SINK: sink})
    assert [p.id for p in sink] == ["row-0", "row-1"]
    assert skeleton == ('<svg><g data-player="0"><!--part:row-0--></g><g data-player="1"><!--part:row-1--></g></svg>')
    assert sink[1].inner == "<text>B&lt;o</text>"
    assert sink[0].digest != sink[1].digest
    whole = draw("t/loop.jinja", {"players": players})  # no sink: each part in place, in its element
    assert whole == parts.assemble(skeleton, sink)
    assert '<g id="row-1"><text>B&lt;o</text></g>' in whole


def test_an_id_made_of_inputs_is_escaped():
    sink: list[parts.Part] = []
    draw("t/odd.jinja", {"x": '"><b', parts.SINK: sink})
    assert sink[0].id == "p-&#34;&gt;&lt;b"  # as Jinja2 escapes every value
