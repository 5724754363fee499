"""Yellow & Yangtze on the platform: whole games through the write path and the API, the physical bag,
secrecy of hands and screened points on every channel, and boards drawn in the editor."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from html import unescape

import pytest
from asgiref.sync import sync_to_async
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from games.models import EditionProfile, Table
from games.record.audit import replay
from games.write.moves import submit_action
from games.write.pregame import create_table
from shelf.yellow_yangtze.board import practice_board_data
from shelf.yellow_yangtze.editor import cells_from
from shelf.yellow_yangtze.state import COLOURS
from tests.conftest import cookie_header, phone_for, play_through_write_path, post_action, socket_for

FOUR = [{"name": n} for n in ("Ann", "Ben", "Cat", "Dan")]
DEFAULT_OPTIONS = {"opt-components": "digital", "opt-capitals_from_black": "on",
                   "opt-leader_join_own_colour": "forbidden", "opt-chain_after_declined_pagoda": "continue",
                   "opt-red_under_pagoda": "removed", "opt-who_fights": "involved", "opt-attrition": "highest",
                   "opt-attrition_counts_leader": "on", "opt-war_surplus": "return", "opt-red_leader_any_side": "on"}


@pytest.mark.django_db
def test_four_seats_play_a_digital_game_with_revolts_and_wars_to_the_final_tally():
    table = create_table("yellow_yangtze", {}, FOUR, seed=5)
    phones = [phone_for(table, i) for i in range(4)]
    shown = {}

    def every_legal_action_is_tappable(seat, legal):
        table.refresh_from_db()
        step = table.game().prompt(table.game().decode(table.state)).step
        html = phones[seat].get(f"/t/{table.code}/fragment/").content.decode()
        assert Client().get(f"/t/{table.code}/screen/").status_code == 200
        picks = {h: p.split() for h, p in re.findall(r'data-hex="(-?\d+,-?\d+)" data-picks="([^"]*)"', html)}
        tappable = [json.loads(unescape(a)) for a in re.findall(r"data-action='([^']*)'", html)]
        for action in legal:
            if step == "action" and "hex" in action:
                key = f"{action['kind']}-{action.get('colour') or int(bool(action.get('leader')))}"
                assert key in picks["{},{}".format(*action["hex"])], (step, action)
            elif not (step == "draw" and "tiles" in action):  # physical draws are typed in
                assert action in tappable, (step, action)
        shown[step] = True

    played = play_through_write_path(table, seed=5, on_new_step=every_legal_action_is_tappable)
    assert {"action", "draw", "chain", "market", "revolt_attacker", "revolt_defender", "war_support",
            "war_attrition"} <= set(shown), "the seed walks through every kind of step but pagodas and ties"
    table.refresh_from_db()
    game = table.game()
    result = game.result(game.decode(table.state))
    assert table.status == Table.Status.FINISHED and result["winners"]
    steps = [step for step, _seat, _action in played]
    # §5.2: both sides of a revolt answer on their own phones, attacker first.
    revolts = [i for i, step in enumerate(steps) if step == "revolt_attacker"]
    assert revolts and steps[revolts[0] + 1] == "revolt_defender"
    assert played[revolts[0]][1] != played[revolts[0] + 1][1]
    # §5.3: every seat answers a war's support step, the unifier last.
    war_start = steps.index("war_support")
    supporters = []
    for step, seat, _action in played[war_start:]:
        if step != "war_support":
            break
        supporters.append(seat)
    assert sorted(supporters) == [0, 1, 2, 3]
    assert game.encode(replay(table)) == table.state
    page = phone_for(table, 0).get(f"/t/{table.code}/").content.decode()
    assert "Game over" in page
    from games.read.presenters import tr
    for step in result["steps"]:
        assert str(tr(step["text"], step.get("details"))).replace("'", "&#x27;") in page
    api = APIClient().get(f"/api/tables/{table.code}/").json()
    assert api["status"] == "finished"


def bearer_clients(created: dict) -> list[APIClient]:
    """One API client per seat of a ``POST /api/tables/`` answer, each sending its seat's token as a bearer token."""
    clients = []
    for seat in created["seats"]:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {seat['token']}")
        clients.append(client)
    return clients


