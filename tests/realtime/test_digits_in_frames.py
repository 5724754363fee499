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


async def test_the_push_after_a_move_is_in_the_phones_digit_system_too(fixture_game_registered):
    """The push of a move rendered in the event loop (its snapshot in this process) goes through the same pass."""
    table = await sync_to_async(services.create_table)("counting", {}, [{"name": "Alice"}, {"name": "Bob"}])
    alice = await sync_to_async(phone_for)(table, 0)
    seat = cookie_header(alice, table.code)
    comm = socket_for(table.code, (b"cookie", seat[1] + b"; django_language=fa"))
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=5)  # the first frame, before any move
    await sync_to_async(services.submit_action)(table.code, 0, {"kind": "draw"}, 0)
    pushed = await comm.receive_from(timeout=5)
    await comm.disconnect()
    assert 'data-version="1"' in pushed, "attributes keep ASCII digits"
    assert "#۱" in pushed and "#1" not in pushed
