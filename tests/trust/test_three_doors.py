"""One table of malformed taps, fed to every input door: the phone's socket, the page's POST and the API.

A tap is the same text at each door (``{"action", "version", "key"}``; the page posts the action's JSON text,
the version and the key as form fields), so each door refuses it with the same stable code, writes nothing,
and never answers a server error: a lone surrogate (``"\\ud800"``, which no UTF-8 text or database column
holds), a NUL, numbers too large for any column or float, JSON nested past every limit, and an object that
names a key twice (a reader sees the first copy, a parser keeps the last).
"""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import async_to_sync
from rest_framework.test import APIClient

from games.models import Action
from games.write.pregame import create_table
from tests.conftest import cookie_header, phone_for, socket_for

pytestmark = pytest.mark.django_db(transaction=True)

FRAME = re.compile(r'data-frame="([^"]*)" hx-swap-oob="true"></i>$')
CODE = re.compile(r'data-code="([^"]*)"')
DEEP = "[" * 200 + "]" * 200

#: (what it is, the action's JSON text, the version's JSON text, the key's JSON text) -> the one code refusing it.
BAD_TAPS = [
    ("a lone surrogate in the key", '{"kind": "draw"}', "0", '"k-\\ud800"', "bad_text"),
    ("a lone low surrogate in the key", '{"kind": "draw"}', "0", '"\\udfff"', "bad_text"),
    ("a lone surrogate in the action", '{"kind": "dr\\ud800aw"}', "0", '"k1"', "bad_text"),
    ("a lone surrogate as an action's key", '{"kind": "draw", "\\ud800": 1}', "0", '"k2"', "bad_text"),
    ("a NUL in the key", '{"kind": "draw"}', "0", '"k\\u0000"', "nul_character"),
    ("a NUL in the action", '{"kind": "dr\\u0000aw"}', "0", '"k3"', "nul_character"),
    ("a huge version", '{"kind": "draw"}', "1" + "0" * 40, '"k4"', "bad_version"),
    ("a negative version", '{"kind": "draw"}', "-1", '"k5"', "bad_version"),
    ("a huge number in the action", '{"kind": "draw", "card": ' + "9" * 400 + "}", "0", '"k7"', "outcome_from_server"),
    ("a float too large in the action", '{"kind": "draw", "card": 1e999}', "0", '"k8"', "bad_json"),
    ("deep JSON in the action", '{"kind": "draw", "card": ' + DEEP + "}", "0", '"k9"', "too_deep"),
    ("an action naming a key twice", '{"kind": "draw", "kind": "play"}', "0", '"k10"', "bad_json"),
    ("a key too long", '{"kind": "draw"}', "0", '"' + "k" * 81 + '"', "bad_key"),
    ("an action that is not an object", '["draw"]', "0", '"k11"', "bad_action"),
    ("a whole-number float as the version", '{"kind": "draw"}', "0.0", '"k12"', "bad_version"),
    ("an integer longer than any reader converts", '{"kind": "draw", "card": ' + "9" * 5001 + "}", "0", '"k13"',
     "bad_json"),
    ("a tap longer than every door reads", '{"kind": "draw", "card": ' + "[" * 5000 + "]" * 5000 + "}", "0", '"k14"',
     "too_large"),
]


@pytest.fixture
def table(fixture_game_registered):
    return create_table("counting", {}, [{"name": "Alice"}, {"name": "Bob"}])


def _message(action: str, version: str, key: str) -> str:
    return '{"action": ' + action + ', "version": ' + version + ', "key": ' + key + '}'


def socket_codes(table, messages: list[str]) -> list[str]:
    """Each message sent on seat 0's socket, and the code of the refusal frame it was answered."""
    cookie = cookie_header(phone_for(table, 0), table.code)

    async def run() -> list[str]:
        comm = socket_for(table.code, cookie)
        connected, _ = await comm.connect()
        assert connected
        shown = FRAME.search(await comm.receive_from(5)).group(1)
        codes = []
        for number, message in enumerate(messages, start=1):
            await comm.send_to(text_data=message)
            await comm.send_to(text_data=json.dumps({"frame": shown, "ping": number}))
            found = "(none)"
            while (frame := await comm.receive_from(10)) != f'<i id="r-pong" hidden data-ping="{number}"></i>':
                if 'id="tap-refusal"' in frame:
                    found = CODE.search(frame).group(1)
            codes.append(found)
        await comm.disconnect()
        return codes

    return async_to_sync(run)()


def page_code(table, action: str, version: str, key: str) -> tuple[int, str]:
    """The tap posted by seat 0's page: the action as JSON text, the version and key as the form carries text."""
    phone = phone_for(table, 0)
    key_text = json.loads(key) if "\\ud8" not in key and "\\udf" not in key else None
    fields = f"action={_form(action)}&version={_form(version)}&key="
    fields += _form(key_text) if key_text is not None else _surrogate_key(key)
    answer = phone.post(f"/t/{table.code}/act/", fields, content_type="application/x-www-form-urlencoded",
                        HTTP_HX_REQUEST="true")
    if answer["Content-Type"].startswith("application/json"):  # refused before the page reads it
        return answer.status_code, answer.json().get("code", "(none)")
    found = CODE.search(answer.content.decode())
    return answer.status_code, found.group(1) if found else "(none)"


def _form(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


def _surrogate_key(key: str) -> str:
    """A key holding a lone surrogate as a form sends it: its UTF-8 form as a lone surrogate encodes (the bytes a
    buggy or hostile client sends; no browser can)."""
    from urllib.parse import quote_from_bytes

    return quote_from_bytes(json.loads(key).encode("utf-8", "surrogatepass"), safe="")


def api_code(table, action: str, version: str, key: str) -> tuple[int, str]:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=0).token}")
    answer = client.post(f"/api/tables/{table.code}/actions/", _message(action, version, key).encode(),
                         content_type="application/json")
    return answer.status_code, answer.json().get("code", "(none)")


def test_every_door_refuses_each_malformed_tap_with_the_same_code_and_writes_nothing(table):
    before = Action.objects.filter(table=table, kind=Action.Kind.GAME).count()
    sockets = socket_codes(table, [_message(a, v, k) for _, a, v, k, _ in BAD_TAPS])
    differ = []
    for (what, action, version, key, code), socket in zip(BAD_TAPS, sockets, strict=True):
        page_status, page = page_code(table, action, version, key)
        api_status, api = api_code(table, action, version, key)
        if not (socket == page == api == code) or page_status != 422 or api_status != 400:
            differ.append(f"{what}: socket {socket}, page {page_status} {page}, api {api_status} {api}; want {code}")
    assert not differ, "\n".join(differ)
    assert Action.objects.filter(table=table, kind=Action.Kind.GAME).count() == before == 0


def test_a_good_tap_still_passes_every_door(table):
    assert socket_codes(table, [_message('{"kind": "draw"}', "0", '"good-1"')]) == ["(none)"]
    table.refresh_from_db()
    assert table.version == 1
