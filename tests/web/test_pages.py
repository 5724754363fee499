"""Phone pages, join links, host tools and secrecy on rendered pages (fixture game)."""

from __future__ import annotations

import html
import re

import pytest
from django.template import engines
from django.test import Client

from games.engines.base import IllegalAction
from games.entry.access import host_cookie, seat_cookie
from games.write.corrections import confirm_correction, propose_correction
from games.write.host import hand_over_seat
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import phone_for, post_action
from tests.registry import GAMES

pytestmark = pytest.mark.django_db


def hand_of(table, seat: int) -> list[str]:
    table.refresh_from_db()
    return table.state["hands"][seat]


def test_creating_a_table_in_the_lobby_makes_this_phone_host_and_first_seat():
    phone = Client()
    response = phone.post("/", {"game": "counting", "players": 3, "name_0": "Alice", "name_1": "Bob",
                                "name_2": "Carol", "opt-components": "digital"})
    assert response.status_code == 302
    code = response["Location"].split("/")[2]
    assert phone.cookies[host_cookie(code)] and phone.cookies[seat_cookie(code)]
    page = phone.get(f"/t/{code}/")
    assert page.status_code == 200 and "Alice" in page.content.decode()
    lobby = phone.get("/")
    assert code in lobby.content.decode(), "the lobby lists the tables of this device"


def test_the_lobby_refuses_a_player_count_the_game_does_not_allow():
    response = Client().post("/", {"game": "counting", "players": 5, "opt-components": "digital"})
    assert response.status_code == 200
    assert "2 to 4 players" in response.content.decode()


def test_a_phone_without_a_seat_cookie_gets_no_seat_page_and_cannot_act(counting_table):
    stranger = Client()
    assert stranger.get(f"/t/{counting_table.code}/").status_code == 403
    response = post_action(stranger, counting_table, {"kind": "draw"})
    assert response.status_code == 403
    assert not counting_table.actions.filter(seq__gt=0).exists()


def test_the_same_phone_rejoins_after_a_reload(counting_table):
    alice = phone_for(counting_table, 0)
    for _ in range(2):
        page = alice.get(f"/t/{counting_table.code}/")
        assert page.status_code == 200 and "Your turn." in page.content.decode()


def test_a_tap_swaps_in_the_new_fragment(counting_table):
    alice = phone_for(counting_table, 0)
    response = post_action(alice, counting_table, {"kind": "draw"})
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="table"') and 'data-version="1"' in body


def test_an_illegal_tap_is_a_4xx_with_the_rule_code_and_nothing_written(counting_table):
    bob = phone_for(counting_table, 1)
    response = post_action(bob, counting_table, {"kind": "draw"})
    assert response.status_code == 422  # Unprocessable: well-formed, refused by the rules
    assert 'data-code="not_your_turn"' in response.content.decode()
    assert not counting_table.actions.filter(seq__gt=0).exists()


@pytest.mark.parametrize("raw", ["not json", "[1, 2]", '{"kind": 3}', '{"kind": "play"}'])
def test_garbage_input_is_a_4xx_never_a_500(counting_table, raw):
    alice = phone_for(counting_table, 0)
    response = alice.post(f"/t/{counting_table.code}/act/", {"action": raw, "version": "0"}, HTTP_HX_REQUEST="true")
    assert 400 <= response.status_code < 500


def test_a_stale_tap_is_a_409_showing_the_fresh_position(counting_table):
    alice = phone_for(counting_table, 0)
    post_action(alice, counting_table, {"kind": "draw"})
    response = post_action(alice, counting_table, {"kind": "draw"}, version=0)
    assert response.status_code == 409
    assert 'data-version="1"' in response.content.decode()


def test_no_page_for_carol_contains_alices_hand(counting_table):
    alice, carol = phone_for(counting_table, 0), phone_for(counting_table, 2)
    post_action(alice, counting_table, {"kind": "draw"})
    card = hand_of(counting_table, 0)[0]
    alice_page = alice.get(f"/t/{counting_table.code}/").content.decode()
    assert f"You drew a {card}" in alice_page
    for page in [carol.get(f"/t/{counting_table.code}/"), carol.get(f"/t/{counting_table.code}/fragment/"),
                 Client().get(f"/t/{counting_table.code}/screen/")]:
        body = page.content.decode()
        assert "You drew" not in body and not re.search(r"drew a \d", body)
        # Carol's own hand is empty, so any non-empty hand on her page would be Alice's.
        assert f"'hand': ['{card}']" not in html.unescape(body)
    assert f"'hand': ['{card}']" in html.unescape(alice_page)


