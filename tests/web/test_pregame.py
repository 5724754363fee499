"""Who starts, the set-up walkthrough, play again.

Who starts is a ``start`` log row applied to the opening on every replay, so
replay_table and check_draws must hold on tables with these steps; the
walkthrough's checks live on the table (a reload keeps them); a next game
gives each phone its own seat of the new table and nobody else's.
"""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from markupsafe import escape

from games.engines import get_adapter, get_game_class
from games.engines.base import IllegalAction
from games.engines.chance import start_rng
from games.entry.access import host_cookie, seat_cookie, set_signed
from games.models import Action, Table
from games.read import snapshots
from games.record import setup
from games.record.audit import check_draws, replay
from games.text.words import show as tr
from games.write.host import ask_start_again, end_game, hand_over_seat
from games.write.moves import submit_action
from games.write.pregame import check_walk_step, create_table, decide_start, play_again
from games.write.write_path import Forbidden
from tests.conftest import phone_for, play_through_write_path
from tests.registry import GAMES

NAMES = ["Ann", "Ben", "Cy", "Di"]


def seats_for(slug: str, n: int = 3) -> list[dict]:
    cls = get_game_class(slug)
    return [{"name": NAMES[i], "colour": cls.colours[i]} for i in range(n)]


def prompted(table: Table) -> tuple[int, ...]:
    table.refresh_from_db()
    game = table.game()
    return game.prompt(game.decode(table.state)).seats


def replays(table: Table) -> bool:
    table.refresh_from_db()
    game = table.game()
    return game.encode(replay(table, strict=True)) == table.state


# -- who starts ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("slug", "rule"), [("sorry", "highest_card"), ("amun_re", "oldest"),
                                            ("catan_junior", "youngest"), ("yellow_yangtze", "random")])
def test_each_game_defaults_to_its_printed_start_rule(slug, rule):
    assert get_game_class(slug).start_rule == rule
    assert setup.start_choices(get_game_class(slug))[0] == rule


@pytest.mark.parametrize(("slug", "rule"), [("catan_junior", "youngest"), ("amun_re", "oldest"), ("sorry", "youngest")])
def test_the_tapped_youngest_or_oldest_player_starts_and_play_goes_clockwise_from_them(db, slug, rule):
    table = create_table(slug, {}, seats_for(slug), start=rule)
    assert setup.start_pending(table.pregame)
    with pytest.raises(IllegalAction) as refused:
        submit_action(table.code, 0, {"kind": "roll"}, table.version)
    assert refused.value.code == "start_first"
    decide_start(table.code, seat=2)
    assert prompted(table) == (2,)
    table.refresh_from_db()
    assert table.actions.filter(kind=Action.Kind.START).get().payload["seat"] == 2
    game = table.game()
    state = game.decode(table.state)
    first = prompted(table)[0]
    play_through_write_path(table, 5, stop=12)
    assert replays(table)
    if slug == "amun_re":
        assert state.ankh == 2 and state.kingdom_start == 2  # rules 2.1 step 5: the oldest holds the Ankh
    assert first == 2
    with pytest.raises(IllegalAction) as again:
        decide_start(table.code, seat=0)
    assert again.value.code == "start_decided"


def test_amun_re_hand_building_goes_clockwise_from_the_ankh_holder(db):
    table = create_table("amun_re", {}, seats_for("amun_re"), start="oldest")
    decide_start(table.code, seat=1)
    order = []
    for _ in range(3):
        seat = prompted(table)[0]
        order.append(seat)
        table.refresh_from_db()
        game = table.game()
        action = game.legal_actions(game.decode(table.state), seat)[0]
        submit_action(table.code, seat, action, table.version)
    assert order == [1, 2, 0]


