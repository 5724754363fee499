"""Sorry! end to end on the platform: whole games through the write path and the API, secrecy of hands."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from asgiref.sync import sync_to_async
from rest_framework.test import APIClient

from games.engines.base import IllegalAction
from games.models import Table
from games.record.audit import replay
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import cookie_header, phone_for, play_through_write_path, socket_for


@pytest.mark.django_db
def test_four_players_play_a_digital_game_to_the_winner_and_replay_matches():
    table = create_table("sorry", {}, [{"name": n} for n in ("Ann", "Ben", "Cat", "Dan")], seed=4)
    play_through_write_path(table, seed=4)
    table.refresh_from_db()
    game = table.game()
    result = game.result(game.decode(table.state))
    assert table.status == Table.Status.FINISHED and len(result["winners"]) == 1
    assert game.encode(replay(table)) == table.state
    page = phone_for(table, result["winners"][0]).get(f"/t/{table.code}/").content.decode()
    assert "Game over" in page


@pytest.mark.django_db
def test_a_physical_deck_game_where_every_card_is_tapped_in_through_the_api():
    created = APIClient().post("/api/tables/", {"game": "sorry", "options": {"components": "physical"},
                                                "seats": [{"name": "Ann"}, {"name": "Ben"}]}, format="json").json()
    phones = []
    for seat in created["seats"]:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {seat['token']}")
        phones.append(client)
    chooser = random.Random(11)
    code = created["code"]
    for _ in range(5000):
        public = APIClient().get(f"/api/tables/{code}/").json()
        if public["status"] != "playing":
            break
        seat = public["prompt"]["seats"][0]
        body = phones[seat].get(f"/api/tables/{code}/prompt/").json()
        choice = chooser.choice(body["legal"])["action"]
        if choice["kind"] == "draw":
            assert "card" in choice, "in physical mode the player names the card they drew"
        answer = phones[seat].post(f"/api/tables/{code}/actions/", {"action": choice, "version": body["version"]},
                                   format="json")
        assert answer.status_code == 200, answer.json()
    else:
        raise AssertionError("no winner")
    assert public["status"] == "finished"
    wrong = phones[0].post(f"/api/tables/{code}/actions/", {"action": {"kind": "draw", "card": "7"},
                                                             "version": public["version"]}, format="json")
    assert wrong.status_code == 403


@pytest.mark.django_db
def test_physical_mode_refuses_a_card_no_longer_in_the_draw_pile():
    table = create_table("sorry", {"components": "physical"}, [{"name": "Ann"}, {"name": "Ben"}])
    game = table.game()
    # Draw all four 1s (the deck has five 1s), then refuse a sixth... card counts come from the engine.
    state = game.decode(table.state)
    ones = sum(1 for a in game.legal_actions(state, 0) if a.get("card") == "1")
    assert ones == 1, "one payload per card face still in the pile"
    bad = {"kind": "draw", "card": "6"}
    with pytest.raises(IllegalAction) as err:
        submit_action(table.code, 0, bad, 0)
    assert err.value.code in {"card_not_in_deck", "bad_card"}


def hand_cards(html: str) -> list[str]:
    block = re.search(r'<p class="hand">(.*?)</p>', html, re.S)
    return re.findall(r'<span class="card" data-card="([^"]+)">', block.group(1)) if block else []


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_points_variant_hands_stay_on_their_owners_phone_in_pages_api_and_frames():
    table = await sync_to_async(create_table)("sorry", {"points_mode": True},
                                                       [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}], seed=5)
    alice, carol = await sync_to_async(phone_for)(table, 0), await sync_to_async(phone_for)(table, 2)
    sock = socket_for(table.code, cookie_header(carol, table.code))
    assert (await sock.connect())[0]
    frames = [await sock.receive_from(5)]

    def deal_until_alice_holds_cards():
        game = table.game()
        for n in range(40):
            table.refresh_from_db()
            state = game.decode(table.state)
            if len(game.view(state, 0)["private"]["hand"]) >= 5 and len(game.view(state, 2)["private"]["hand"]) >= 5:
                return game.view(state, 0)["private"]["hand"], game.view(state, 2)["private"]["hand"], n
            seat = game.prompt(state).seats[0]
            submit_action(table.code, seat, game.legal_actions(state, seat)[0], table.version)
        raise AssertionError("hands were never dealt")

    alice_hand, carol_hand, dealt = await sync_to_async(deal_until_alice_holds_cards)()
    final = await sync_to_async(lambda: Table.objects.get(code=table.code).version)()
    while f'data-version="{final}"' not in frames[-1]:  # a push brings the newest version (several may fold into one)
        frames.append(await sock.receive_from(5))
    await sock.disconnect()
    alice_page = (await sync_to_async(alice.get)(f"/t/{table.code}/")).content.decode()
    carol_page = (await sync_to_async(carol.get)(f"/t/{table.code}/")).content.decode()
    screen = (await sync_to_async(APIClient().get)(f"/t/{table.code}/screen/")).content.decode()
    assert sorted(alice_hand) != sorted(carol_hand), "the seed deals different hands, so the test can fail"
    assert sorted(hand_cards(alice_page)) == sorted(alice_hand)
    assert sorted(hand_cards(carol_page)) == sorted(carol_hand)
    assert hand_cards(screen) == []
    for frame in frames:  # Carol's hand only grows while cards are dealt: every frame shows part of it
        assert not Counter(hand_cards(frame)) - Counter(carol_hand)
    assert sorted(hand_cards(frames[-1])) == sorted(carol_hand)
    api = APIClient()
    carol_token = await sync_to_async(lambda: table.seats.get(index=2).token)()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {carol_token}")
    view = (await sync_to_async(api.get)(f"/api/tables/{table.code}/view/")).json()["view"]
    assert sorted(view["private"]["hand"]) == sorted(carol_hand)
    assert "hands" not in view and all("hand" not in seat for seat in view.get("seats", []))
    log = (await sync_to_async(api.get)(f"/api/tables/{table.code}/log/")).json()["log"]
    private_lines = [line for line in log if line["private"]]
    assert all(line["seat"] == 2 for line in private_lines), "Carol reads only her own private log lines"