def test_the_host_hands_a_seat_to_another_phone_and_the_old_link_dies(counting_table):
    host = Client()
    response = host.get(f"/t/{counting_table.code}/host/")
    assert response.status_code == 403, "host tools need the host cookie"
    bob_old = phone_for(counting_table, 1)
    old_token = counting_table.seats.get(index=1).token
    hand_over_seat(counting_table.code, 1)
    assert bob_old.get(f"/t/{counting_table.code}/").status_code == 403
    assert Client().post(f"/t/{counting_table.code}/join/", {"token": old_token}).status_code == 404
    assert phone_for(counting_table, 1).get(f"/t/{counting_table.code}/").status_code == 200


def _host_client(table) -> Client:
    client = Client()
    response = client.post("/", {"game": "counting", "players": 2, "opt-components": "digital"})
    code = response["Location"].split("/")[2]
    return client, code


def test_host_tools_show_qr_codes_and_undo_the_last_move():
    host, code = _host_client(None)
    page = host.get(f"/t/{code}/host/")
    assert page.status_code == 200 and "/join/" in page.content.decode()
    qr = host.get(f"/t/{code}/host/qr/1.svg")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content
    from games.models import Table

    table = Table.objects.get(code=code)
    post_action(host, table, {"kind": "draw"})
    response = host.post(f"/t/{code}/host/undo/", {"version": 1})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.version == 2 and table.state["hands"][0] == []


def test_the_phone_page_sets_lang_and_dir_from_the_language(counting_table):
    alice = phone_for(counting_table, 0)
    alice.cookies["django_language"] = "fa"
    body = alice.get(f"/t/{counting_table.code}/").content.decode()
    assert '<html lang="fa" dir="rtl" data-digits="persian">' in body


def test_the_manifest_makes_the_app_installable(client):
    data = client.get("/manifest.webmanifest").json()
    assert data["display"] == "standalone" and {i["sizes"] for i in data["icons"]} == {"192x192", "512x512"}
    assert client.get("/static/icons/icon-192.png").status_code == 200


def test_the_lobby_lets_each_player_pick_a_colour_and_refuses_two_alike():
    phone = Client()
    same = phone.post("/", {"game": "sorry", "players": 2, "name_0": "A", "colour_0": "blue", "name_1": "B",
                            "colour_1": "blue", "opt-components": "digital"})
    assert same.status_code == 200 and "colour of their own" in same.content.decode()
    ok = phone.post("/", {"game": "sorry", "players": 2, "name_0": "A", "colour_0": "green", "name_1": "B",
                          "colour_1": "red", "opt-components": "digital"})
    assert ok.status_code == 302
    from games.models import Table

    table = Table.objects.get()
    assert [(s.name, s.colour) for s in table.seats.all()] == [("A", "green"), ("B", "red")]


