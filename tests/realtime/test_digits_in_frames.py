"""Each phone's websocket frames are written in its own digit system (issue 9 item 3).

Regions are cached with ASCII digits (shared by every phone of the table); the socket
writes its frame's text-node digits as its phone reads them, attributes untouched.
"""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async

from games import services
from tests.conftest import cookie_header, phone_for, socket_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _first_frame(code: str, *headers) -> str:
    comm = socket_for(code, *headers)
    connected, _ = await comm.connect()
    assert connected
    frame = await comm.receive_from(timeout=5)
    await comm.disconnect()
    return frame


async def test_a_persian_phone_gets_persian_digits_and_a_latin_choice_gets_latin(fixture_game_registered):
    table = await sync_to_async(services.create_table)("counting", {}, [{"name": "Alice"}, {"name": "Bob"}])
    await sync_to_async(services.submit_action)(table.code, 0, {"kind": "draw"}, 0)
    alice = await sync_to_async(phone_for)(table, 0)
    seat = cookie_header(alice, table.code)
    persian = await _first_frame(table.code, (b"cookie", seat[1] + b"; django_language=fa"))
    latin = await _first_frame(table.code, (b"cookie", seat[1] + b"; django_language=fa; digits=latin"))
    assert 'data-version="1"' in persian and 'data-version="1"' in latin, "attributes keep ASCII digits"
    assert "#۱" in persian and "#1" not in persian
    assert "#1" in latin and not re.search(r">[^<]*[۰-۹]", latin.replace("۱۲۳", ""))


def _play_first_card(code: str) -> None:
    from games.models import Table

    table = Table.objects.get(code=code)
    game = table.game()
    services.submit_action(code, 0, game.legal_actions(game.decode(table.state), 0)[0], table.version)


async def test_a_push_rendered_in_the_event_loop_is_written_in_the_phones_digits_too(fixture_game_registered):
    """A move written in this process leaves its snapshot, so the push is rendered inline (no thread): it too must
    be localized (it was sent with ASCII digits, so a Persian phone read Latin digits after every move)."""
    table = await sync_to_async(services.create_table)("counting", {}, [{"name": "Alice"}, {"name": "Bob"}])
    await sync_to_async(services.submit_action)(table.code, 0, {"kind": "draw"}, 0)
    alice = await sync_to_async(phone_for)(table, 0)
    seat = cookie_header(alice, table.code)
    comm = socket_for(table.code, (b"cookie", seat[1] + b"; django_language=fa"))
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=5)
    await sync_to_async(_play_first_card)(table.code)
    push = await comm.receive_from(timeout=5)
    await comm.disconnect()
    assert "#۲" in push and "#2" not in push, push[:400]