@pytest.mark.django_db
def test_a_physical_bag_takes_the_draws_typed_in_and_refuses_a_colour_no_longer_in_the_bag():
    created = APIClient().post("/api/tables/", {"game": "yellow_yangtze", "options": {"components": "physical"},
                                                "seats": FOUR}, format="json").json()
    code = created["code"]
    phones = bearer_clients(created)
    hands = [["yellow"] * 6, ["yellow"] * 6, ["red", "red", "blue", "blue", "black", "green"],
             ["black"] * 6]
    drawn = 0
    while True:
        public = APIClient().get(f"/api/tables/{code}/").json()
        if public["prompt"]["step"] != "draw":
            break
        seat = public["prompt"]["seats"][0]
        body = phones[seat].get(f"/api/tables/{code}/prompt/").json()
        assert all("tiles" in item["action"] for item in body["legal"]), "physical draws name their tiles"
        tiles = hands[drawn] if drawn < 4 else ["green", "green", "red", "red", "blue", "black"]
        if drawn == 2:  # the twelve yellow tiles are all in hands now (rules §1.2)
            refused = phones[seat].post(f"/api/tables/{code}/actions/", {
                "action": {"kind": "draw", "tiles": ["yellow"] + tiles[1:]}, "version": body["version"]},
                format="json")
            assert refused.status_code == 400
            assert refused.json()["code"] == "tile_not_in_bag"
            assert "yellow" not in refused.json()["message"], "the refusal does not say which colour is missing"
            # The drawer cannot see that the other two hands hold every yellow, so the list must not tell them:
            # yellow draws stay offered, and the real bag refuses them.
            assert any(item["action"]["tiles"].count("yellow") for item in body["legal"])
        answer = phones[seat].post(f"/api/tables/{code}/actions/", {"action": {"kind": "draw", "tiles": tiles},
                                                                    "version": body["version"]}, format="json")
        assert answer.status_code == 200, answer.json()
        drawn += 1
    assert drawn == 5 and public["prompt"]["step"] == "action"
    table = Table.objects.get(code=code)
    state = table.game().decode(table.state)
    assert state.market == (1, 2, 1, 2, 0), "the market holds what the start player typed in"
    assert state.bag[COLOURS.index("yellow")] == 0
    # A few moves on; every draw still comes from the phone.
    chooser = random.Random(5)
    for _ in range(12):
        public = APIClient().get(f"/api/tables/{code}/").json()
        seat = public["prompt"]["seats"][0]
        body = phones[seat].get(f"/api/tables/{code}/prompt/").json()
        choices = [item["action"] for item in body["legal"]]
        chooser.shuffle(choices)
        for choice in choices:
            if choice["kind"] == "draw":
                assert "tiles" in choice
            answer = phones[seat].post(f"/api/tables/{code}/actions/", {"action": choice, "version": body["version"]},
                                       format="json")
            # A listed draw the real bag cannot give is refused: the table enters what it really drew.
            if choice["kind"] == "draw" and answer.status_code == 400:
                assert answer.json()["code"] == "tile_not_in_bag"
                continue
            assert answer.status_code == 200, answer.json()
            break


def hand_markers(html: str) -> list[str]:
    """The colours on the private screen's tile buttons."""
    return sorted(re.findall(r'data-hand-colour="(\w+)"', html))


def point_markers(html: str) -> dict[str, int]:
    return {c: int(n) for c, n in re.findall(r'data-points-colour="(\w+)">(\d+)<', html)}


