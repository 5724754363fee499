"""Catan Junior on the platform: whole games through the write path and the API, physical dice and Coco
tiles, player trades answered on the right phone, and the last roll's production on every phone."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from asgiref.sync import sync_to_async
from rest_framework.test import APIClient

from games.models import Table
from games.record.audit import replay
from games.write.pregame import create_table
from tests.conftest import cookie_header, phone_for, play_through_write_path, post_action, socket_for

FOUR = [{"name": n} for n in ("Ann", "Ben", "Cat", "Dan")]
#: Kinds a quick game prefers, in order: build when you can, buy Coco tiles, otherwise anything legal.
EAGER = ("build_lair", "build_ship", "buy_coco")


def eager_choice(chooser: random.Random, legal: list[dict]) -> dict:
    """A legal action, building first so a random game reaches its seven-lair winner in a few hundred moves."""
    for kind in EAGER:
        wanted = [a for a in legal if a["kind"] == kind]
        if wanted:
            return chooser.choice(wanted)
    trades = [a for a in legal if a["kind"] in ("market_swap", "supply_trade")]
    if trades and chooser.random() < 0.7:
        return chooser.choice(trades)
    return chooser.choice(legal)


def play_to_the_end(table: Table, seed: int, limit: int = 3000) -> int:
    """Play eager legal actions through the write path until someone has seven lairs; return the count."""
    return len(play_through_write_path(table, seed, limit, choose=eager_choice))


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.mark.django_db
def test_four_players_play_a_digital_game_to_a_seven_lair_winner_and_replay_matches_the_snapshot():
    table = create_table("catan_junior", {}, FOUR, seed=21)
    moves = play_to_the_end(table, seed=21)
    table.refresh_from_db()
    game = table.game()
    state = game.decode(table.state)
    result = game.result(state)
    winner = result["winners"][0]
    assert moves > 40 and table.status == Table.Status.FINISHED
    assert state.lair_count(winner) == 7, "rule EN1: the winner has all seven lairs on the board"
    assert len(game.rules.board.sites) == 32, "3-4 players play the 3-4 side (SU1)"
    assert game.encode(replay(table)) == table.state
    page = phone_for(table, (winner + 1) % 4).get(f"/t/{table.code}/").content.decode()
    name = FOUR[winner]["name"]
    assert "Game over" in page and f"<bdi>{name}</bdi> has 7 lairs and wins!" in page
    assert f"{name} wins with 7 lairs!" in page and "rule EN1" not in page, "the tally says who won in words"
    assert "data-action" not in page, "a finished game offers no more taps"


@pytest.mark.django_db
def test_two_players_type_every_roll_of_a_physical_balanced_die_into_the_api():
    created = (
        APIClient()
        .post(
            "/api/tables/",
            {
                "game": "catan_junior",
                "options": {"components": "physical", "balanced_die": True},
                "seats": [{"name": "Ann"}, {"name": "Ben"}],
            },
            format="json",
        )
        .json()
    )
    code = created["code"]
    phones = [bearer(seat["token"]) for seat in created["seats"]]
    chooser = random.Random(8)
    faces_dealt: list[int] = []
    typed = refused_out_of_range = refused_used = 0
    for _ in range(3000):
        public = APIClient().get(f"/api/tables/{code}/").json()
        if public["status"] != "playing":
            break
        seat = public["prompt"]["seats"][0]
        body = phones[seat].get(f"/api/tables/{code}/prompt/").json()
        legal = [item["action"] for item in body["legal"]]
        action = eager_choice(chooser, legal)
        if action["kind"] == "roll":
            offered = sorted(a["value"] for a in legal)
            left = sorted(set(range(1, 7)) - set(faces_dealt))
            assert offered == left, "the balanced die offers exactly the faces not dealt in this cycle"
            if refused_out_of_range < 2:
                for bad in (0, 7):
                    answer = phones[seat].post(
                        f"/api/tables/{code}/actions/",
                        {"action": {"kind": "roll", "value": bad}, "version": body["version"]},
                        format="json",
                    )
                    assert answer.status_code == 400 and answer.json()["code"] == "bad_die_value"
                    refused_out_of_range += 1
            if faces_dealt and refused_used < 3:
                answer = phones[seat].post(
                    f"/api/tables/{code}/actions/",
                    {"action": {"kind": "roll", "value": faces_dealt[-1]}, "version": body["version"]},
                    format="json",
                )
                assert answer.status_code == 400 and answer.json()["code"] == "die_face_used"
                assert str(faces_dealt[-1]) in answer.json()["message"]
                refused_used += 1
            action = {"kind": "roll", "value": chooser.choice(left)}  # what the real die showed
            faces_dealt = [] if len(faces_dealt) == 5 else [*faces_dealt, action["value"]]
            typed += 1
        answer = phones[seat].post(
            f"/api/tables/{code}/actions/", {"action": action, "version": body["version"]}, format="json"
        )
        assert answer.status_code == 200, answer.json()
    else:
        raise AssertionError("no winner")
    assert public["status"] == "finished" and typed > 10 and refused_used == 3
    table = Table.objects.get(code=code)
    assert table.actions.filter(seq__gt=0).count() == table.version, "a refused die value wrote nothing"
    game = table.game()
    state = game.decode(table.state)
    assert len(game.rules.board.sites) == 16, "two players play the 2-player side (SU1)"
    assert sum(state.rolls) == typed and game.encode(replay(table)) == table.state
    assert state.lair_count(game.result(state)["winners"][0]) == 7


def position(table: Table, **changes) -> None:
    """Put the table in a hand-made position (scenario set-up for one refusal; not a logged move)."""
    game = table.game()
    state = dataclasses.replace(game.decode(table.state), **changes)
    table.state = game.encode(state)
    table.save()


@pytest.mark.django_db
def test_a_physical_coco_tile_of_a_kind_already_all_face_up_is_refused_and_not_offered():
    table = create_table("catan_junior", {"components": "physical"}, FOUR[:2], seed=3)
    game = table.game()
    kinds = game.rules.deck.names
    gone = kinds.index("molasses_wood")
    state = game.decode(table.state)
    supply = list(state.supply)
    supply[2] -= 1
    supply[4] -= 1  # Ann's molasses and gold come from the supply, so every token is still counted once
    position(
        table,
        phase="main",
        hands=((1, 0, 1, 1, 1), state.hands[1]),
        supply=tuple(supply),
        coco_stack=tuple(0 if k == gone else n for k, n in enumerate(state.coco_stack)),
        coco_taken=(state.coco_taken[0], tuple(2 if k == gone else 0 for k in range(len(kinds)))),
        castle=1,
    )
    ann = phone_for(table, 0)
    api = bearer(table.seats.get(index=0).token)
    offered = [item["action"] for item in api.get(f"/api/tables/{table.code}/prompt/").json()["legal"]]
    assert {"kind": "buy_coco", "tile": "ghost"} in offered
    assert {"kind": "buy_coco", "tile": "molasses_wood"} not in offered
    page = quotes_as_django(ann.get(f"/t/{table.code}/").content.decode())
    assert "&quot;tile&quot;:&quot;molasses_wood&quot;" not in page and "I drew a Coco tile: build for free" in page
    answer = post_action(ann, table, {"kind": "buy_coco", "tile": "molasses_wood"})
    assert answer.status_code == 422 and 'data-code="coco_not_in_stack"' in answer.content.decode()
    answer = api.post(
        f"/api/tables/{table.code}/actions/",
        {"action": {"kind": "buy_coco", "tile": "molasses_wood"}, "version": table.version},
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "coco_not_in_stack"
    table.refresh_from_db()
    # nothing but the note that Ann's token was used by the API beside her phone ("opened on another phone")
    assert table.actions.filter(seq__gt=0).exclude(kind="opened").count() == 0
    assert post_action(ann, table, {"kind": "buy_coco", "tile": "wool_cutlass"}).status_code == 200
    table.refresh_from_db()
    assert game.decode(table.state).hands[0] == (1, 2, 0, 2, 0), "paid molasses, cutlass, gold; took 2 wool, 2 cutlass"


def quotes_as_django(html: str) -> str:
    """``html`` with Jinja2's quote entities written as Django writes them (``&#34;`` is ``&quot;``, ``&#39;`` is
    ``&#x27;``: the same characters; the controls and some board parts are drawn by Jinja2)."""
    return html.replace("&#34;", "&quot;").replace("&#39;", "&#x27;")


