"""Every refusal and error page: the site layout, the reader's language and direction, a way back."""

from __future__ import annotations

import re

import pytest
from django.test import Client, RequestFactory
from django.utils import translation

from games.web import error_views
from tests.conftest import phone_for

pytestmark = pytest.mark.django_db


def reader(lang: str) -> Client:
    """A phone whose reader chose ``lang`` (the language cookie the picker sets)."""
    client = Client()
    client.cookies["django_language"] = lang
    return client


def assert_site_page(html: str, lang: str, direction: str, back: str) -> None:
    """The page is drawn by base.html in ``lang``/``direction``, with a viewport and a link to ``back``."""
    assert re.search(rf'<html lang="{lang}" dir="{direction}" data-digits="(latin|persian)">', html), html[:300]
    assert '<meta name="viewport" content="width=device-width' in html
    assert 'class="topbar"' in html and 'name="language"' in html, "the site layout, with its language picker"
    assert re.search(rf'<a class="button back" href="{re.escape(back)}">', html), "a way back"


def test_an_unknown_page_is_a_404_in_the_readers_language_and_direction():
    response = reader("fa").get("/no/such/page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert_site_page(html, "fa", "rtl", "/")
    assert "صفحه پیدا نشد" in html and "بازگشت به صفحهٔ اول" in html


def test_an_unknown_api_path_stays_json():
    response = reader("fa").get("/api/no-such-thing/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_the_host_only_refusal_is_a_403_page_with_a_way_back_to_the_table(counting_table):
    player = phone_for(counting_table, 1)
    player.cookies["django_language"] = "ps"
    response = player.get(f"/t/{counting_table.code}/host/")
    html = response.content.decode()
    assert response.status_code == 403
    assert_site_page(html, "ps", "rtl", f"/t/{counting_table.code}/")
    assert "دا کار یوازې کوربه کولی شي." in html, "the rule, in Pashto"
    assert "Only the host" not in html


def test_a_page_that_needs_a_seat_refuses_a_stranger_in_azerbaijani_left_to_right(counting_table):
    response = reader("az").get(f"/t/{counting_table.code}/corrections/fix/1/")
    html = response.content.decode()
    assert response.status_code == 403
    assert_site_page(html, "az", "ltr", f"/t/{counting_table.code}/")


def test_a_tap_refused_for_want_of_a_seat_stays_a_short_answer_for_htmx(counting_table):
    response = reader("fa").post(f"/t/{counting_table.code}/act/", {"action": '{"kind": "draw"}', "version": 0},
                                 HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    assert "<html" not in response.content.decode(), "htmx swaps the answer in place: no second page inside the first"


def test_the_no_seat_page_is_a_403_in_the_layout_with_the_screen_and_a_way_back(counting_table):
    response = reader("fa").get(f"/t/{counting_table.code}/")
    html = response.content.decode()
    assert response.status_code == 403
    assert_site_page(html, "fa", "rtl", "/")
    assert f'href="/t/{counting_table.code}/screen/"' in html


def test_a_dead_join_link_is_a_404_in_the_layout(counting_table):
    response = reader("ps").post(f"/t/{counting_table.code}/join/", {"token": "not-a-seat"})
    html = response.content.decode()
    assert response.status_code == 404
    assert_site_page(html, "ps", "rtl", "/")


def test_a_join_link_cut_before_its_secret_says_incomplete_not_dead(counting_table):
    """A chat app or QR reader that drops the ``#token`` part leaves ``/t/CODE/join/``: the player is told to scan
    again, not that the host took the seat back."""
    page = reader("en").get(f"/t/{counting_table.code}/join/").content.decode()
    assert 'id="join-incomplete" hidden' in page, "the page's script shows it when the link has no secret"
    response = reader("ps").post(f"/t/{counting_table.code}/join/", {"token": ""})
    html = response.content.decode()
    assert response.status_code == 400
    assert_site_page(html, "ps", "rtl", "/")
    with translation.override("ps"):
        assert translation.gettext("This link holds no seat any more. Ask the host for a new one.") not in html


def test_a_bad_host_header_is_a_400_page_in_the_readers_language():
    response = reader("fa").get("/", HTTP_HOST="evil.example")
    html = response.content.decode()
    assert response.status_code == 400
    assert_site_page(html, "fa", "rtl", "/")
    assert "درخواست نادرست" in html


@pytest.mark.parametrize(("lang", "direction", "heading"), [("fa", "rtl", "مشکلی پیش آمد"),
                                                             ("az", "ltr", "Nəsə səhv getdi"),
                                                             ("en", "ltr", "Something went wrong")])
def test_the_500_page_keeps_the_layout_language_and_a_way_back(lang, direction, heading):
    request = RequestFactory().get("/t/ABC/")
    with translation.override(lang):
        request.LANGUAGE_CODE = lang
        response = error_views.server_error(request)
    html = response.content.decode()
    assert response.status_code == 500
    assert_site_page(html, lang, direction, "/")
    assert heading in html


@pytest.mark.parametrize(("path", "back"), [("/history/import/", "/history/"), ("/t/ABCDEF/act/", "/t/ABCDEF/"),
                                            ("/t/ABCDEF/host/undo/", "/t/ABCDEF/")])
def test_opening_an_address_that_only_takes_a_tap_is_a_405_page_with_a_way_back(path, back):
    """A reload or the back button lands a phone on a POST-only address: not a blank page."""
    response = reader("ps").get(path)
    html = response.content.decode()
    assert response.status_code == 405
    assert_site_page(html, "ps", "rtl", back)
    assert "دا پاڼه نه ده" in html


def test_a_post_only_api_address_opened_by_get_is_not_turned_into_a_page():
    response = Client().get("/api/imports/")
    assert response.status_code == 405
    assert b"<html" not in response.content