def test_switching_the_game_in_the_lobby_swaps_in_its_seats_and_options():
    fragment = Client().get("/?game=amun_re", HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<div id="options"')
    assert 'name="opt-hand_sum_mode"' in fragment and '<option value="5">5</option>' in fragment


@pytest.mark.parametrize("version", ["", "abc", "1.5"])
def test_a_tap_without_a_whole_version_is_refused(counting_table, version):
    alice = phone_for(counting_table, 0)
    response = alice.post(f"/t/{counting_table.code}/act/", {"action": '{"kind": "draw"}', "version": version},
                          HTTP_HX_REQUEST="true")
    assert response.status_code == 422 and 'data-code="bad_version"' in response.content.decode()
    assert not counting_table.actions.filter(seq__gt=0).exists()


def test_absurdly_nested_json_is_a_4xx_on_the_page_and_the_api(counting_table):
    alice = phone_for(counting_table, 0)
    deep = "[" * 100_000 + "]" * 100_000
    page = alice.post(f"/t/{counting_table.code}/act/", {"action": deep, "version": 0}, HTTP_HX_REQUEST="true")
    assert page.status_code == 422
    api = Client().post(f"/api/tables/{counting_table.code}/actions/", '{"action": ' + deep + ', "version": 0}',
                        content_type="application/json",
                        HTTP_AUTHORIZATION=f"Bearer {counting_table.seats.get(index=0).token}")
    # Longer than any door reads a tap: refused unread, with the code the page and the socket give.
    assert api.status_code == 400 and api.json()["code"] == "too_large"
    assert 'data-code="too_large"' in page.content.decode() or page.json()["code"] == "too_large"


def test_the_seat_qr_code_is_a_standalone_svg_a_browser_can_show(counting_table):
    host, code = _host_client(None)
    svg = host.get(f"/t/{code}/host/qr/0.svg").content
    assert b'xmlns="http://www.w3.org/2000/svg"' in svg


def test_fixing_a_move_from_the_log_offers_what_it_could_have_been_and_the_others_confirm(db, fixture_game_registered):
    table = create_table("counting", {"components": "physical"}, [{"name": "Alice"}, {"name": "Bob"}])
    alice, bob = phone_for(table, 0), phone_for(table, 1)
    post_action(alice, table, {"kind": "draw", "card": "1"})
    page = alice.get(f"/t/{table.code}/").content.decode()
    assert f"/t/{table.code}/corrections/fix/1/" in page, "each counted move has a fix link"
    choices = alice.get(f"/t/{table.code}/corrections/fix/1/").content.decode()
    assert "I drew a 3" in choices and "I drew a 1" not in choices, "the alternatives exclude what was logged"
    response = alice.post(f"/t/{table.code}/corrections/", {"target": 1, "reason": "it was a 3",
                                                            "replacement": '{"card": "3", "kind": "draw"}'})
    assert response.status_code == 302
    bob_page = bob.get(f"/t/{table.code}/").content.decode()
    assert "Confirm" in bob_page
    correction = table.corrections.get()
    bob.post(f"/t/{table.code}/corrections/{correction.id}/", {"answer": "yes"})
    table.refresh_from_db()
    assert table.state["hands"][0] == ["3"]


def test_a_correction_that_breaks_a_later_move_names_that_move(db, fixture_game_registered):
    table = create_table("counting", {"components": "physical"}, [{"name": "Alice"}, {"name": "Bob"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    submit_action(table.code, 0, {"kind": "play", "card": "1"}, 1)
    correction = propose_correction(table.code, 1, 1, {"kind": "draw", "card": "2"})
    with pytest.raises(IllegalAction) as err:
        confirm_correction(table.code, correction.id, 0)
    assert err.value.code == "log_conflict" and "move #2" in err.value.message


@pytest.mark.parametrize("slug", GAMES)
def test_board_coordinates_are_never_written_with_a_decimal_comma(db, slug):
    """Azərbaycanca formats 377.3 as 377,3; SVG would then draw nothing where it should."""
    table = create_table(slug, {}, [{"name": "A"}, {"name": "B"}], seed=2)
    phone = phone_for(table, 0)
    phone.cookies["django_language"] = "az"
    body = phone.get(f"/t/{table.code}/").content.decode()
    assert '<html lang="az"' in body
    assert not re.search(r'(?:x|y|cx|cy|r|x1|y1|x2|y2|width|height)="-?\d+,\d', body)


def test_an_unknown_game_in_the_lobby_url_falls_back_instead_of_failing():
    assert Client().get("/?game=chess").status_code == 200
    assert Client().post("/", {"game": "chess", "players": 2}).status_code == 200


def test_only_the_mover_sees_what_their_move_could_have_been(db, fixture_game_registered):
    """The alternatives come from the mover's options, which may be secret (a hand, an offering)."""
    table = create_table("counting", {"components": "physical"}, [{"name": "Alice"}, {"name": "Bob"}])
    alice, bob = phone_for(table, 0), phone_for(table, 1)
    post_action(alice, table, {"kind": "draw", "card": "1"})
    post_action(alice, table, {"kind": "play", "card": "1"})
    others_page = bob.get(f"/t/{table.code}/corrections/fix/2/").content.decode()
    assert "Play your" not in others_page and "Only Alice can say" in others_page
    assert "drop it" in others_page
    own_page = alice.get(f"/t/{table.code}/corrections/fix/1/").content.decode()
    assert "I drew a 2" in own_page


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_draws_its_own_board_on_the_phone_and_the_table_screen(db, slug, monkeypatch):
    """README "phone template interface": a game's ``shelf/<slug>/templates/<slug>/board.jinja`` is what the pages
    draw."""
    env = engines["jinja2"].env
    drawn: list[str] = []
    real = env.get_template

    def recording(name, *args, **kwargs):
        drawn.append(str(name))
        return real(name, *args, **kwargs)

    monkeypatch.setattr(env, "get_template", recording)
    table = create_table(slug, {}, [{"name": "A"}, {"name": "B"}], seed=2)
    for page in (phone_for(table, 0).get(f"/t/{table.code}/"), Client().get(f"/t/{table.code}/screen/")):
        assert page.status_code == 200
        assert 'id="r-board"' in page.content.decode()
    assert f"{slug}/board.jinja" in drawn