def dealt_secret_table() -> tuple[Table, dict, dict]:
    """A physical four-seat table: Alice holds six yellow, Carol six blue; Alice has 7 red and 3 green points."""
    table = create_table("yellow_yangtze", {"components": "physical"},
                                  [{"name": n} for n in ("Alice", "Bob", "Carol", "Dan")], seed=1)
    game = table.game()
    hands = {0: ["yellow"] * 6, 1: ["black"] * 6, 2: ["blue"] * 6, 3: ["red"] * 6}
    while True:
        table.refresh_from_db()
        state = game.decode(table.state)
        prompt = game.prompt(state)
        if prompt.step != "draw":
            break
        seat, target, _n = state.pending.queue[0]
        tiles = hands[seat] if target == "hand" else ["green"] * 6
        submit_action(table.code, seat, {"kind": "draw", "tiles": tiles}, table.version)
    # Screened points differ too (constructed: a snapshot edit, as if scored earlier).
    state = replace(state, points=((0, 7, 0, 3, 0),) + state.points[1:])
    table.state = game.encode(state)
    table.save(update_fields=["state"])
    return table, {"yellow": 6}, {"red": 7, "green": 3}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_hands_and_screened_points_stay_on_their_owners_phone_in_pages_api_log_and_frames():
    table, alice_hand, alice_points = await sync_to_async(dealt_secret_table)()
    alice, carol = await sync_to_async(phone_for)(table, 0), await sync_to_async(phone_for)(table, 2)
    sock = socket_for(table.code, cookie_header(carol, table.code))
    assert (await sock.connect())[0]
    frames = [await sock.receive_from(5)]

    def one_move_by_the_active_seat():
        table.refresh_from_db()
        game = table.game()
        state = game.decode(table.state)
        seat = game.prompt(state).seats[0]
        move = next(a for a in game.legal_actions(state, seat) if a["kind"] == "tile")
        submit_action(table.code, seat, move, table.version)

    await sync_to_async(one_move_by_the_active_seat)()
    frames.append(await sock.receive_from(5))
    await sock.disconnect()
    get = sync_to_async(lambda client, url: client.get(url).content.decode())
    alice_page = await get(alice, f"/t/{table.code}/")
    carol_page = await get(carol, f"/t/{table.code}/")
    carol_fragment = await get(carol, f"/t/{table.code}/fragment/")
    screen = await get(Client(), f"/t/{table.code}/screen/")
    # Alice's own screen shows her six yellow and her points: the markers this test looks for exist.
    assert "yellow" in hand_markers(alice_page) and point_markers(alice_page) == {
        "black": 0, "red": 7, "blue": 0, "green": 3, "yellow": 0}
    for html in [carol_page, carol_fragment, frames[0]]:
        assert hand_markers(html) == ["blue"], "Carol sees her own tiles only"
        assert point_markers(html) == {c: 0 for c in COLOURS}, "Carol sees her own (zero) points only"
        assert "yellow ×" not in html
    # A later frame resends Carol's screen only if it changed (Alice's move leaves it as it was): never Alice's.
    for html in frames[1:]:
        assert hand_markers(html) in ([], ["blue"]) and point_markers(html) in ({}, {c: 0 for c in COLOURS})
        assert "yellow ×" not in html
    assert hand_markers(screen) == [] and point_markers(screen) == {}
    api = APIClient()
    carol_token = await sync_to_async(lambda: table.seats.get(index=2).token)()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {carol_token}")
    view = (await sync_to_async(api.get)(f"/api/tables/{table.code}/view/")).json()
    assert view["view"]["private"]["hand"] == {"black": 0, "red": 0, "blue": 6, "green": 0, "yellow": 0}
    assert view["view"]["private"]["points"] == {c: 0 for c in COLOURS}
    assert "final" not in view["view"]
    text = json.dumps(view)
    assert '"red": 7' not in text and '"yellow": 6' not in text
    prompt = (await sync_to_async(api.get)(f"/api/tables/{table.code}/prompt/")).json()
    assert "yellow" not in json.dumps(prompt.get("legal", []))
    log = (await sync_to_async(api.get)(f"/api/tables/{table.code}/log/")).json()["log"]
    alice_draw = [line for line in log if line["seat"] == 0 and "drew" in line["text"]]
    assert alice_draw and all("yellow" not in line["text"] for line in alice_draw)
    assert all(line["seat"] == 2 for line in log if line["private"])


def drawn_board_post(name: str, **changes) -> dict:
    practice = json.loads(practice_board_data())
    cells = cells_from(practice)
    cells["0,0"] = {"terrain": "off"}  # our map differs from the practice map
    post = {"name": name, "orientation": "pointy", "cols": 14, "rows": 11, "source": "drawn in a test",
            "cells": json.dumps(cells), "save": "1"}
    post.update(changes)
    return post