def test_a_digital_highest_card_is_drawn_for_every_seat_logged_and_re_derived_from_the_seed(db):
    table = create_table("sorry", {}, seats_for("sorry", 4), start="highest_card", seed=77)
    with pytest.raises(IllegalAction):
        decide_start(table.code, cards={"0": "5"})  # digital: the app draws
    decide_start(table.code, draw=True)
    row = Table.objects.get(code=table.code).actions.get(kind=Action.Kind.START)
    rounds, seat = row.payload["rounds"], row.payload["seat"]
    assert sorted(rounds[0]) == ["0", "1", "2", "3"]
    game = table.game()
    best = max(game.start_card_rank(c) for c in rounds[-1].values())
    assert [int(s) for s, c in rounds[-1].items() if game.start_card_rank(c) == best] == [seat]
    assert prompted(table) == (seat,)
    play_through_write_path(table, 3, stop=20)
    check = check_draws(Table.objects.get(code=table.code))
    assert check.ok and row.seq in check.checked, check.reason
    assert replays(table)


def test_a_digital_highest_card_tie_draws_again_among_the_tied_only(db):
    game = get_game_class("sorry")({}, _infos(4))
    for seed in range(400):
        rounds, winner = setup.draw_highest(game, [0, 1, 2, 3], random.Random(seed))
        if len(rounds) > 1:
            break
    else:
        pytest.fail("no tie in 400 seeds")
    first = rounds[0]
    best = max(game.start_card_rank(c) for c in first.values())
    tied = sorted(int(s) for s, c in first.items() if game.start_card_rank(c) == best)
    assert len(tied) > 1 and sorted(int(s) for s in rounds[1]) == tied
    assert winner in tied


def _infos(n: int):
    from games.engines.base import SeatInfo

    cls = get_game_class("sorry")
    return [SeatInfo(i, NAMES[i], cls.colours[i]) for i in range(n)]


def test_a_tapped_in_highest_card_with_a_tie_redraws_among_the_tied_and_replays(db):
    table = create_table("sorry", {"components": "physical"}, seats_for("sorry", 3), start="highest_card")
    decide_start(table.code, cards={"0": "12", "1": "12", "2": "3"})
    table.refresh_from_db()
    assert table.pregame["start"] == {"rule": "highest_card", "seat": None, "tied": [0, 1]}
    with pytest.raises(IllegalAction) as wrong_seats:  # only the tied draw again
        decide_start(table.code, cards={"0": "5", "1": "4", "2": "11"})
    assert wrong_seats.value.code == "bad_start_cards"
    with pytest.raises(IllegalAction) as no_card:
        decide_start(table.code, cards={"0": "6", "1": "4"})  # no 6 in the deck (section 2.1)
    assert no_card.value.code == "bad_start_cards"
    decide_start(table.code, cards={"0": "4", "1": "sorry"})
    assert prompted(table) == (1,)
    rows = list(Table.objects.get(code=table.code).actions.filter(kind=Action.Kind.START))
    assert [r.payload["seat"] for r in rows] == [None, 1]
    game = table.game()
    submit_action(table.code, 1, {"kind": "draw", "card": "1"}, Table.objects.get(code=table.code).version)
    assert replays(table)
    check = check_draws(Table.objects.get(code=table.code))
    assert check.ok and [r.seq for r in rows] == [s for s in check.physical if s in {r.seq for r in rows}]
    assert game.start_card_rank("sorry") > game.start_card_rank("12")


def test_a_round_cannot_show_more_copies_of_a_card_than_the_deck_has(db):
    seats = seats_for("sorry", 4)
    table = create_table("sorry", {"components": "physical", "deck_counts": {
        "1": 5, "2": 4, "3": 4, "4": 4, "5": 4, "7": 4, "8": 4, "10": 4, "11": 4, "12": 1, "sorry": 4}},
        seats, start="highest_card")
    with pytest.raises(IllegalAction) as refused:
        decide_start(table.code, cards={"0": "12", "1": "12", "2": "3", "3": "1"})
    assert refused.value.code == "bad_start_cards" and Table.objects.get(code=table.code).version == table.version


