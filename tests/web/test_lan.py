"""Join from the phones that are really there: the LAN address, its join links and hosts.

The socket is mocked: the tests check what :func:`companion.lan.lan_address` asks the kernel (a UDP
``connect`` to a private address, which sends nothing) and what it makes of the answers.
"""

from __future__ import annotations

import importlib
import io
import re

import pytest
import segno
from django.test import Client, override_settings
from rest_framework.test import APIClient

import companion.settings
from companion import lan
from games.entry.access import host_cookie, set_signed
from games.models import Table
from games.write.pregame import create_table

LAN = "192.168.1.20"


class FakeSocket:
    """A UDP socket that answers ``getsockname`` with ``address`` after ``connect``; records every call."""

    calls: list[tuple] = []

    def __init__(self, address: str | Exception, *args):
        self.address = address
        FakeSocket.calls.append(("socket", *args))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, target):
        FakeSocket.calls.append(("connect", target))
        if isinstance(self.address, Exception):
            raise self.address

    def getsockname(self):
        return (self.address, 40000)
    # No send/sendto/recv: a call to one of them fails the test (nothing may leave the machine).


def fake_socket(monkeypatch, address):
    FakeSocket.calls = []
    monkeypatch.setattr(lan.socket, "socket", lambda *args: FakeSocket(address, *args))


def test_the_lan_address_is_the_one_the_kernel_routes_a_private_address_from(monkeypatch):
    fake_socket(monkeypatch, LAN)
    assert lan.lan_address() == LAN
    connects = [c[1] for c in FakeSocket.calls if c[0] == "connect"]
    assert connects and all(lan._usable(host) is True and host.split(".")[0] in ("10", "172", "192")
                            for host, _ in connects), "only private targets, and a UDP connect sends nothing"
    assert FakeSocket.calls[0][1:] == (lan.socket.AF_INET, lan.socket.SOCK_DGRAM), "UDP, IPv4"


@pytest.mark.parametrize("answer", ["127.0.0.1", "0.0.0.0", "169.254.3.4"])
def test_a_loopback_unspecified_or_link_local_answer_falls_back_to_the_host_name(monkeypatch, answer):
    fake_socket(monkeypatch, answer)
    monkeypatch.setattr(lan.socket, "getaddrinfo",
                        lambda name, *a: [(2, 2, 17, "", ("127.0.1.1", 0)), (2, 2, 17, "", ("10.0.0.5", 0))])
    assert lan.lan_address() == "10.0.0.5"


def test_without_a_network_the_address_is_loopback(monkeypatch):
    fake_socket(monkeypatch, OSError(101, "Network is unreachable"))

    def no_name(*args):
        raise OSError("no such host")

    monkeypatch.setattr(lan.socket, "getaddrinfo", no_name)
    assert lan.lan_address() == "127.0.0.1"


@pytest.mark.parametrize(("host", "expected"), [
    ("127.0.0.1", True), ("127.0.0.1:8000", True), ("localhost:8000", True), ("[::1]:8000", True), ("::1", True),
    ("192.168.1.20:8000", False), ("companion.lan", False), ("[fe80::1]", False),
])
def test_loopback_names(host, expected):
    assert lan.is_loopback(host) is expected


def test_the_allowed_hosts_added_for_each_way_of_serving():
    assert lan.allowed_hosts("0.0.0.0", "", LAN) == [LAN]
    assert lan.allowed_hosts("::", "", LAN) == [LAN]
    assert lan.allowed_hosts("0.0.0.0", "", "127.0.0.1") == [], "no network: loopback is allowed already"
    assert lan.allowed_hosts("127.0.0.1", "", LAN) == [], "loopback only: the LAN address is not served"
    assert lan.allowed_hosts("10.1.2.3", "", "") == ["10.1.2.3"]
    assert lan.allowed_hosts("0.0.0.0", "http://companion.lan:8000", LAN) == [LAN, "companion.lan"]


def test_serving_on_every_address_allows_the_lan_address_in_the_settings(monkeypatch):
    fake_socket(monkeypatch, LAN)
    try:
        monkeypatch.setenv("SERVE_HOST", "0.0.0.0")
        monkeypatch.setenv("PUBLIC_URL", "")
        loaded = importlib.reload(companion.settings)
        assert loaded.LAN_ADDRESS == LAN and LAN in loaded.ALLOWED_HOSTS
        monkeypatch.setenv("SERVE_HOST", "127.0.0.1")
        loaded = importlib.reload(companion.settings)
        assert loaded.LAN_ADDRESS == "" and LAN not in loaded.ALLOWED_HOSTS
        monkeypatch.setenv("PUBLIC_URL", "192.168.7.7:8000")
        loaded = importlib.reload(companion.settings)
        assert loaded.PUBLIC_URL == "http://192.168.7.7:8000" and "192.168.7.7" in loaded.ALLOWED_HOSTS
    finally:
        monkeypatch.undo()
        importlib.reload(companion.settings)


def test_the_banner_never_prints_every_address(monkeypatch):
    fake_socket(monkeypatch, LAN)
    text = lan.banner("0.0.0.0", 8000)
    assert f"http://{LAN}:8000/" in text and "0.0.0.0" not in text
    assert "http://127.0.0.1:8000/" in lan.banner("127.0.0.1", 8000)
    assert "HOST=0.0.0.0" in lan.banner("127.0.0.1", 8000), "loopback only: it says how to let phones join"


# -- the host page ---------------------------------------------------------------------------------


