"""Amun-Re on the platform: three phones play three Kingdoms, the sealed offering, the score screens.

Alice, Bob and Carol sit at the table. The winners type in what each won
province card shows (rules 6.1). The offering (rules 2.5) is the one secret:
until the last phone has offered, no page, fragment, API answer or websocket
frame of any seat or of the table screen may depend on another seat's
offering. We prove it with twin tables that differ only in those offerings:
every channel of the other viewers must render the same bytes in both.
"""

from __future__ import annotations

import random
import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from rest_framework.test import APIClient

from games.models import Table
from games.record.audit import replay
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import cookie_header, phone_for, post_action, socket_for

ALICE, BOB, CAROL = 0, 1, 2
PLAYERS = [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}]


def typed_province(seat: int, field: str) -> int:
    """What the winner types in for a won card: Alice's cards show 3 farms, every card 1 ankh (so ankhs tie)."""
    return {"farms": 3 if seat == ALICE else 1, "caravans": 1, "ankhs": 1, "pyramid_spaces": 3}[field]


def choose(legal: list[dict], seat: int, chooser: random.Random) -> dict:
    """A phone's choice: province contents as typed in, anything else at random from the legal list."""
    if legal[0]["kind"] == "reveal":
        field = legal[0]["field"]
        return next(a for a in legal if a["value"] == typed_province(seat, field))
    return chooser.choice(legal)


# -- a whole game through the API ---------------------------------------------------------------


def api_phones(created: dict) -> list[APIClient]:
    phones = []
    for seat in created["seats"]:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {seat['token']}")
        phones.append(client)
    return phones


@pytest.mark.django_db
def test_three_phones_play_three_kingdoms_through_the_api_to_the_final_tally():
    created = APIClient().post("/api/tables/", {"game": "amun_re", "seats": PLAYERS}, format="json").json()
    code = created["code"]
    phones = api_phones(created)
    chooser = random.Random(3)
    saw_kingdom_two_scoring = False
    body = phones[ALICE].get(f"/api/tables/{code}/prompt/").json()
    for _ in range(2000):
        if body["status"] != "playing":
            break
        seat = body["prompt"]["seats"][0]
        if seat != ALICE:
            body = phones[seat].get(f"/api/tables/{code}/prompt/").json()
        action = choose([item["action"] for item in body["legal"]], seat, chooser)
        answer = phones[seat].post(
            f"/api/tables/{code}/actions/", {"action": action, "version": body["version"]}, format="json"
        )
        assert answer.status_code == 200, answer.json()
        body = phones[ALICE].get(f"/api/tables/{code}/prompt/").json()
        if body["prompt"]["step"] == "build_hand" and not saw_kingdom_two_scoring:
            view = phones[CAROL].get(f"/api/tables/{code}/view/").json()["view"]
            if view["kingdom"] == 2:
                saw_kingdom_two_scoring = True
                first = view["kingdom_scores"][0]
                assert first["kingdom"] == 1 and first["ankh_holder"] == ALICE
                assert [r["farm_points"] for r in first["rows"]] == [1, 0, 0], "9 farms for Alice only (2.7)"
                assert first["most"] == ALICE and first["fewest"] == CAROL, "all tie on 3 ankhs: seat order (2.7)"
    else:
        raise AssertionError("the game did not end")
    assert saw_kingdom_two_scoring
    table = Table.objects.get(code=code)
    assert table.status == Table.Status.FINISHED
    game = table.game()
    assert game.encode(replay(table)) == table.state
    result = phones[BOB].get(f"/api/tables/{code}/view/").json()["result"]
    assert len(result["ranking"]) == 3 and result["winners"] == [result["ranking"][0]["seat"]]
    scores = game.view(game.decode(table.state), None)["kingdom_scores"]
    for place in result["ranking"]:
        assert place["score"] == sum(r["total"] for k in scores for r in k["rows"] if r["seat"] == place["seat"])
    page = phone_for(table, CAROL).get(f"/t/{code}/").content.decode()
    assert "Game over" in page and "Final table" in page
    assert page.count('class="kingdom-score"') == 3
    assert "tied for the most ankhs" in page and "held the Ankh token" in page
    assert "Weakest column" in page and "at least 9 farms" in page
    for place in result["ranking"]:
        assert f'data-rank="{place["place"]}"' in page


# -- getting three tables to the same offering -------------------------------------------------------


