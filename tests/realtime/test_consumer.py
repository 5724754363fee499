"""The websocket: one socket per phone, each rendering its own view on 'version N'."""

from __future__ import annotations

import asyncio
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.http import HttpResponse

from games.entry.access import host_cookie, set_signed
from games.models import Table
from games.write.corrections import propose_correction
from games.write.host import hand_over_seat
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import cookie_header, phone_for, socket_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connect(code: str, headers: list, query: str = "") -> WebsocketCommunicator:
    comm = socket_for(code, *headers, screen=query == "screen=1")
    connected, _ = await comm.connect()
    assert connected
    return comm


async def make_table_and_phones():
    table = await sync_to_async(create_table)("counting", {}, [{"name": "Alice"}, {"name": "Bob"},
                                                                        {"name": "Carol"}])
    alice = await sync_to_async(phone_for)(table, 0)
    bob = await sync_to_async(phone_for)(table, 1)
    carol = await sync_to_async(phone_for)(table, 2)
    return table, alice, bob, carol


async def test_an_action_on_phone_a_updates_phone_b():
    table, alice, bob, _ = await make_table_and_phones()
    b = await connect(table.code, [cookie_header(bob, table.code)])
    first = await b.receive_from(timeout=5)
    assert '<div hx-swap-oob="true" id="r-meta"' in first and 'data-version="0"' in first
    assert all(f'id="r-{name}"' in first for name in ("status", "board", "log", "links")), "a new socket gets every region"
    await sync_to_async(submit_action)(table.code, 0, {"kind": "draw"}, 0)
    pushed = await b.receive_from(timeout=5)
    assert 'data-version="1"' in pushed and "Alice plays a card." in pushed
    await b.disconnect()


async def test_no_frame_for_carol_contains_alices_hand():
    table, alice, _, carol = await make_table_and_phones()
    a = await connect(table.code, [cookie_header(alice, table.code)])
    c = await connect(table.code, [cookie_header(carol, table.code)])
    screen = await connect(table.code, [], query="screen=1")
    frames = {"a": [await a.receive_from(5)], "c": [await c.receive_from(5)], "s": [await screen.receive_from(5)]}
    await sync_to_async(submit_action)(table.code, 0, {"kind": "draw"}, 0)
    frames["a"].append(await a.receive_from(5))
    frames["c"].append(await c.receive_from(5))
    frames["s"].append(await screen.receive_from(5))
    await sync_to_async(table.refresh_from_db)()
    card = table.state["hands"][0][0]
    assert any(f"You drew a {card}" in f for f in frames["a"])
    for frame in frames["c"] + frames["s"]:
        assert "You drew" not in frame
        assert f"&#x27;hand&#x27;: [&#x27;{card}&#x27;]" not in frame
    for comm in (a, c, screen):
        await comm.disconnect()


async def test_a_socket_without_a_seat_is_refused_and_a_handed_over_seat_is_closed():
    table, alice, bob, _ = await make_table_and_phones()
    stranger = socket_for(table.code)
    connected, _ = await stranger.connect()
    assert not connected
    b = await connect(table.code, [cookie_header(bob, table.code)])
    await b.receive_from(5)
    await sync_to_async(hand_over_seat)(table.code, 1)
    last = await b.receive_from(5)
    assert "no longer holds a seat" in last
    assert (await b.receive_output(5))["type"] == "websocket.close"


async def test_a_phone_whose_seat_was_handed_over_is_told_why_its_socket_closes_with_4403():
    """The phone's secret no longer holds a seat: the socket it opens is accepted only to say so (a banner) and
    closed with 4403, so the page stops reconnecting (a refused handshake reads as a network fault, 1006); a tap
    sent on a socket whose seat went meanwhile is refused and the socket is closed the same way."""
    table, alice, bob, _ = await make_table_and_phones()
    await sync_to_async(hand_over_seat)(table.code, 1)
    stale = socket_for(table.code, cookie_header(bob, table.code))
    connected, _ = await stale.connect()
    assert connected
    said = await stale.receive_from(5)
    assert "no longer holds a seat" in said and "Ask the host for a new" in said
    closed = await stale.receive_output(5)
    assert closed == {"type": "websocket.close", "code": 4403}

    table2, alice2, bob2, _ = await make_table_and_phones()
    b = await connect(table2.code, [cookie_header(bob2, table2.code)])
    from games.socket import consumers

    real = consumers.TableConsumer._refresh

    async def no_push(self, revision=None):  # the seat goes without the push that would tell this socket
        return None

    consumers.TableConsumer._refresh = no_push
    try:
        await sync_to_async(hand_over_seat)(table2.code, 1)
        await b.send_to(text_data='{"action": {"kind": "draw"}, "version": 0, "key": "k-1"}')
        frames = []
        while True:
            out = await b.receive_output(5)
            if out["type"] == "websocket.close":
                break
            frames.append(out.get("text", ""))
    finally:
        consumers.TableConsumer._refresh = real
    assert out.get("code") == 4403
    assert any("no longer holds a seat" in f for f in frames), frames