@pytest.mark.parametrize("slug", GAMES)
def test_a_random_start_is_drawn_from_the_seed_logged_and_replays(db, slug):
    table = create_table(slug, {}, seats_for(slug), start="random", seed=1234)
    row = table.actions.get(kind=Action.Kind.START)
    expected = start_rng(1234, table.draw_keys, row.seq).randrange(3)
    assert row.payload == {"rule": "random", "seat": expected, "mode": "digital"}
    assert prompted(table)[0] == expected or slug == "yellow_yangtze"  # Y&Y: the deal comes first in physical only
    play_through_write_path(table, 8, stop=15)
    assert replays(table)
    check = check_draws(Table.objects.get(code=table.code))
    assert check.ok and row.seq in check.checked, check.reason
    call_command("replay_table", table.code)


def test_a_tampered_random_start_is_rejected_by_the_fairness_check(db):
    table = create_table("catan_junior", {}, seats_for("catan_junior"), start="random", seed=5)
    row = table.actions.get(kind=Action.Kind.START)
    Action.objects.filter(pk=row.pk).update(payload={**row.payload, "seat": (row.payload["seat"] + 1) % 3})
    check = check_draws(Table.objects.get(code=table.code))
    assert not check.ok and check.mismatch == row.seq


def test_the_host_picks_the_start_player_when_creating_the_table(db):
    table = create_table("yellow_yangtze", {}, seats_for("yellow_yangtze"), start="chosen", start_seat=1)
    assert not setup.start_pending(table.pregame)
    assert table.game().decode(table.state).start == 1 and prompted(table) == (1,)
    with pytest.raises(IllegalAction) as bad:
        create_table("yellow_yangtze", {}, seats_for("yellow_yangtze"), start="chosen", start_seat=7)
    assert bad.value.code == "bad_start"


def test_a_physical_yellow_yangtze_deal_goes_round_from_the_chosen_start_and_they_lay_the_market(db):
    table = create_table("yellow_yangtze", {"components": "physical"}, seats_for("yellow_yangtze"),
                                  start="chosen", start_seat=2)
    state = table.game().decode(table.state)
    assert [q[0] for q in state.pending.queue] == [2, 0, 1, 2] and state.pending.queue[-1][1] == "market"


def test_the_lobby_creates_a_table_with_the_printed_rule_and_the_phone_asks_who_is_youngest(db):
    client = Client()
    response = client.post("/", {"game": "catan_junior", "players": 3, "name_0": "Ann", "name_1": "Ben",
                                 "name_2": "Cy", "colour_0": "red", "colour_1": "purple", "colour_2": "yellow",
                                 "start": "printed", "walkthrough": "on"})
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.pregame["start"] == {"rule": "youngest", "seat": None}
    page = client.get(f"/t/{table.code}/").content.decode()
    assert "Who is the youngest?" in page and 'data-start-seat="1"' in page
    assert "roll the die" not in page.lower() or "data-action" not in page
    client.post(f"/t/{table.code}/start/", {"seat": "1"})
    page = client.get(f"/t/{table.code}/").content.decode()
    assert "Who is the youngest?" not in page and "Ben starts: the youngest player." in page


# -- the set-up walkthrough ------------------------------------------------------------------------


@pytest.mark.parametrize(("slug", "options", "n", "expected"), [
    ("sorry", {}, 3, ["4 pawns", "45 cards"]),
    ("sorry", {"points_mode": True, "components": "physical"}, 4, ["Fast start", "Shuffle the 45 cards", "Deal 5 cards"]),
    ("yellow_yangtze", {"short_game": True}, 2, ["7 capital", "131 tiles", "24 tiles", "5 leaders"]),
    ("amun_re", {}, 4, ["draw 12 at random", "9 gold cards", "Turn up 4 Kingdom 1"]),
    ("catan_junior", {}, 2, ["2-player side", "5 lairs and 5 ships", "16 Coco", "18 of each", "1 wood and 1 cutlass"]),
    ("catan_junior", {"edition": "english"}, 3, ["3–4 player side", "6 ships", "1 wood and 1 molasses"]),
])
def test_the_walkthrough_gives_each_games_steps_with_the_counts_of_its_rules(db, slug, options, n, expected):
    cls = get_game_class(slug)
    probe = cls(options, _seat_infos(cls, n))
    text = " | ".join(s.text.format(**s.details) for s in setup.walkthrough(probe))
    for part in expected:
        assert part in text, (part, text)


