"""A part drawn in a loop takes its id from its inputs (games/templatetags/parts.py): one id per pass."""

from __future__ import annotations

import pytest
from django.template import engines
from django.template.exceptions import TemplateSyntaxError

from games.templatetags import parts

LOOP = ('{% load parts %}<svg>{% for p in players %}<g data-player="{{ p.seat }}">'
        '{% part "row-{seat}" "g" seat=p.seat name=p.name %}<text>{{ name }}</text>{% endpart %}</g>{% endfor %}</svg>')


def _template(source: str):
    return engines["django"].from_string(source)


def test_a_part_in_a_loop_has_one_id_per_pass_made_from_its_inputs():
    players = [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "B<o"}]
    sink: list[parts.Part] = []
    skeleton = _template(LOOP).render({"players": players, parts.SINK: sink})
    assert [p.id for p in sink] == ["row-0", "row-1"]
    assert skeleton == ('<svg><g data-player="0"><!--part:row-0--></g><g data-player="1"><!--part:row-1--></g></svg>')
    assert sink[1].inner == "<text>B&lt;o</text>"
    assert sink[0].digest != sink[1].digest
    whole = _template(LOOP).render({"players": players})  # no sink: each part in place, in its element
    assert whole == parts.assemble(skeleton, sink)
    assert '<g id="row-1"><text>B&lt;o</text></g>' in whole


def test_an_id_made_of_inputs_is_escaped():
    sink: list[parts.Part] = []
    _template('{% load parts %}{% part "p-{x}" "div" x=x %}.{% endpart %}').render({"x": '"><b', parts.SINK: sink})
    assert sink[0].id == "p-&quot;&gt;&lt;b"


def test_an_id_naming_no_input_is_refused():
    with pytest.raises(TemplateSyntaxError, match="names no input"):
        _template('{% load parts %}{% part "row-{seat}" "g" who=p.seat %}{% endpart %}')