async def test_a_reconnecting_phone_gets_the_current_version_at_once():
    table, alice, bob, _ = await make_table_and_phones()
    await sync_to_async(submit_action)(table.code, 0, {"kind": "draw"}, 0)
    await sync_to_async(submit_action)(table.code, 0, {"kind": "play", "card": (await sync_to_async(
        lambda: Table.objects.get(code=table.code).state["hands"][0][0])())}, 1)
    b = await connect(table.code, [cookie_header(bob, table.code)])
    frame = await asyncio.wait_for(b.receive_from(), 5)
    assert 'data-version="2"' in frame and "Your turn." in frame
    await b.disconnect()


async def test_pushed_fragments_carry_fresh_idempotency_keys_and_the_host_link_for_the_host():
    table, alice, bob, _ = await make_table_and_phones()
    host_value = await sync_to_async(lambda: table.host_token)()
    response = HttpResponse()
    set_signed(response, host_cookie(table.code), host_value)
    host_header = f"{host_cookie(table.code)}={response.cookies[host_cookie(table.code)].value}"
    seat_name, seat_value = cookie_header(alice, table.code)[1].decode().split("=", 1)
    a = await connect(table.code, [(b"cookie", f"{seat_name}={seat_value}; {host_header}".encode())])
    first = await a.receive_from(5)
    await sync_to_async(submit_action)(table.code, 0, {"kind": "draw"}, 0)
    second = await a.receive_from(5)
    keys = [re.findall(r'name="key" value="([^"]+)"', frame) for frame in (first, second)]
    assert keys[0] and keys[1] and not set(keys[0]) & set(keys[1]), "a retried tap is idempotent, a new one is not"
    assert "Host tools" in first
    assert 'id="r-links"' not in second, "an unchanged region is not pushed again"
    await a.disconnect()