def _seat_infos(cls, n):
    from games.engines.base import SeatInfo

    game = cls({}, [SeatInfo(i, NAMES[i], cls.colours[i]) for i in range(n)])
    return [SeatInfo(i, NAMES[i], c) for i, c in enumerate(game.seat_colours())]


def _host_phone(table: Table) -> Client:
    client = phone_for(table, 0)
    from django.http import HttpResponse

    response = HttpResponse()
    set_signed(response, host_cookie(table.code), table.host_token)
    client.cookies[host_cookie(table.code)] = response.cookies[host_cookie(table.code)].value
    return client


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_walks_the_host_through_the_set_up_its_adapter_declares(db, slug):
    """The walkthrough shows each step its adapter declares (counts filled in), and ticking them all ends it."""
    table = create_table(slug, {}, seats_for(slug, 2), start="chosen", start_seat=0, walkthrough=True)
    steps = get_adapter(slug).walkthrough(table.game(), 2)
    assert steps and [s.id for s in setup.walkthrough(table.game())] == [s.id for s in steps]
    host = _host_phone(table)
    page = host.get(f"/t/{table.code}/").content.decode()
    assert f"Set-up: 0 of {len(steps)} steps done" in page
    for step in steps:
        # escaped as the status region's Jinja2 template escapes it (an apostrophe is &#39;)
        assert f'data-walk-step="{step.id}"' in page and escape(tr(step.text, step.details)) in page
        assert host.post(f"/t/{table.code}/host/walk/", {"step": step.id, "checked": "1"}).status_code == 302
    assert "steps done" not in host.get(f"/t/{table.code}/").content.decode()


def test_checked_steps_are_kept_across_a_reload_and_only_the_host_checks_them(db):
    table = create_table("amun_re", {}, seats_for("amun_re"), start="chosen", start_seat=0, walkthrough=True)
    host, other = _host_phone(table), phone_for(table, 1)
    assert host.post(f"/t/{table.code}/host/walk/", {"step": "colours", "checked": "1"}).status_code == 302
    assert other.post(f"/t/{table.code}/host/walk/", {"step": "provinces", "checked": "1"}).status_code == 403
    snapshots.clear()
    page = host.get(f"/t/{table.code}/").content.decode()
    assert "Set-up: 1 of 5 steps done" in page
    assert 'data-walk-step="colours"' in page and 'aria-pressed="true"' in page
    assert Table.objects.get(code=table.code).pregame["walk"]["checked"] == ["colours"]
    screen = Client().get(f"/t/{table.code}/screen/").content.decode()
    assert "Set-up: 1 of 5 steps done" in screen and "host/walk" not in screen
    with pytest.raises(IllegalAction):
        check_walk_step(table.code, "nonsense")
    host.post(f"/t/{table.code}/host/walk/", {"skip": "1"})
    assert "steps done" not in host.get(f"/t/{table.code}/").content.decode()


def test_once_the_first_move_is_played_the_set_up_checklist_leaves_the_players_phones_and_folds_for_the_host(db):
    """The set-up walkthrough is for setting up: after the first move the players' phones no longer carry it, the
    host keeps it closed in a fold (to open when a step was missed) and the table screen shows it closed."""
    table = create_table("sorry", {}, seats_for("sorry", 2), start="chosen", start_seat=0, walkthrough=True)
    host, other = _host_phone(table), phone_for(table, 1)
    assert "steps done" in other.get(f"/t/{table.code}/").content.decode(), "before the first move: on every phone"
    game = table.game()
    [first] = [a for a in game.legal_actions(game.decode(table.state), 0)][:1]
    submit_action(table.code, 0, first, 0)
    snapshots.clear()
    assert "steps done" not in other.get(f"/t/{table.code}/").content.decode()
    hosted = host.get(f"/t/{table.code}/").content.decode()
    assert '<details id="walk-fold" class="walk-fold"><summary>' in hosted and "steps done" in hosted
    screen = Client().get(f"/t/{table.code}/screen/").content.decode()
    assert "steps done" in screen and '<details id="walk-fold" class="walk-fold" open>' not in screen


