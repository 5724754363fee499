"""The host ends a game: every open socket (a player's phone, the table screen) gets the end pushed at once,
without a reload, and the push takes the turn away: no whose-turn header, no decision waited for, no tap."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.write.host import end_game
from games.write.pregame import create_table
from tests.conftest import cookie_header, phone_for, play_through_write_path, socket_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

FOUR = [{"name": n} for n in ("Ann", "Ben", "Cat", "Dan")]


async def connect(code: str, headers: list, screen: bool = False) -> WebsocketCommunicator:
    comm = socket_for(code, *headers, screen=screen)
    connected, _ = await comm.connect()
    assert connected
    return comm


async def test_ending_the_game_reaches_every_open_socket_with_the_ended_section_and_no_turn():
    table = await sync_to_async(create_table)("yellow_yangtze", {}, FOUR, seed=5)
    await sync_to_async(play_through_write_path)(table, 5, stop=6)
    ben = await sync_to_async(phone_for)(table, 1)
    phone = await connect(table.code, [cookie_header(ben, table.code)])
    screen = await connect(table.code, [], screen=True)
    for comm in (phone, screen):
        first = await comm.receive_from(timeout=5)
        assert "of 2 actions left" in first and "result ended" not in first
    await sync_to_async(end_game)(table.code)
    for comm in (phone, screen):
        pushed = await comm.receive_from(timeout=5)
        assert 'id="r-status"' in pushed and '<section class="result ended">' in pushed
        assert "The host ended this game before its end." in pushed and "The standing when the game was stopped" in pushed
        # The board's parts that changed: the whose-turn header emptied, the screens lifted.
        assert '<div id="yy-turn" hx-swap-oob="innerHTML"></div>' in pushed
        assert "actions left" not in pushed and 'class="yy-turn"' not in pushed
        assert 'class="yy-final"' in pushed, "the screens are lifted as at the end of the game (§7)"
        assert "data-action=" not in pushed
    for comm in (phone, screen):
        await comm.disconnect()
