"""Names inside sentences the app builds in Python are isolated, and lists take the language's punctuation.

A Latin name in a Persian or Pashto sentence is wrapped in Unicode isolates (FSI U+2068 … PDI U+2069) wherever a
template is filled for people to read: log lines of moves and of host rows (undo, start), the set-up walkthrough,
results; so "Emma · ۶" never reads "۶ · Emma". Lists use the Arabic comma and semicolon in fa and ps. Exports
(CSV, BG Stats) are data, not sentences: they carry names exactly as typed.
"""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from games.engines import get_game_class
from games.engines.base import IllegalAction, LogLine, SeatInfo
from games.read.presenters import error_message, log_lines, start_line
from games.record import setup
from games.text.words import FSI, PDI, show
from games.web.jinja2env import draw
from games.write import export
from games.write.moves import submit_action, undo_own
from tests.web.test_export_import import finished

RTL = ["fa", "ps"]


def _isolated(name: str) -> str:
    return f"{FSI}{name}{PDI}"


@pytest.mark.parametrize("lang", RTL)
def test_the_two_player_catan_junior_walkthrough_isolates_both_seat_names(lang):
    cls = get_game_class("catan_junior")
    game = cls({}, [SeatInfo(0, "Emma", cls.colours[0]), SeatInfo(1, "گلالۍ", cls.colours[1])])
    step = next(s for s in setup.walkthrough(game) if s.id == "pieces")
    with translation.override(lang):
        text = show(step.text, step.details)
    assert _isolated("Emma") in text
    assert "گلالۍ" in text and _isolated("گلالۍ") not in text, "a name in the page's own script needs no isolate"
    with translation.override("en"):
        english = show(step.text, step.details)
    assert "Emma" in english and _isolated("Emma") not in english, "an English page leaves a Latin name bare"
    assert _isolated("گلالۍ") in english, "a Persian name in an English sentence is isolated"


@pytest.mark.parametrize("lang", RTL)
def test_the_start_line_isolates_every_name_and_joins_rounds_with_the_languages_punctuation(lang):
    names = {0: "Emma", 1: "Dariush", 2: "گلالۍ"}
    tie = {"rule": "highest_card", "seat": None, "tied": [0, 1],
           "rounds": [{"0": "12", "1": "12", "2": "3"}]}
    won = {"rule": "highest_card", "seat": 1, "rounds": [{"0": "12", "1": "12", "2": "3"}, {"0": "4", "1": "sorry"}]}
    with translation.override(lang):
        tied_line = start_line(tie, names, "sorry")
        won_line = start_line(won, names, "sorry")
        chosen = start_line({"rule": "chosen", "seat": 0}, names, "sorry")
    assert _isolated("Emma") in tied_line and _isolated("Dariush") in tied_line
    assert ", " not in tied_line and "، " in tied_line
    assert f"{_isolated('Emma')}، {_isolated('Dariush')}" in tied_line, "the tied names, joined with the Arabic comma"
    assert "؛ " in won_line and "; " not in won_line, "the rounds are joined with the Arabic semicolon"
    assert won_line.count(_isolated("Dariush")) == 3, "in both rounds and as the winner"
    assert _isolated("Emma") in chosen
    with translation.override("en"):
        assert start_line(tie, names, "sorry").startswith("Cards turned up for the start: Emma 12, Dariush 12, ")


@pytest.mark.django_db
@pytest.mark.parametrize("lang", RTL)
def test_a_taken_back_move_names_its_player_isolated_in_the_log(counting_table, lang):
    submit_action(counting_table.code, 0, {"kind": "draw"}, 0)
    counting_table.refresh_from_db()
    card = counting_table.actions.get(seq=1).payload["card"]
    submit_action(counting_table.code, 0, {"kind": "play", "card": card}, counting_table.version)
    counting_table.refresh_from_db()
    undo_own(counting_table.code, 0, counting_table.version)
    counting_table.refresh_from_db()
    name = counting_table.seats.get(index=0).name
    with translation.override(lang):
        undo_line = log_lines(counting_table, counting_table.game(), None)[0]["text"]
    assert _isolated(name) in undo_line, undo_line


@pytest.mark.parametrize("lang", RTL)
def test_a_refusal_and_a_prompt_that_name_a_player_isolate_the_name(lang):
    refused = IllegalAction("not_your_turn", "It is {name}'s turn.", name="Emma")
    with translation.override(lang):
        message = error_message(refused)
        prompt = show("Waiting for {names}.", {"names": ["Emma", "Leyla"]})
    assert _isolated("Emma") in message
    assert f"{_isolated('Emma')}، {_isolated('Leyla')}" in prompt
    with translation.override("en"):
        assert error_message(refused) == "It is Emma's turn."


