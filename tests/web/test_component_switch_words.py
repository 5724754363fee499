"""The log line of the host's component switch names the mode in the reader's words (DESIGN.md "Words":
component mode), never the machine value ``physical`` / ``digital``."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.read.presenters import log_lines
from games.write.host import set_components
from games.write.pregame import create_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "physical", "digital"), [
    ("en", "physical", "digital"),
    ("fa", "فیزیکی", "دیجیتال"),
    ("ps", "فزیکي", "ډیجیټل"),
    ("az", "fiziki", "rəqəmsal"),
])
def test_the_component_switch_line_names_the_mode_in_the_readers_words(language, physical, digital):
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}])
    set_components(table.code, "physical")
    table.refresh_from_db()
    with translation.override(language):
        to_physical = log_lines(table, table.game(), 0)[0]["text"]
    set_components(table.code, "digital")
    table.refresh_from_db()
    with translation.override(language):
        to_digital = log_lines(table, table.game(), 0)[0]["text"]
    assert physical in to_physical and digital not in to_physical, to_physical
    assert digital in to_digital and physical not in to_digital, to_digital
    if language != "en":
        for line in (to_physical, to_digital):
            assert "physical" not in line and "digital" not in line, line
