"""Who starts, set-up and play again over the websocket: the start answer, a checked set-up step and the next game reach
every phone without a reload, each phone's push computed from its own seat."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.engines import get_game_class
from games.write.host import end_game
from games.write.pregame import check_walk_step, create_table, decide_start, play_again
from tests.conftest import cookie_header, phone_for, socket_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connect(code: str, headers: list, screen: bool = False) -> WebsocketCommunicator:
    comm = socket_for(code, *headers, screen=screen)
    connected, _ = await comm.connect()
    assert connected
    return comm


def _seats(slug: str) -> list[dict]:
    cls = get_game_class(slug)
    return [{"name": n, "colour": cls.colours[i]} for i, n in enumerate(["Ann", "Ben", "Cy"])]


async def test_the_start_answer_and_a_checked_step_are_pushed_to_the_other_phones_and_the_screen():
    table = await sync_to_async(create_table)("catan_junior", {}, _seats("catan_junior"), start="youngest",
                                                       walkthrough=True)
    ben = await sync_to_async(phone_for)(table, 1)
    b = await connect(table.code, [cookie_header(ben, table.code)])
    screen = await connect(table.code, [], screen=True)
    first = await b.receive_from(timeout=5)
    assert "Who is the youngest?" in first and "Set-up: 0 of 5 steps done" in first
    await screen.receive_from(timeout=5)
    await sync_to_async(check_walk_step)(table.code, "ghost")
    pushed = await b.receive_from(timeout=5)
    assert "Set-up: 1 of 5 steps done" in pushed and 'id="r-status"' in pushed and 'id="r-board"' not in pushed
    assert "Set-up: 1 of 5 steps done" in await screen.receive_from(timeout=5)
    await sync_to_async(decide_start)(table.code, seat=2)
    pushed = await b.receive_from(timeout=5)
    assert "Who is the youngest?" not in pushed and "Cy starts: the youngest player." in pushed
    for comm in (b, screen):
        await comm.disconnect()


async def test_the_next_game_button_is_pushed_to_each_phone_of_the_finished_table():
    table = await sync_to_async(create_table)("amun_re", {}, _seats("amun_re"), start="oldest")
    await sync_to_async(decide_start)(table.code, seat=0)
    await sync_to_async(end_game)(table.code)
    ben = await sync_to_async(phone_for)(table, 1)
    b = await connect(table.code, [cookie_header(ben, table.code)])
    first = await b.receive_from(timeout=5)
    assert "data-next=" not in first and "Play again" not in first  # only the host's phone offers it
    new = await sync_to_async(play_again)(table.code)
    pushed = await b.receive_from(timeout=5)
    assert f'data-next="{new.code}"' in pushed
    await b.disconnect()