async def test_pushed_fragments_carry_the_phones_own_csrf_token_for_plain_forms():
    table = await sync_to_async(create_table)("counting", {"components": "physical"},
                                                       [{"name": "Alice"}, {"name": "Bob"}])
    alice = await sync_to_async(phone_for)(table, 0)
    await sync_to_async(submit_action)(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    await sync_to_async(propose_correction)(table.code, 1, 1, {"kind": "draw", "card": "2"})
    seat_name, seat_value = cookie_header(alice, table.code)[1].decode().split("=", 1)
    sock = await connect(table.code, [(b"cookie", f"{seat_name}={seat_value}; csrftoken=abcdefghijklmnopqrstuvwxyz012345"
                                       .encode())])
    frame = await sock.receive_from(5)
    assert "Confirm" in frame
    assert 'name="csrfmiddlewaretoken" value="abcdefghijklmnopqrstuvwxyz012345"' in frame
    await sock.disconnect()


async def test_a_push_after_a_one_pawn_move_carries_only_the_changed_regions():
    """A Sorry! move sends the pieces, the prompt, the new log line and the version, nothing else."""
    # Seed 5: the first card that lets Ann's pawn leave START is not a 2 (a 2 draws again: Ben's turn would not start).
    table = await sync_to_async(create_table)("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=5)
    ben = await sync_to_async(phone_for)(table, 1)
    b = await connect(table.code, [cookie_header(ben, table.code)])
    first = await b.receive_from(5)
    assert 'id="r-static"' in first and 'id="sorry-geo"' in first, "a socket that brings no page gets the geometry"
    version = 0
    while True:  # Ann draws until a card lets a pawn leave START
        await sync_to_async(submit_action)(table.code, 0, {"kind": "draw"}, version)
        version += 1
        await b.receive_from(5)
        await sync_to_async(table.refresh_from_db)()
        game = await sync_to_async(table.game)()
        moves = [a for a in game.legal_actions(game.decode(table.state), 0) if a["kind"] == "move"]
        if moves:
            break
        await sync_to_async(submit_action)(table.code, 0, {"kind": "pass"}, version)
        version += 1
        await b.receive_from(5)
        await sync_to_async(submit_action)(table.code, 1, {"kind": "draw"}, version)
        version += 1
        await b.receive_from(5)
        legal = game.legal_actions(game.decode((await sync_to_async(
            lambda: Table.objects.get(code=table.code))()).state), 1)
        await sync_to_async(submit_action)(table.code, 1, legal[0], version)
        version += 1
        await b.receive_from(5)
    assert game.decode(table.state).card != "2", "the seed must give a card that ends Ann's turn"
    await sync_to_async(submit_action)(table.code, 0, moves[0], version)
    pushed = await b.receive_from(5)
    pieces = re.findall(r'<(\w+) hx-swap-oob="([^"]+)"(?: id="([^"]+)")?', pushed)
    swaps = sorted(f"{swap}:{rid}" if rid else swap for _, swap, rid in pieces)
    # Ben's own turn starts, so his status line and his buttons (Draw) change too; of the board, only its parts that
    # changed (the card shown, the pawns, his targets with his Draw button); nothing else is sent.
    assert swaps == ["afterbegin:#loglines", "innerHTML:#sorry-card", "innerHTML:#sorry-pawns",
                     "innerHTML:#sorry-targets", "true:r-controls", "true:r-meta", "true:r-status"], swaps
    assert 'id="sorry-geo"' not in pushed and 'id="r-links"' not in pushed, "fixed geometry is never resent"
    assert f'data-version="{version + 1}"' in pushed
    assert len(pushed.encode()) <= 5000, len(pushed.encode())
    await b.disconnect()


async def test_a_page_that_holds_the_current_regions_gets_no_first_frame():
    """The page load is not followed by a frame that resends what the page already holds."""
    table = await sync_to_async(create_table)("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    ben = await sync_to_async(phone_for)(table, 1)
    page = (await sync_to_async(ben.get)(f"/t/{table.code}/")).content.decode()
    signature = re.search(r'ws-connect="/ws/tables/[^/]+/\?s=([0-9a-f]+)"', page).group(1)
    from channels.testing import WebsocketCommunicator

    from companion.asgi import application

    comm = WebsocketCommunicator(application, f"/ws/tables/{table.code}/?s={signature}", headers=[
        (b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), cookie_header(ben, table.code)])
    connected, _ = await comm.connect()
    assert connected
    assert await comm.receive_nothing(0.3), "nothing is resent after the page load"
    await sync_to_async(submit_action)(table.code, 0, {"kind": "draw"}, 0)
    pushed = await comm.receive_from(5)
    assert 'data-version="1"' in pushed and 'id="r-static"' not in pushed
    assert len(pushed.encode()) < 5000, len(pushed.encode())
    await comm.disconnect()


async def test_a_move_made_while_a_socket_opens_still_reaches_it(monkeypatch):
    """The socket joins the table's group before it renders its first frame.

    Rendering first would let a move committed between that render and joining the group go to a group
    the socket is not in yet, leaving the phone one version behind until the next move (in a reconnect
    storm under load, a phone at the end of a game would never see the last move).
    """
    from games.socket import consumers

    table, alice, bob, _ = await make_table_and_phones()
    render = consumers.render_push
    moved = []

    def render_then_a_move_lands(*args, **kwargs):
        frame = render(*args, **kwargs)
        if not moved:
            moved.append(submit_action(table.code, 0, {"kind": "draw"}, 0))
        return frame

    monkeypatch.setattr(consumers, "render_push", render_then_a_move_lands)
    b = await connect(table.code, [cookie_header(bob, table.code)])
    first = await b.receive_from(timeout=5)
    assert 'data-version="0"' in first and moved
    pushed = await b.receive_from(timeout=5)
    assert 'data-version="1"' in pushed and "Alice plays a card." in pushed
    await b.disconnect()