@pytest.mark.django_db
def test_the_editor_refuses_a_board_with_the_failed_check_and_never_stores_it():
    cells = cells_from(json.loads(practice_board_data()))
    for cell in cells.values():
        cell.pop("capital", None)
    response = Client().post("/editions/yellow_yangtze/board/", drawn_board_post("No capitals", cells=json.dumps(cells)))
    assert response.status_code == 400
    assert "exactly 7 capitals" in response.content.decode()
    garbage = Client().post("/editions/yellow_yangtze/board/", drawn_board_post("Bad", cells="[1, 2"))
    assert garbage.status_code == 400
    outside = Client().post("/editions/yellow_yangtze/board/", drawn_board_post("Small", cols=3, rows=3))
    assert outside.status_code == 400 and "outside the grid" in outside.content.decode()
    assert not EditionProfile.objects.exists()


@pytest.mark.django_db
def test_a_board_drawn_in_the_editor_exports_imports_on_a_fresh_install_and_a_table_plays_on_it():
    phone = Client()
    assert phone.get("/editions/yellow_yangtze/board/").status_code == 200
    assert phone.get("/editions/yellow_yangtze/board/?start=practice").status_code == 200
    saved = phone.post("/editions/yellow_yangtze/board/", drawn_board_post("Our river map"))
    assert saved.status_code == 302
    profile = EditionProfile.objects.get()
    assert profile.slug == "yellow_yangtze" and profile.option == "board" and not profile.verified
    assert {"q": 0, "r": 0, "terrain": "land"} not in profile.data["hexes"]
    exported = phone.get(f"/editions/{profile.id}/export.json")
    EditionProfile.objects.all().delete()  # a fresh install
    phone.post("/editions/import/", {"file": SimpleUploadedFile("board.json", exported.content)})
    again = EditionProfile.objects.get()
    assert again.data == profile.data
    options = phone.get("/?game=yellow_yangtze", HTTP_HX_REQUEST="true").content.decode()
    assert "Our river map" in options
    created = phone.post("/", {"game": "yellow_yangtze", "players": 3, **DEFAULT_OPTIONS, "opt-board": str(again.id)})
    assert created.status_code == 302, created.content.decode()[:3000]
    table = Table.objects.get()
    assert table.options["board"]["name"] == "Our river map"
    game = table.game()
    assert (0, 0) not in game.board.hexes
    host = phone_for(table, 0)
    page = host.get(f"/t/{table.code}/").content.decode()
    assert "is not verified against a real box" in page and "Our river map" in page, "said at the table's set-up"
    played = play_through_write_path(table, seed=8, stop=12)
    assert len(played) == 12
    page = host.get(f"/t/{table.code}/").content.decode()
    assert "is not verified against a real box" not in page, "once play began the note leaves the phones"


@pytest.mark.django_db
def test_a_phone_places_a_tile_by_posting_the_armed_target_and_a_bad_hex_is_refused_with_its_code():
    table = create_table("yellow_yangtze", {}, FOUR, seed=3)
    game = table.game()
    state = game.decode(table.state)
    seat = game.prompt(state).seats[0]
    phone = phone_for(table, seat)
    page = phone.get(f"/t/{table.code}/").content.decode()
    assert len(page) < 80_000, "one map with per-hex targets, not a map per colour"
    targets = dict(re.findall(r'data-hex="(-?\d+,-?\d+)" data-picks="([^"]*)"', page))
    hand = game.view(state, seat)["private"]["hand"]
    colour = next(c for c in ("black", "red", "green", "yellow") if hand[c])
    hex_ = next(h for h, picks in targets.items() if f"tile-{colour}" in picks.split())
    move = {"kind": "tile", "colour": colour, "hex": [int(x) for x in hex_.split(",")]}
    assert move in game.legal_actions(state, seat)
    assert f'data-yy-pick="tile-{colour}"' in page
    answer = post_action(phone, table, move)
    assert answer.status_code == 200 and "1 of 2 actions left" in answer.content.decode()
    bad = post_action(phone, table, {"kind": "tile", "colour": colour, "hex": [99, 99]})
    assert bad.status_code in (400, 422) and 'data-code="' in bad.content.decode()