def play_to_the_offering() -> Table:
    """A table where the three Kingdom-1 auctions are over and everyone must offer.

    Scripted: everyone keeps 0, 1, 2, 3, 8 and bids the lowest card it can, so
    the 0 cards take the provinces and come back; every hand is whole again.
    """
    table = create_table("amun_re", {}, PLAYERS, seed=1)
    game = table.game()
    for _ in range(500):
        table.refresh_from_db()
        state = game.decode(table.state)
        prompt = game.prompt(state)
        if prompt.step == "offering":
            return table
        seat = prompt.seats[0]
        legal = game.legal_actions(state, seat)
        if prompt.step == "build_hand":
            action = next(a for a in legal if a["cards"] == [0, 1, 2, 3, 8])
        elif prompt.step == "province":
            action = choose(legal, seat, random.Random(0))
        else:
            action = legal[0]
        submit_action(table.code, seat, action, table.version)
    raise AssertionError("never reached the offering")


def offer(table: Table, seat: int, gold: int) -> None:
    table.refresh_from_db()
    submit_action(table.code, seat, {"kind": "offer", "gold": gold}, table.version)


def normal(text: str, table: Table) -> str:
    """A rendering with what differs between twin tables anyway (code, CSRF tokens, tap keys) blanked out."""
    text = text.replace(table.code, "CODE")
    text = re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]+"', r"\1TOKEN", text)
    text = re.sub(r'data-sig="[^"]*"', 'data-sig="SIG"', text)  # a hash that includes the table code
    text = re.sub(r"\?s=[0-9a-f]+", "?s=SIG", text)  # the page's region digests, which include the table code
    text = re.sub(r'data-frame="[0-9a-f]+\.', 'data-frame="SOCKET.', text)  # each socket's own random frame prefix
    return re.sub(r"[0-9a-f]{32}", "KEY", text)


def channels(table: Table, viewer: int | None) -> dict[str, object]:
    """Everything ``viewer`` (``None``: the table screen) can read: page, fragment, API view, prompt, log."""
    if viewer is None:
        client = Client()
        api = APIClient()
        return {
            "page": normal(client.get(f"/t/{table.code}/screen/").content.decode(), table),
            "fragment": normal(client.get(f"/t/{table.code}/fragment/?screen=1").content.decode(), table),
            "public": {k: v for k, v in api.get(f"/api/tables/{table.code}/").json().items() if k != "code"},
            "log": api.get(f"/api/tables/{table.code}/log/").json(),
        }
    phone = phone_for(table, viewer)  # the API is read with the phone's own cookie: one device holds the seat
    return {
        "page": normal(phone.get(f"/t/{table.code}/").content.decode(), table),
        "fragment": normal(phone.get(f"/t/{table.code}/fragment/").content.decode(), table),
        "view": phone.get(f"/api/tables/{table.code}/view/").json(),
        "prompt": phone.get(f"/api/tables/{table.code}/prompt/").json(),
        "log": phone.get(f"/api/tables/{table.code}/log/").json(),
    }


@pytest.mark.django_db
def test_before_the_last_phone_offers_no_channel_of_any_seat_or_the_screen_shows_another_seats_offering():
    # Alice and Bob have offered, Carol has not. Each twin changes only offerings its viewers may not see.
    base = play_to_the_offering()
    offer(base, ALICE, 5)
    offer(base, BOB, 2)
    twins = {
        (CAROL, None): (3, 6),  # Carol and the screen see neither offering
        (BOB,): (3, 2),  # Bob does not see Alice's
        (ALICE,): (5, 6),  # Alice does not see Bob's
    }
    for viewers, (alice_gold, bob_gold) in twins.items():
        twin = play_to_the_offering()
        offer(twin, ALICE, alice_gold)
        offer(twin, BOB, bob_gold)
        for viewer in viewers:
            seen, twin_seen = channels(base, viewer), channels(twin, viewer)
            for name in seen:
                assert seen[name] == twin_seen[name], f"{name} of seat {viewer} depends on another's offering"
    carol = channels(base, CAROL)
    assert "2 of 3 have offered." in carol["page"]
    assert carol["view"]["view"]["offerings"] is None
    assert [item["action"]["kind"] for item in carol["prompt"]["legal"]] == ["offer"] * 14
    alice = channels(base, ALICE)
    assert "you offered 5 (sealed)" in alice["page"] and "You offer 5 gold." in alice["page"]
    assert "Bob made a secret offering." in alice["page"]