def test_the_walkthrough_speaks_persian_on_a_persian_phone(db):
    table = create_table("catan_junior", {}, seats_for("catan_junior"), start="youngest", walkthrough=True)
    phone = phone_for(table, 1)
    phone.cookies["django_language"] = "fa"
    page = phone.get(f"/t/{table.code}/").content.decode()
    assert 'dir="rtl"' in page
    assert "جوان‌ترین" in page  # "Who is the youngest?"
    assert "Ghost Captain on the castle" not in page and "Each player takes 1 wood" not in page


def test_physical_opening_draws_are_entered_after_the_start_while_the_walkthrough_shows(db):
    table = create_table("yellow_yangtze", {"components": "physical"}, seats_for("yellow_yangtze"),
                                  start="chosen", start_seat=1, walkthrough=True)
    page = phone_for(table, 1).get(f"/t/{table.code}/").content.decode()
    assert "enters them on their own phone" in page and "data-action" in page  # seat 1 enters its tiles now


# -- secrecy ---------------------------------------------------------------------------------------


def _section(page: str, cls: str) -> str:
    """One pregame section of a page, each phone's own CSRF token left out."""
    import re

    part = page.split(f'class="pregame {cls}"')[1].split("</section>")[0]
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", part)


@pytest.mark.parametrize("components", ["digital", "physical"])
def test_the_walkthrough_and_start_question_read_the_same_on_twin_tables_with_other_hidden_hands(db, components):
    """Twin Yellow & Yangtze tables whose seeds deal seat 0 other secret tiles: seat 1 and the table screen get
    the same set-up and start sections, so neither says anything about a hidden hand or the bag."""
    pages = []
    for seed in (11, 12):
        table = create_table("yellow_yangtze", {"components": components}, seats_for("yellow_yangtze"),
                                      start="chosen", start_seat=0, walkthrough=True, seed=seed)
        pages.append((table, phone_for(table, 1).get(f"/t/{table.code}/").content.decode(),
                      Client().get(f"/t/{table.code}/screen/").content.decode()))
    (t1, p1, s1), (t2, p2, s2) = pages
    if components == "digital":
        hand = lambda t: t.game().view(t.game().decode(Table.objects.get(code=t.code).state), 0)["private"]  # noqa: E731
        assert hand(t1) != hand(t2)
    assert _section(p1, "walk") == _section(p2, "walk") and _section(s1, "walk") == _section(s2, "walk")


def test_tapped_in_start_cards_read_the_same_on_every_phone_and_name_no_hand(db):
    """Sorry! play for points: the start cards are turned up in front of everyone, before any hand is dealt."""
    sorry = create_table("sorry", {"components": "physical", "points_mode": True}, seats_for("sorry"),
                                  start="highest_card")
    phones = [phone_for(sorry, i) for i in range(3)]
    before = [_section(p.get(f"/t/{sorry.code}/").content.decode(), "start") for p in phones]
    assert before[0] == before[1] == before[2]
    decide_start(sorry.code, cards={"0": "7", "1": "2", "2": "sorry"})
    lines = [p.get(f"/t/{sorry.code}/").content.decode() for p in phones]
    assert all("Cards turned up for the start: Ann 7, Ben 2, Cy Sorry!." in p for p in lines)
    sorry.refresh_from_db()
    assert sorry.game().decode(sorry.state).hands == ((0,) * 11,) * 3  # nothing dealt yet: the cards are not a hand


# -- play again ------------------------------------------------------------------------------------


def _finish(table: Table) -> Table:
    end_game(table.code)
    return Table.objects.get(code=table.code)