@pytest.fixture
def hosted(db):
    """A two-seat Sorry! table and a client holding its host cookie."""
    table = create_table("sorry", {}, [{"name": "Ann", "colour": "red"}, {"name": "Ben", "colour": "blue"}])
    client = Client()
    response = client.get("/")
    set_signed(response, host_cookie(table.code), table.host_token)
    client.cookies.update(response.cookies)
    return table, client


def host_page(client: Client, table: Table, host: str) -> str:
    response = client.get(f"/t/{table.code}/host/", HTTP_HOST=host)
    assert response.status_code == 200
    return response.content.decode()


def links(body: str) -> list[str]:
    return re.findall(r'class="link" readonly value="([^"]+)"', body)


@override_settings(LAN_ADDRESS=LAN, PUBLIC_URL="", ALLOWED_HOSTS=["127.0.0.1", "localhost", LAN])
def test_a_host_on_loopback_gets_join_links_and_qr_codes_with_the_lan_address(hosted):
    table, client = hosted
    body = host_page(client, table, "127.0.0.1:8000")
    seats = list(table.seats.order_by("index"))
    assert links(body) == [f"http://{LAN}:8000/t/{table.code}/join/#{s.token}" for s in seats]
    assert 'data-reach="lan"' in body and f"{LAN}:8000" in body, "the page says where phones join"
    assert f'href="http://{LAN}:8000/t/{table.code}/screen/"' in body, "the table screen link too"
    qr = client.get(f"/t/{table.code}/host/qr/1.svg", HTTP_HOST="127.0.0.1:8000").content
    expected = io.BytesIO()
    segno.make(f"http://{LAN}:8000/t/{table.code}/join/#{seats[1].token}", error="m").save(
        expected, kind="svg", scale=4, border=2)
    assert qr == expected.getvalue(), "the QR code encodes the LAN join link"
    # The API answers the same links.
    api = APIClient()
    created = api.post("/api/tables/", {"game": "sorry", "seats": [{"name": "A"}, {"name": "B"}]}, format="json",
                       HTTP_HOST="localhost:8000")
    assert all(s["join_url"].startswith(f"http://{LAN}:8000/t/") for s in created.json()["seats"])


@override_settings(LAN_ADDRESS="", PUBLIC_URL="")
def test_a_host_on_loopback_without_the_network_is_warned_that_phones_cannot_join(hosted):
    table, client = hosted
    body = host_page(client, table, "127.0.0.1")
    assert 'data-reach="loopback"' in body and "make run HOST=0.0.0.0" in body
    assert all(link.startswith("http://127.0.0.1/t/") for link in links(body))


@override_settings(LAN_ADDRESS="", PUBLIC_URL="")
def test_the_loopback_warning_is_translated(hosted):
    table, client = hosted
    client.cookies["django_language"] = "fa"
    body = host_page(client, table, "localhost:8000")
    assert 'data-reach="loopback"' in body and "گوشی‌های دیگر نمی‌توانند" in body
    assert "only this machine can reach" not in body


@override_settings(LAN_ADDRESS=LAN, PUBLIC_URL="", ALLOWED_HOSTS=["127.0.0.1", LAN])
def test_a_host_on_the_lan_address_keeps_it(hosted):
    table, client = hosted
    body = host_page(client, table, f"{LAN}:8000")
    assert 'data-reach="typed"' in body and "same Wi-Fi" in body
    assert all(link.startswith(f"http://{LAN}:8000/t/") for link in links(body))


@override_settings(LAN_ADDRESS=LAN, PUBLIC_URL="http://companion.example:9000", ALLOWED_HOSTS=["127.0.0.1"])
def test_public_url_overrides_the_lan_address(hosted):
    table, client = hosted
    body = host_page(client, table, "127.0.0.1:8000")
    assert 'data-reach="public"' in body
    assert all(link.startswith("http://companion.example:9000/t/") for link in links(body))


@override_settings(LAN_ADDRESS=LAN, PUBLIC_URL="", ALLOWED_HOSTS=["127.0.0.1", LAN])
def test_the_join_secret_stays_in_the_fragment(hosted):
    table, client = hosted
    for link in links(host_page(client, table, "127.0.0.1:8000")):
        path, _, token = link.partition("#")
        assert token and token not in path and path.endswith("/join/")
    # And a phone on the LAN address is an allowed host that can open its link.
    assert Client().get(f"/t/{table.code}/join/", HTTP_HOST=f"{LAN}:8000").status_code == 200


@override_settings(LAN_ADDRESS=LAN, PUBLIC_URL="", ALLOWED_HOSTS=["127.0.0.1", "localhost", LAN])
@pytest.mark.parametrize("language", ["fa", "ps"])
def test_the_address_phones_type_keeps_its_latin_digits_on_a_persian_page(hosted, language):
    """A fa host page said "Phones join at ۱۹۲.۱۶۸.۱.۲۰:۸۰۰۰": an address people type into a phone's browser
    must read as the browser takes it, like a table code (games/web/digits.py spares ``translate="no"``)."""
    table, client = hosted
    client.cookies["django_language"] = language
    body = host_page(client, table, "127.0.0.1:8000")
    banner = re.search(r'<p class="banner reach" data-reach="lan">(.*?)</p>', body, re.S).group(1)
    assert f"{LAN}:8000" in banner and "127.0.0.1:8000" in banner, banner
    assert "۱۹۲" not in banner and "۱۲۷" not in banner, banner
