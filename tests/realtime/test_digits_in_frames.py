"""Each phone's websocket frames are written in its own digit system.

Regions are cached with ASCII digits (shared by every phone of the table); the socket
writes its frame's text-node digits as its phone reads them, attributes untouched.
"""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async

from games.models import Table
from games.read.presenters import legal_for
from games.write.moves import submit_action
from games.write.pregame import create_table
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
    table = await sync_to_async(create_table)("counting", {}, [{"name": "Alice"}, {"name": "Bob"}])
    await sync_to_async(submit_action)(table.code, 0, {"kind": "draw"}, 0)
    alice = await sync_to_async(phone_for)(table, 0)
    seat = cookie_header(alice, table.code)
    persian = await _first_frame(table.code, (b"cookie", seat[1] + b"; django_language=fa"))
    latin = await _first_frame(table.code, (b"cookie", seat[1] + b"; django_language=fa; digits=latin"))
    assert 'data-version="1"' in persian and 'data-version="1"' in latin, "attributes keep ASCII digits"
    assert "#۱" in persian and "#1" not in persian
    assert "#1" in latin and not re.search(r">[^<]*[۰-۹]", latin.replace("۱۲۳", ""))


def _play_first_legal(code: str) -> None:
    table = Table.objects.get(code=code)
    game = table.game()
    state = game.decode(table.state)
    seat = game.prompt(state).seats[0]
    submit_action(code, seat, legal_for(game, state, seat)[0]["payload"], table.version)


async def test_a_move_pushed_to_a_persian_phone_keeps_persian_digits(fixture_game_registered):
    """The push after a move (rendered in the event loop from the snapshot the write left in this process)
    goes through the same digit pass as the first frame: a fa phone read "#2" and "(0 : 0)" in a log line
    pushed after a Yellow & Yangtze war, while the same line read "#۲" after a reload."""
    table = await sync_to_async(create_table)("counting", {}, [{"name": "Alice"}, {"name": "Bob"}])
    await sync_to_async(submit_action)(table.code, 0, {"kind": "draw"}, 0)
    bob = await sync_to_async(phone_for)(table, 1)
    seat = cookie_header(bob, table.code)
    comm = socket_for(table.code, (b"cookie", seat[1] + b"; django_language=fa"))
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=5)
    await sync_to_async(_play_first_legal)(table.code)
    pushed = await comm.receive_from(timeout=5)
    await comm.disconnect()
    assert 'data-version="2"' in pushed, "attributes keep ASCII digits"
    assert "#۲" in pushed and "#2" not in pushed, pushed[:400]


async def test_a_push_after_a_move_is_in_the_phones_digits_too(fixture_game_registered):
    """The push rendered in the event loop from the write's own snapshot (the usual path after a move)
    went out with ASCII digits: only the threaded render wrote the phone's digits."""
    table = await sync_to_async(create_table)("counting", {}, [{"name": "Alice"}, {"name": "Bob"}])
    bob = await sync_to_async(phone_for)(table, 1)
    comm = socket_for(table.code, (b"cookie", cookie_header(bob, table.code)[1] + b"; django_language=fa"))
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=5)
    await sync_to_async(submit_action)(table.code, 0, {"kind": "draw"}, 0)
    pushed = await comm.receive_from(timeout=5)
    assert 'data-version="1"' in pushed and "#۱" in pushed and "#1<" not in pushed
    await comm.disconnect()