def test_play_again_keeps_seats_colours_teams_options_and_each_phone_lands_on_its_own_seat(db):
    seats = [{"name": n, "colour": c, "team": t} for n, c, t in
             [("Ann", "red", 0), ("Ben", "blue", 1), ("Cy", "yellow", 0), ("Di", "green", 1)]]
    old = create_table("sorry", {"team_mode": True, "components": "physical"}, seats, start="youngest",
                                walkthrough=True)
    decide_start(old.code, seat=3)
    host, ben, stranger = _host_phone(old), phone_for(old, 1), Client()
    old = _finish(old)
    assert host.get(f"/t/{old.code}/").content.decode().count("Play again") >= 1
    response = host.post(f"/t/{old.code}/host/play-again/")
    assert response.status_code == 302
    new = Table.objects.get(code=Table.objects.get(code=old.code).pregame["next"])
    assert response["Location"] == f"/t/{new.code}/"
    assert [(s.name, s.colour, s.team) for s in new.seats.all()] == [(s["name"], s["colour"], s["team"]) for s in seats]
    assert new.options == old.options and new.pregame["walk"] == {"checked": [], "skipped": False}
    assert new.pregame["previous"] == old.code
    assert host.get(f"/t/{new.code}/").status_code == 200  # the host's phone holds seat 0 and the host secret
    # Ben's phone sees the pushed "Next game" button and lands on seat 1 of the new table without a scan.
    assert f'data-next="{new.code}"' in ben.get(f"/t/{old.code}/").content.decode()
    follow = ben.post(f"/t/{old.code}/next/")
    assert follow.status_code == 302 and follow["Location"] == f"/t/{new.code}/"
    ben_seat = new.seats.get(index=1)
    assert ben.cookies[seat_cookie(new.code)].value and ben.get(f"/t/{new.code}/").context["seat"] == 1
    assert ben_seat.token != old.seats.get(index=1).token
    # A phone without a seat at the old table gets nothing.
    refused = stranger.post(f"/t/{old.code}/next/")
    assert refused.status_code == 403 and seat_cookie(new.code) not in stranger.cookies
    # Once a seat was handed over, the phone holding its old cookie no longer follows it.
    cy = phone_for(old, 2)
    hand_over_seat(old.code, 2)
    assert cy.post(f"/t/{old.code}/next/").status_code == 403 and seat_cookie(new.code) not in cy.cookies
    # A second tap makes no second table.
    host.post(f"/t/{old.code}/host/play-again/")
    assert Table.objects.filter(pregame__previous=old.code).count() == 1


def test_after_sorry_the_winner_starts_the_next_game(db):
    old = create_table("sorry", {}, seats_for("sorry", 2), start="highest_card", seed=3)
    decide_start(old.code, draw=True)
    play_through_write_path(old, 11)
    old = Table.objects.get(code=old.code)
    game = old.game()
    winner = game.decode(old.state).winner
    assert winner is not None and old.status == Table.Status.FINISHED
    new = play_again(old.code)
    assert new.pregame["start"] == {"rule": "winner", "seat": winner}
    assert prompted(new) == (winner,)
    assert new.actions.get(kind=Action.Kind.START).payload["rule"] == "winner"
    assert replays(new)


def test_after_catan_junior_the_next_game_asks_again_who_is_youngest(db):
    old = _finish(create_table("catan_junior", {}, seats_for("catan_junior"), start="random"))
    new = play_again(old.code)
    assert new.pregame["start"] == {"rule": "youngest", "seat": None}


def test_play_again_is_refused_while_the_game_is_played(db):
    table = create_table("catan_junior", {}, seats_for("catan_junior"), start="youngest")
    with pytest.raises(Forbidden):
        play_again(table.code)
    assert not Table.objects.filter(pregame__previous=table.code).exists()