@pytest.mark.django_db
def test_redrawing_the_grid_keeps_the_drawing_inside_it_and_starts_new_cells_as_land():
    cells = {"0,0": {"terrain": "yellow"}, "1,0": {"terrain": "land", "capital": "Qin"}, "9,9": {"terrain": "land"}}
    response = Client().post("/editions/yellow_yangtze/board/", {
        "name": "Flat", "orientation": "flat", "cols": 5, "rows": 4, "cells": json.dumps(cells), "redraw": "1"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('<g class="cell ') == 20
    drawing = json.loads(re.search(r'name="cells" value="([^"]*)"', html).group(1).replace("&quot;", '"'))
    assert len(drawing) == 20 and "9,9" not in drawing
    assert drawing["0,0"] == {"terrain": "yellow"} and drawing["1,0"] == {"terrain": "land", "capital": "Qin"}
    assert drawing["4,0"] == {"terrain": "land"}
    assert not EditionProfile.objects.exists()


@pytest.mark.django_db
def test_every_phone_and_the_table_screen_say_who_won_a_settled_conflict_and_the_log_states_the_outcome():
    table = create_table("yellow_yangtze", {}, FOUR, seed=3)
    phones = [phone_for(table, i) for i in range(4)]
    seen: dict[str, str] = {}

    def choose(rng, legal):
        table.refresh_from_db()
        game = table.game()
        view = game.view(game.decode(table.state), None)
        last = view["last_conflict"]
        if last and last["kind"] not in seen:
            heading = "Revolt over" if last["kind"] == "revolt" else "War over"
            pages = [p.get(f"/t/{table.code}/fragment/").content.decode() for p in phones]
            pages.append(Client().get(f"/t/{table.code}/screen/").content.decode())
            for page in pages:
                assert 'class="yy-outcome"' in page and heading in page
                assert last["winner_names"].replace("'", "&#x27;") in page
                for leader in last["leaders"]:
                    assert leader["hex"] in page
            # The settling move's log line states the outcome too (rules §5).
            assert re.search(heading + r" \(\d+ : \d+[^<]*Points: ", pages[0]), heading
            seen[last["kind"]] = heading
        return rng.choice(legal)

    play_through_write_path(table, seed=3, choose=choose)
    assert set(seen) == {"revolt", "war"}


@pytest.mark.django_db
def test_the_phone_board_draws_column_letters_and_row_numbers_along_its_edges():
    table = create_table("yellow_yangtze", {}, FOUR, seed=3)
    page = phone_for(table, 0).get(f"/t/{table.code}/").content.decode()
    edge = re.search(r'<g class="edge"[^>]*>(.*?)</g>', page, re.S).group(1)
    texts = re.findall(r">([A-Z0-9]+)</text>", edge)
    assert texts[:3] == ["A", "B", "C"] and "N" in texts and "11" in texts


@pytest.mark.django_db
def test_war_support_is_picked_side_first_then_a_number_of_red_tiles_and_every_commit_stays_reachable():
    table = create_table("yellow_yangtze", {}, FOUR, seed=3)
    phones = [phone_for(table, i) for i in range(4)]
    checked = []

    def choose(rng, legal):
        table.refresh_from_db()
        game = table.game()
        state = game.decode(table.state)
        prompt = game.prompt(state)
        if prompt.step == "war_support" and len(legal) > 2:
            seat = prompt.seats[0]
            html = phones[seat].get(f"/t/{table.code}/fragment/").content.decode()
            controls = html[html.index('class="yy-controls"'):]
            sides = game.view(state, seat)["conflict"]["sides"]
            assert controls.count('<details class="yy-side-pick"') == len(sides)
            for action in legal:
                assert json.dumps(action, separators=(",", ":"), sort_keys=True) in unescape(controls)
            numbers = re.findall(r'title="[^"]*">(\d+)</button>', controls)
            assert len(numbers) == len(legal) - 1  # every commit is a bare number; "Commit nothing" is the rest
            checked.append(seat)
        return rng.choice(legal)

    play_through_write_path(table, seed=3, choose=choose)
    assert checked


@pytest.mark.django_db
def test_the_phone_board_has_a_river_legend_a_larger_board_toggle_and_leaders_in_their_dynasty_shape():
    table = create_table("yellow_yangtze", {}, FOUR, seed=3)

    def leaders_first(rng, legal):
        placing = [a for a in legal if a["kind"] == "leader"]
        return rng.choice(placing or legal)

    play_through_write_path(table, seed=3, stop=12, choose=leaders_first)
    table.refresh_from_db()
    game = table.game()
    view = game.view(game.decode(table.state), 0)
    assert view["leaders"], "the scenario puts a leader on the board"
    page = phone_for(table, 0).get(f"/t/{table.code}/").content.decode()
    legend = re.search(r'<p class="yy-legend[^"]*">(.*?)</p>', page, re.S).group(1)
    assert "Yellow River" in legend and "Yangtze" in legend and 'class="sw ry"' in legend and 'class="sw rz"' in legend
    assert 'class="yy-zoom"' in legend
    for leader in view["leaders"]:
        marker = re.search(rf'data-leader="{leader["seat"]}-{leader["colour"]}"><use href="#yyd-(\w+)"', page)
        assert marker and marker.group(1) == leader["dynasty"]
    assert page.count('class="yy-badge"') >= len(FOUR)  # each player's shape beside their name


@pytest.mark.django_db
def test_the_board_editor_writes_every_capital_name_in_full_inside_the_grid():
    page = Client().get("/editions/yellow_yangtze/board/?start=practice").content.decode()
    width = float(re.search(r'viewBox="0 0 (\d+) \d+"[^>]*class="yy-edit"', page).group(1))
    labels = dict((name, float(x)) for x, name in re.findall(r'<text x="([\d.]+)" y="[\d.]+">(\w+)</text>', page))
    assert set(labels) == {"Qin", "Chu", "Qi", "Yan", "Han", "Wei", "Zhao"}
    assert all(12 <= x <= width - 12 for x in labels.values()), "each name is centred well inside the grid"


def _region(frame: str, region_id: str) -> str:
    """One region's HTML out of a socket frame (regions follow each other as out-of-band swaps), or ''."""
    start = frame.find(f'id="{region_id}"')
    if start < 0:
        return ""
    end = frame.find('hx-swap-oob="true"', start)
    return frame[start:end if end > 0 else len(frame)]


@pytest.mark.django_db
def test_the_picks_sit_in_the_action_bar_from_the_seats_own_hand_and_a_push_resends_them_when_the_hand_changes():
    from games.read import regions
    from games.socket.consumers import render_push

    table = create_table("yellow_yangtze", {}, FOUR, seed=3)
    game = table.game()
    state = game.decode(table.state)
    mover = game.prompt(state).seats[0]
    tokens = {s.index: s.token for s in table.seats.all()}
    sent = regions.Sent()
    frame = render_push(table.code, tokens[mover], "en", False, sent)
    controls, board = _region(frame, "r-controls"), _region(frame, "r-board")
    hand = game.view(state, mover)["private"]["hand"]
    assert sorted(re.findall(r'data-yy-pick="tile-(\w+)"', controls)) == sorted(c for c, n in hand.items() if n)
    for colour, n in hand.items():
        if n:
            assert re.search(rf'data-yy-pick="tile-{colour}"[^>]*>{colour} ×{n}<', controls), (colour, n)
    assert len(re.findall(r'data-yy-pick="leader-', controls)) == 5
    assert "data-yy-pick=\"" not in board, "the screen under the map is for reading"
    assert sorted(re.findall(r'data-hand-colour="(\w+)"', board)) == sorted(c for c, n in hand.items() if n)
    other = next(i for i in tokens if i != mover)
    assert "data-yy-pick=\"" not in render_push(table.code, tokens[other], "en", False, regions.Sent()), \
        "another seat's phone is offered no pick (and shows no one else's hand)"

    colour = next(c for c in ("black", "red", "green", "yellow") if hand[c])
    move = next(a for a in game.legal_actions(state, mover) if a["kind"] == "tile" and a["colour"] == colour)
    submit_action(table.code, mover, move, table.version)
    controls = _region(render_push(table.code, tokens[mover], "en", False, sent), "r-controls")
    assert controls, "the hand changed: the bar is pushed again"
    left = hand[colour] - 1
    assert (f'>{colour} ×{left}<' in controls) if left else f'data-yy-pick="tile-{colour}"' not in controls


def _war_brink_table(names: list[str]) -> tuple[str, list[APIClient], Table, int]:
    """A physical 3-seat table played through the API up to the tie war of scenarios.tie_war_brink (seed 2), the
    war tile placed and every seat abstained: the unifier must now break the tie (rules §5.3). Returns
    ``(code, seat clients, table, unifier)``."""
    from tests.engines.yellow_yangtze.scenarios import tie_war_brink

    created = APIClient().post("/api/tables/", {"game": "yellow_yangtze", "options": {"components": "physical"},
                                                "seats": [{"name": n} for n in names]}, format="json").json()
    code = created["code"]
    phones = bearer_clients(created)
    start = APIClient().get(f"/api/tables/{code}/").json()["prompt"]["seats"][0]
    steps, (unifier, war_tile), _state = tie_war_brink(names, start, seed=2)
    table = Table.objects.get(code=code)
    for seat, action in [*steps, (unifier, war_tile)]:
        submit_action(code, seat, action, None)
    for k in (1, 2, 0):
        submit_action(code, (unifier + k) % 3, {"kind": "abstain"}, None)
    table.refresh_from_db()
    return code, phones, table, unifier


@pytest.mark.django_db
def test_a_tie_break_posted_without_its_outcome_is_stored_and_logged_as_the_listed_one():
    """Rules §5.3: the move that settles a war is logged with its outcome, computed by the engine, whether the phone
    posted the ``outcome`` (and ``owners``) the prompt lists or left them out."""
    code, phones, table, unifier = _war_brink_table(["Ann", "Ben", "Cat"])
    me = phones[unifier]
    rows, lines = [], []
    for bare in (True, False):
        prompt = me.get(f"/api/tables/{code}/prompt/").json()
        assert prompt["prompt"]["step"] == "war_winner"
        listed = prompt["legal"][0]["action"]
        assert "outcome" in listed and "owners" in listed
        posted = {k: v for k, v in listed.items() if k not in ("outcome", "owners")} if bare else listed
        key = f"tie-{bare}"
        answer = me.post(f"/api/tables/{code}/actions/", {"action": posted, "version": prompt["version"], "key": key},
                         format="json")
        assert answer.status_code == 200, answer.json()
        again = me.post(f"/api/tables/{code}/actions/", {"action": posted, "version": prompt["version"], "key": key},
                        format="json")
        assert again.json()["replayed"] is True, "a retry of the same post is the same move"
        row = table.actions.get(seq=answer.json()["seq"])
        assert row.payload == listed
        rows.append(row)
        lines.append(APIClient().get(f"/api/tables/{code}/log/").json()["log"][0]["text"])
        table.refresh_from_db()
        assert table.game().encode(replay(table)) == table.state
        if bare:
            undone = me.post(f"/api/tables/{code}/undo-mine/", {"version": table.version}, format="json")
            assert undone.status_code == 200, undone.json()
    assert rows[0].payload == rows[1].payload
    assert lines[0] == lines[1] and "War over (0 : 0)" in lines[0] and "Points:" in lines[0], lines
    # An older log stored such a move without its log fields: it replays to the same position.
    table.refresh_from_db()
    for row in rows:
        row.payload = {k: v for k, v in row.payload.items() if k not in ("outcome", "owners")}
        row.save(update_fields=["payload"])
    assert table.game().encode(replay(table)) == table.state


def _turn_line(html: str) -> str:
    """The text of the board's turn header (bidi isolates and tags removed)."""
    found = re.search(r'<p class="yy-turn">(.*?)</p>', html, re.S)
    assert found, "the board has a turn header"
    return re.sub(r"<[^>]+>", "", unescape(found.group(1))).replace("\u2068", "").replace("\u2069", "").strip()


@pytest.mark.django_db
def test_a_war_counts_the_placement_that_caused_it_says_your_turn_and_shows_sides_one_cannot_back_as_information():
    """Rules §2 and §5.1: a conflict is settled inside the action that caused it, so through the war the unifier
    has 1 of 2 actions left, as the prompt's "action 2 of 2" says after it; the unifier's own phone says "Your
    turn"; a supporter who cannot back a side (no red tiles; with option red_leader_any_side off, §1.1, an
    off-board red leader backs only a side holding one of its owner's leaders) sees that side as a line of
    information, not a tappable row, and is told there is nothing to commit."""
    from django.db.models import F

    from tests.engines.yellow_yangtze import test_war
    from tests.engines.yellow_yangtze.helpers import ALICE, BOB, DAN, fixture_board

    table = create_table("yellow_yangtze", {"board": fixture_board(), "red_leader_any_side": False}, FOUR, seed=3)
    game = table.game()
    _before, war = test_war.worked_example(game)  # Dan's green tile joined two states: his first action
    Table.objects.filter(id=table.id).update(state=game.encode(war), revision=F("revision") + 1)
    table.refresh_from_db()
    phones = [phone_for(table, i) for i in range(4)]

    def page(seat: int) -> str:
        return phones[seat].get(f"/t/{table.code}/fragment/").content.decode()

    def api_left(seat: int) -> int:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=seat).token}")
        return client.get(f"/api/tables/{table.code}/view/").json()["view"]["actions_left"]

    assert _turn_line(page(DAN)) == "Your turn — 1 of 2 actions left"
    assert _turn_line(page(ALICE)) == "Dan's turn — 1 of 2 actions left"
    assert _turn_line(Client().get(f"/t/{table.code}/screen/").content.decode()) == "Dan's turn — 1 of 2 actions left"
    assert api_left(DAN) == api_left(ALICE) == 1

    # Alice holds a red tile: both sides are rows to open and tap.
    html = page(ALICE)
    controls = html[html.index('class="yy-controls"'):]
    assert controls.count('<details class="yy-side-pick"') == 2 and "yy-side-info" not in controls
    assert "Your decision: commit red tiles to one side, or nothing." in html
    submit_action(table.code, ALICE, {"kind": "abstain"}, None)
    # Bob has no red tile; his red leader may back only the side of his blue leader (side 1).
    html = page(BOB)
    controls = html[html.index('class="yy-controls"'):]
    assert re.findall(r'<details class="yy-side-pick"[^>]*data-side="(\d)"', controls) == ["0"]
    assert re.findall(r'<p class="yy-side-info" data-side="(\d)"', controls) == ["1"]
    submit_action(table.code, BOB, {"kind": "abstain"}, None)
    submit_action(table.code, 2, {"kind": "abstain"}, None)
    # Dan has neither a red tile nor a leader on either side: nothing to commit, and no row looks tappable.
    html = page(DAN)
    controls = html[html.index('class="yy-controls"'):]
    assert "yy-side-pick" not in controls and controls.count('class="yy-side-info"') == 2
    assert "You have no red tiles to commit." in controls
    assert "Your decision: you have no red tiles to commit, so commit nothing." in html
    assert "Commit nothing" in controls
    submit_action(table.code, DAN, {"kind": "abstain"}, None)

    # Attrition, then the war is over: Dan's second action is next, and header, API and prompt agree.
    table.refresh_from_db()
    state = game.decode(table.state)
    assert game.prompt(state).step == "war_attrition"
    assert _turn_line(page(DAN)) == "Your turn — 1 of 2 actions left"
    submit_action(table.code, DAN, game.legal_actions(state, DAN)[0], None)
    table.refresh_from_db()
    state = game.decode(table.state)
    assert game.prompt(state).step == "action" and state.pending is None
    html = page(DAN)
    assert _turn_line(html) == "Your turn — 1 of 2 actions left" and "Dan: action 2 of 2." in html
    assert api_left(DAN) == 1


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["fa", "ps"])
def test_the_revolt_panel_joins_its_two_counts_with_the_arabic_comma_on_persian_and_pashto_phones(lang):
    from django.conf import settings
    from django.db.models import F

    from tests.engines.yellow_yangtze import test_revolt
    from tests.engines.yellow_yangtze.helpers import ALICE, BOB, fixture_board

    table = create_table("yellow_yangtze", {"board": fixture_board()}, FOUR, seed=3)
    game = table.game()
    revolt = game.apply(test_revolt.worked_example(game), BOB, {"kind": "commit", "tiles": 2})  # the defender's step
    Table.objects.filter(id=table.id).update(state=game.encode(revolt), revision=F("revision") + 1)
    phone = phone_for(table, ALICE)
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    html = phone.get(f"/t/{table.code}/fragment/").content.decode()
    attacker = re.search(r'<span class="sw sw0"></span>(.*?)</li>', html, re.S).group(1)
    assert "، " in attacker and ", " not in attacker, attacker