def answer_buttons(html: str) -> set[str]:
    return set(re.findall(r"data-action='\{&quot;kind&quot;:&quot;(accept_trade|decline_trade)&quot;\}'",
                          quotes_as_django(html)))


@pytest.mark.django_db
def test_a_player_trade_is_answered_only_on_the_other_players_phone_and_applies_when_accepted():
    table = create_table("catan_junior", {"player_trades": True}, FOUR[:3], seed=9)
    ann, ben, cat = (phone_for(table, i) for i in range(3))
    assert post_action(ann, table, {"kind": "roll"}).status_code == 200
    game = table.game()
    table.refresh_from_db()
    before = game.decode(table.state).hands
    offer = {"kind": "offer_trade", "to": 1, "give": {"wood": 1}, "get": {"cutlass": 1}}
    assert post_action(ann, table, offer).status_code == 200
    pages = [phone.get(f"/t/{table.code}/").content.decode() for phone in (ann, ben, cat)]
    assert answer_buttons(pages[1]) == {"accept_trade", "decline_trade"}
    assert answer_buttons(pages[0]) == answer_buttons(pages[2]) == set()
    assert "data-action" not in pages[2], "Cat has nothing to tap"
    assert re.findall(r"data-action='([^']*)'", quotes_as_django(pages[0])) == ['{&quot;kind&quot;:&quot;withdraw_trade&quot;}'], "Ann may only withdraw"
    assert all('class="cj-offer"' in page for page in pages), "every phone shows the offer on the table"
    assert "<bdi>Ann</bdi> offers you" in pages[1]
    assert "Waiting for <bdi>Ben</bdi> to answer your offer:" in pages[0]
    assert "Waiting for <bdi>Ben</bdi> to answer <bdi>Ann</bdi>'s offer:" in pages[2]
    refused = post_action(cat, table, {"kind": "accept_trade"})
    assert refused.status_code == 422 and 'data-code="not_your_turn"' in refused.content.decode()
    assert post_action(ben, table, {"kind": "accept_trade"}).status_code == 200
    table.refresh_from_db()
    after = game.decode(table.state).hands
    assert after[0] == (before[0][0] - 1, *before[0][1:3], before[0][3] + 1, before[0][4])
    assert after[1] == (before[1][0] + 1, *before[1][1:3], before[1][3] - 1, before[1][4])
    assert after[2] == before[2]
    assert "Ben accepted the trade." in ann.get(f"/t/{table.code}/").content.decode()
    assert game.encode(replay(table)) == table.state