def test_the_host_can_ask_again_before_the_first_move_but_not_after_it(db):
    table = create_table("catan_junior", {}, seats_for("catan_junior"), start="youngest", seed=4)
    host = _host_phone(table)
    host.post(f"/t/{table.code}/start/", {"seat": "2"})
    assert "Ask again" in host.get(f"/t/{table.code}/").content.decode()
    assert phone_for(table, 1).get(f"/t/{table.code}/").content.decode().count("Ask again") == 0
    host.post(f"/t/{table.code}/host/start-again/")
    table.refresh_from_db()
    assert setup.start_pending(table.pregame) and prompted(table) == (0,)
    decide_start(table.code, seat=1)
    assert prompted(table) == (1,)
    submit_action(table.code, 1, {"kind": "roll"}, Table.objects.get(code=table.code).version)
    with pytest.raises(IllegalAction) as late:
        ask_start_again(table.code)
    assert late.value.code == "start_decided"
    assert replays(table)
    assert check_draws(Table.objects.get(code=table.code)).ok
    lines = [r.payload for r in Table.objects.get(code=table.code).actions.filter(kind=Action.Kind.START)]
    assert [p.get("seat") for p in lines] == [2, None, 1]


def test_the_api_creates_a_table_that_asks_who_starts_and_answers_it(db):
    client = Client()
    created = client.post("/api/tables/", {"game": "catan_junior", "seats": seats_for("catan_junior"),
                                           "start": "printed", "walkthrough": True}, content_type="application/json")
    assert created.status_code == 201
    code, token = created.json()["code"], created.json()["seats"][1]["token"]
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    prompt = client.get(f"/api/tables/{code}/prompt/", **auth).json()
    assert prompt["start"] == {"rule": "youngest", "tied": []} and prompt["legal"] == []
    assert prompt["prompt"]["step"] == "start" and prompt["prompt"]["kinds"] == [], "the question, not a move"
    assert prompt["prompt"]["text"] == "Before the first move the table decides who starts: the youngest player starts."
    assert client.post(f"/api/tables/{code}/start/", {"seat": 9}, content_type="application/json",
                       **auth).status_code == 400
    answered = client.post(f"/api/tables/{code}/start/", {"seat": 1}, content_type="application/json", **auth)
    assert answered.status_code == 200 and answered.json()["version"] == 1
    assert prompted(Table.objects.get(code=code)) == (1,)
    again = client.post(f"/api/tables/{code}/start/", {"seat": 2}, content_type="application/json", **auth)
    assert again.status_code == 400 and again.json()["code"] == "start_decided"


@pytest.mark.parametrize("colours", [("yellow", "blue"), ("blue", "red"), ("red", "purple")])
def test_two_catan_junior_players_are_sent_to_the_red_and_purple_start_sites_whatever_their_colours(colours):
    """SU2, 2.3: the 2-player side prints red and purple start sites only; the seats take them in seat order."""
    from games.engines.base import SeatInfo

    cls = get_game_class("catan_junior")
    game = cls({}, [SeatInfo(0, "Ann", colours[0]), SeatInfo(1, "Ben", colours[1])])
    step = next(s for s in setup.walkthrough(game) if s.id == "pieces")
    text = step.text.format(**step.details)
    assert text.startswith("Ann puts 2 lairs on the red start sites and 2 ships on the red start routes, Ben on the "
                           "purple ones"), text
    assert "start sites of their colour" not in text
    with translation.override("fa"):
        persian = tr(step.text, step.details)
    assert "قرمز" in persian and "بنفش" in persian and "Ann" in persian


@pytest.mark.parametrize("names", [["Ali", "Ali"], ["Ali", " ali "], ["Ali", "\u202eAli"], ["Ali", "A\u200cli"]])
def test_two_players_whose_names_read_the_same_are_refused_before_anything_is_written(db, names):
    with pytest.raises(IllegalAction) as refused:
        create_table("sorry", {}, [{"name": n} for n in names])
    assert refused.value.code == "same_name" and not Table.objects.exists()


def test_the_lobby_says_two_players_have_the_same_name(db):
    response = Client().post("/", {"game": "sorry", "players": 2, "name_0": "Ali", "name_1": "ALI",
                                   "start": "printed"})
    assert response.status_code == 200 and "Two players have the same name" in response.content.decode()
    assert not Table.objects.exists()
    assert create_table("sorry", {}, [{"name": ""}, {"name": ""}]).seats.count() == 2  # blank names: the colours
