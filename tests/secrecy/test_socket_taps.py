"""Taps over the websocket keep to the socket's own seat and say nothing of another seat's secrets.

The seat of a socket tap is the socket's own authentication (games/socket/socket_taps.py):
a message naming another seat, in any field, never acts for that seat. A
refusal is computed from the asker's own view: two tables that differ only in
another seat's hidden values (an Amun-Re sealed offering, a Sorry! points
hand: the twins of :mod:`tests.secrecy.probes`) answer seat 0's socket the very
same bytes for the same bad taps. A planted leak proves the comparison can fail.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from games.engines.base import IllegalAction
from games.models import Action, Table
from games.write.moves import submit_action
from games.write.pregame import create_table
from shelf.amun_re import AmunReGame
from tests.conftest import cookie_header, phone_for, socket_for

from .probes import TWINS, illegal_actions, with_state
from .test_secrecy_suite import THREE, played_until

pytestmark = pytest.mark.django_db(transaction=True)

REFUSAL = re.compile(r'<div id="tap-refusal" hx-swap-oob="true">.*</div>$', re.S)
FRAME = re.compile(r'data-frame="([^"]*)" hx-swap-oob="true"></i>$')


def socket_answers(code: str, cookie: tuple[bytes, bytes], messages: list[Any]) -> list[str]:
    """Open a socket with ``cookie``, send ``messages``, and return the refusal frames it answered, in order."""

    async def run() -> list[str]:
        comm = socket_for(code, cookie)
        connected, _ = await comm.connect()
        assert connected
        shown = FRAME.search(await comm.receive_from(5)).group(1)
        for message in messages:
            await comm.send_to(text_data=message if isinstance(message, str) else json.dumps(message))
        await comm.send_to(text_data=json.dumps({"frame": shown, "ping": 1}))
        refusals = []
        while (frame := await comm.receive_from(10)) != '<i id="r-pong" hidden data-ping="1"></i>':
            if REFUSAL.search(frame):
                refusals.append(frame)
        await comm.disconnect()
        return refusals

    return async_to_sync(run)()


def game_rows(table: Table) -> list[tuple[int | None, dict]]:
    return list(Action.objects.filter(table_id=table.id, kind=Action.Kind.GAME).values_list("seat", "payload"))


def test_a_socket_tap_acts_only_for_the_sockets_own_seat(fixture_game_registered):
    table = create_table("counting", {}, THREE)
    bob = cookie_header(phone_for(table, 1), table.code)
    alices_move = {"kind": "draw"}  # Alice (seat 0) is prompted
    answers = socket_answers(table.code, bob, [
        {"action": alices_move, "version": 0, "key": "b1"},
        {"action": alices_move, "version": 0, "key": "b2", "seat": 0},
        {"action": {**alices_move, "seat": 0}, "version": 0, "key": "b3"},
        {"action": alices_move, "version": 0, "key": "0/b4"},
        {"action": alices_move, "version": 0, "key": "b5", "token": table.seats.get(index=0).token},
        {"command": "undo_mine", "args": {"seat": 0}, "version": 0, "key": "b6"},
    ])
    assert len(answers) == 6, answers
    assert game_rows(table) == [] and Table.objects.get(id=table.id).version == 0, "nothing acted for Alice"
    # Alice draws under key K; Bob's tap under K is Bob's own fresh key: answered as under any unused key.
    submit_action(table.code, 0, alices_move, 0, "K")
    card = Table.objects.get(id=table.id).state["hands"][0][0]
    play = {"kind": "play", "card": card}
    used, fresh = (socket_answers(table.code, bob, [{"action": play, "version": 1, "key": key}]) for key in ("K", "K2"))
    assert used == fresh and "key_reused" not in used[0], (used, fresh)
    assert [seat for seat, _ in game_rows(table)] == [0]


def bad_taps(game: Any, state: Any, viewer: int, version: int) -> list[dict[str, Any]]:
    """Taps seat ``viewer`` may not make: other seats' moves, its own moves with numbers out of range, undo my move, one at a
    version the table never had (an earlier one may still be good: another seat's answer to a step both are asked)."""
    taps: list[dict[str, Any]] = [{"action": a, "version": version, "key": f"o{i}"}
                                  for i, a in enumerate(illegal_actions(game, state, viewer))]
    for i, action in enumerate(game.legal_actions(state, viewer)[:3]):
        bent = {k: v + 1000 if isinstance(v, int) and not isinstance(v, bool) else v for k, v in action.items()}
        if bent != action:
            taps.append({"action": bent, "version": version, "key": f"b{i}"})
    taps.append({"action": {"kind": "no such move"}, "version": version, "key": "n"})
    taps.append({"command": "undo_mine", "args": {}, "version": version, "key": "u"})
    mine = game.legal_actions(state, viewer) or [{"kind": "draw"}]
    taps.append({"action": mine[0], "version": version + 5, "key": "s"})  # a version the table never had
    return taps


def twin_answers(table: Table, other: int) -> tuple[list[str], list[str], int]:
    """Seat 0's socket answers to the same bad taps at the real table and at its twin for seat ``other``."""
    game = table.game()
    state = game.decode(table.state)
    twin = TWINS[table.slug](game, state, other)
    assert twin is not None and twin != state and game.view(twin, 0) == game.view(state, 0)
    taps = bad_taps(game, state, 0, table.version)
    alice = cookie_header(phone_for(table, 0), table.code)
    real = socket_answers(table.code, alice, taps)
    twinned = with_state(table, game.encode(twin), lambda: socket_answers(table.code, alice, taps))
    assert Table.objects.get(id=table.id).version == table.version, "no bad tap was applied"
    return real, twinned, len(taps)


def at_sealed_offering(table: Table) -> bool:
    game = table.game()
    state = game.decode(table.state)
    prompt = game.prompt(state)
    return prompt.step == "offering" and 0 in prompt.seats and TWINS["amun_re"](game, state, 1) is not None


def test_socket_refusals_say_nothing_of_another_seats_sealed_offering():
    table = played_until("amun_re", {"components": "digital"}, 7, at_sealed_offering)
    real, twinned, sent = twin_answers(table, 1)
    assert len(real) == sent >= 4, real
    assert real == twinned


def test_socket_refusals_say_nothing_of_another_seats_hidden_hand():
    def hand_to_twin(table: Table) -> bool:
        game = table.game()
        return table.version >= 3 and TWINS["sorry"](game, game.decode(table.state), 1) is not None

    table = played_until("sorry", {"points_mode": True, "components": "digital"}, 5, hand_to_twin)
    real, twinned, sent = twin_answers(table, 1)
    assert len(real) == sent >= 3, real
    assert real == twinned


def test_control_a_refusal_quoting_the_sealed_offering_is_caught(monkeypatch):
    """The planted leak: a refusal that names seat 1's offering differs between the twins, and the test sees it."""
    table = played_until("amun_re", {"components": "digital"}, 7, at_sealed_offering)
    real_apply = AmunReGame.apply

    def leaky_apply(self, state, seat, action):
        if seat == 0:
            raise IllegalAction("bad_action", "Seat 1 offered {n}.", n=state.players[1].offering)
        return real_apply(self, state, seat, action)

    monkeypatch.setattr(AmunReGame, "apply", leaky_apply)
    real, twinned, _ = twin_answers(table, 1)
    assert real != twinned, "the planted leak is caught"