@pytest.mark.django_db
def test_after_the_last_phone_offers_every_offering_is_revealed_to_everyone_at_once():
    table = play_to_the_offering()
    offer(table, ALICE, 5)
    offer(table, BOB, 2)
    before = channels(table, None)
    assert "Offerings revealed" not in before["page"]
    offer(table, CAROL, 3)
    for viewer in (ALICE, BOB, CAROL, None):
        seen = channels(table, viewer)
        assert "Offerings revealed: total 10" in seen["page"]
        rows = re.findall(r'data-offering-of="(\d)">.*?<td class="num"[^>]*>(\d+)</td>', seen["page"], re.S)
        assert rows == [("0", "5"), ("1", "2"), ("2", "3")]
        if viewer is not None:
            assert seen["view"]["view"]["offerings"]["amounts"] == [5, 2, 3]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_no_websocket_frame_shows_an_offering_before_the_last_phone_offers():
    async def frames_of(alice_gold: int, bob_gold: int) -> tuple[Table, list[str], list[str]]:
        table = await sync_to_async(play_to_the_offering)()
        carol = await sync_to_async(phone_for)(table, CAROL)
        c_sock = socket_for(table.code, cookie_header(carol, table.code))
        s_sock = socket_for(table.code, screen=True)
        assert (await c_sock.connect())[0] and (await s_sock.connect())[0]
        carol_frames, screen_frames = [await c_sock.receive_from(5)], [await s_sock.receive_from(5)]
        for seat, gold in ((ALICE, alice_gold), (BOB, bob_gold)):
            await sync_to_async(offer)(table, seat, gold)
            carol_frames.append(await c_sock.receive_from(5))
            screen_frames.append(await s_sock.receive_from(5))
        await sync_to_async(offer)(table, CAROL, 3)
        carol_frames.append(await c_sock.receive_from(5))
        screen_frames.append(await s_sock.receive_from(5))
        await c_sock.disconnect()
        await s_sock.disconnect()
        return table, [normal(f, table) for f in carol_frames], [normal(f, table) for f in screen_frames]

    one, carol_one, screen_one = await frames_of(5, 2)
    two, carol_two, screen_two = await frames_of(8, 6)
    assert carol_one[:3] == carol_two[:3] and screen_one[:3] == screen_two[:3]
    assert "2 of 3 have offered." in carol_one[2] and "Offerings revealed" not in carol_one[2]
    assert "Offerings revealed: total 10" in carol_one[3] and "Offerings revealed: total 17" in carol_two[3]
    assert "Offerings revealed: total 10" in screen_one[3]


# -- the phone page ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_every_hand_is_on_every_phone_and_my_winnable_cards_are_lit():
    table = create_table("amun_re", {}, PLAYERS, seed=2)
    for seat, cards in ((ALICE, [0, 6, 8]), (BOB, [0, 1, 5, 8]), (CAROL, [0, 2, 4, 8])):
        assert post_action(phone_for(table, seat), table, {"kind": "build_hand", "cards": cards}).status_code == 200
    screen = Client().get(f"/t/{table.code}/screen/").content.decode()
    carol = phone_for(table, CAROL).get(f"/t/{table.code}/").content.decode()
    for page in (screen, carol):
        assert re.findall(r'data-hand="([\d,]*)"', page) == ["0,6,8", "0,1,5,8", "0,2,4,8"]
    alice = phone_for(table, ALICE).get(f"/t/{table.code}/").content.decode()
    assert "Your turn." in alice and "Bid 8 on province 3" in alice
    assert re.findall(r'class="gold legal" data-card="(\d)"', alice) == ["0", "6", "8"]
    assert 'class="gold legal"' not in carol, "not Carol's turn: nothing lit"


@pytest.mark.django_db
def test_an_outbid_card_is_shown_going_back_to_its_owner():
    table = create_table("amun_re", {}, PLAYERS, seed=2)
    for seat, cards in ((ALICE, [0, 6, 8]), (BOB, [0, 1, 5, 8]), (CAROL, [0, 2, 4, 8])):
        post_action(phone_for(table, seat), table, {"kind": "build_hand", "cards": cards})
    post_action(phone_for(table, ALICE), table, {"kind": "bid", "province": 0, "card": 6})
    answer = post_action(phone_for(table, BOB), table, {"kind": "bid", "province": 0, "card": 8})
    page = answer.content.decode()
    assert 'data-returned="0:6"' in page and "Alice’s 6 goes back to their hand." in page.replace("<bdi>", "").replace("</bdi>", "")
    assert re.findall(r'data-hand="([\d,]*)"', page)[0] == "0,6,8"
    refused = post_action(phone_for(table, CAROL), table, {"kind": "bid", "province": 0, "card": 4})
    assert refused.status_code == 422 and "must be higher than the 8" in refused.content.decode()