@pytest.mark.parametrize("lang", RTL)
def test_a_joined_sentence_part_takes_the_languages_semicolon_and_a_negative_number_keeps_its_sign(lang):
    parts = LogLine("{p0}; {p1}", {"p0": LogLine("{who} {n}", {"who": "Emma", "n": -1}),
                                   "p1": LogLine("{who} {n}", {"who": "Leyla", "n": 2})})
    with translation.override(lang):
        text = show("{points}", {"points": parts})
    assert text == f"{_isolated('Emma')} {_isolated('-1')}؛ {_isolated('Leyla')} 2"
    with translation.override("en"):
        assert show("{points}", {"points": parts}) == "Emma -1; Leyla 2"


@pytest.mark.parametrize("lang", RTL)
def test_the_amun_re_tied_names_are_isolated_and_joined_with_the_arabic_comma(lang):
    seats = [{"index": i, "name": n} for i, n in enumerate(["Dariush", "Emma", "Gulalai"])]
    with translation.override(lang):
        html = draw("amun_re/names.jinja", {"ids": [2, 0, 1], "seats": seats})
    assert html.count("<bdi>") == 3
    assert "<b><bdi>Gulalai</bdi></b>، <b><bdi>Dariush</bdi></b>" in html
    assert ", " not in html
    with translation.override("en"):
        html = draw("amun_re/names.jinja", {"ids": [2, 0, 1], "seats": seats})
    assert "<b><bdi>Gulalai</bdi></b>, <b><bdi>Dariush</bdi></b> and <b><bdi>Emma</bdi></b>" in html


@pytest.mark.django_db
def test_exports_carry_names_as_typed_without_isolates():
    with translation.override("en"):
        table = finished("catan_junior", {}, 2)
    table.seats.filter(index=0).update(name="Emma")
    table.seats.filter(index=1).update(name="گلالۍ")
    for lang in ("fa", "ps", "en"):
        with translation.override(lang):
            text = export.build_csv(table)
            play = export.bgstats_play(table)
        assert "Emma" in text and "گلالۍ" in text
        assert not any(mark in text for mark in (FSI, PDI, "<bdi>")), "the CSV holds no isolates"
        assert [p["name"] for p in play["players"]] == ["Emma", "گلالۍ"]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", RTL)
def test_the_amun_re_ankh_note_lists_counts_and_tied_names_with_the_languages_comma(lang):
    from django.conf import settings

    from games.write.pregame import create_table
    from tests.conftest import phone_for
    from tests.web.test_amun_re_table import choose

    table = create_table("amun_re", {}, [{"name": n} for n in ("Dariush", "Emma", "Gulalai")], seed=3)
    chooser = random.Random(3)
    game = table.game()
    for _ in range(400):  # every province shows one ankh (choose): the first auctions tie on ankhs
        table.refresh_from_db()
        state = game.decode(table.state)
        note = game.view(state, None).get("ankh_note")
        if note and note["tied"] and state.phase != "build":
            break
        seat = game.prompt(state).seats[0]
        submit_action(table.code, seat, choose(game.legal_actions(state, seat), seat, chooser), table.version)
    else:
        pytest.fail("no tie on ankhs after an auction")
    phone = phone_for(table, 0)
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    page = phone.get(f"/t/{table.code}/").content.decode()
    shown = re.search(r'<p class="banner ankh-note".*?</p>', page, re.S).group(0)
    assert "، " in shown and ", " not in shown, shown
    assert all(f"<bdi>{n}</bdi>" in shown for n in ("Dariush", "Emma", "Gulalai")), shown


@pytest.mark.parametrize(("lang", "comma"), [("fa", "، "), ("ps", "، "), ("en", ", ")])
def test_an_engines_comma_joined_side_names_show_each_name_isolated_with_the_languages_comma(lang, comma):
    from django.template import Context, Template

    shown = Template("{% load companion %}{{ v|bdi_joined }} {% list_comma %}{% list_semicolon %}")
    with translation.override(lang):
        html = shown.render(Context({"v": "Dariush, Emma"}))
    assert html.startswith(f"<bdi>Dariush</bdi>{comma}<bdi>Emma</bdi> ")
    assert html.endswith(comma + ("؛ " if comma == "، " else "; "))