def paid_rows(html: str) -> dict[str, list[str]]:
    """The 'what the last roll paid' list of a page or frame: player name -> resource pictures."""
    block = re.search(r'<ul class="cj-paid">(.*?)</ul>', html, re.S)
    rows = re.findall(r'<li data-seat="\d+"><span class="chip \w+">(\w+)</span>(.*?)</li>', block.group(1), re.S)
    return {name: re.findall(r'data-res="(\w+)"', body) for name, body in rows}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_every_phone_sees_the_tokens_a_roll_paid_in_page_api_and_websocket_frame():
    """PR1: all players collect; the roll-1 example of the rulebook pays all four colours (case T01)."""
    table = await sync_to_async(create_table)("catan_junior", {"components": "physical"}, FOUR, seed=1)
    ann, dan = await sync_to_async(phone_for)(table, 0), await sync_to_async(phone_for)(table, 3)
    sock = socket_for(table.code, cookie_header(dan, table.code))
    assert (await sock.connect())[0]
    first = await sock.receive_from(5)
    assert "Nobody has rolled yet." in first
    answer = await sync_to_async(post_action)(ann, table, {"kind": "roll", "value": 1})
    assert answer.status_code == 200
    frame = await sock.receive_from(5)
    await sock.disconnect()
    expected = {"Ann": ["wool"], "Ben": ["wood"], "Cat": ["cutlass"], "Dan": ["cutlass"]}
    assert 'data-version="1"' in frame and paid_rows(frame) == expected
    assert "Ann rolled 1." in frame
    dan_page = (await sync_to_async(dan.get)(f"/t/{table.code}/")).content.decode()
    screen = (await sync_to_async(APIClient().get)(f"/t/{table.code}/screen/")).content.decode()
    assert paid_rows(dan_page) == paid_rows(screen) == expected
    assert 'class="cj-histogram"' in screen and 'data-face="1" data-count="1"' in screen
    token = await sync_to_async(lambda: table.seats.get(index=3).token)()
    view = (await sync_to_async(bearer(token).get)(f"/api/tables/{table.code}/view/")).json()["view"]
    assert {p["name"]: p["tokens"] for p in view["production"]["paid"]} == expected
    assert "private" not in view, "Catan Junior hides nothing: tokens lie open in front of every player"


@pytest.mark.django_db
def test_seats_store_the_colours_the_pieces_really_are_so_chips_match_the_board():
    two = create_table(
        "catan_junior", {}, [{"name": "Ann", "colour": "yellow"}, {"name": "Ben", "colour": "blue"}], seed=1
    )
    assert [s.colour for s in two.seats.order_by("index")] == ["yellow", "blue"]
    english = create_table("catan_junior", {"edition": "english"}, FOUR, seed=1)
    assert [s.colour for s in english.seats.order_by("index")] == ["red", "white", "orange", "blue"]
    page = phone_for(english, 1).get(f"/t/{english.code}/").content.decode()
    assert 'class="chip white"' in page and 'data-colour="white"' in page
    assert "purple" not in re.sub(r"<option[^>]*>[^<]*</option>", "", page.split('id="table"')[1])


@pytest.mark.django_db
def test_the_offerer_withdraws_a_pending_trade_from_their_phone_and_plays_on():
    table = create_table("catan_junior", {"player_trades": True}, FOUR[:3], seed=9)
    ann, ben = phone_for(table, 0), phone_for(table, 1)
    assert post_action(ann, table, {"kind": "roll"}).status_code == 200
    offer = {"kind": "offer_trade", "to": 1, "give": {"wood": 1}, "get": {"cutlass": 1}}
    assert post_action(ann, table, offer).status_code == 200
    assert post_action(ann, table, {"kind": "withdraw_trade"}).status_code == 200
    page = ann.get(f"/t/{table.code}/").content.decode()
    assert 'class="cj-offer"' not in page and "Ann withdrew the trade offer." in ben.get(f"/t/{table.code}/").content.decode()
    assert "data-cj-offer" in page, "Ann can make another offer with the picker"
