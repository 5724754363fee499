"""Button labels read as imperatives (engines README: ``label``)."""

from __future__ import annotations

from games.engines.base import fill

from .conftest import ALICE, make_game


def label(game, action):
    line = game.label(ALICE, action)
    return fill(line.text, line.details)


def test_every_action_kind_has_an_imperative_button_label():
    game = make_game(3)
    assert label(game, {"kind": "bid", "province": 1, "card": 5}) == "Bid 5 on province 2"
    assert label(game, {"kind": "offer", "gold": 7}) == "Offer 7 gold"
    assert label(game, {"kind": "reveal", "field": "farms", "value": 3}) == "Enter 3 farms"
    assert label(game, {"kind": "reveal", "field": "pyramid_spaces", "value": 2}) == "Enter 2 pyramid spaces"
    keep = game.label(ALICE, {"kind": "build_hand", "cards": [0, 6, 8]})
    assert keep.text == "Keep {cards} (worth {total})" and keep.details == {"cards": [0, 6, 8], "total": 14}
    assert label(game, {"kind": "place_province", "column": 0}) == "Lay it on column 1"
    assert (
        label(game, {"kind": "place_pyramids", "columns": [1, 0, 2]}) == "Place pyramids 1 / 0 / 2 on columns 1 / 2 / 3"
    )
    assert label(game, {"kind": "buy", "count": 5}) == "Buy 5 pyramids for 21 gold"
    assert label(game, {"kind": "buy", "count": 0}) == "Buy no pyramids"


def test_a_label_never_reads_like_a_log_line():
    game = make_game(3)
    for action in ({"kind": "bid", "province": 0, "card": 1}, {"kind": "offer", "gold": 0}):
        assert "Alice" not in label(game, action)


def test_counts_of_one_read_in_the_singular():
    game = make_game(3)
    assert label(game, {"kind": "reveal", "field": "farms", "value": 1}) == "Enter 1 farm"
    assert label(game, {"kind": "reveal", "field": "pyramid_spaces", "value": 1}) == "Enter 1 pyramid space"
    assert label(game, {"kind": "buy", "count": 1}) == "Buy 1 pyramid for 2 gold"
    line = game.describe(ALICE, {"kind": "reveal", "field": "ankhs", "value": 1}, None)
    assert fill(line.text, line.details) == "Alice's new province shows 1 ankh."


def test_the_reward_prompt_names_the_players_who_must_place_pyramids():
    from shelf.amun_re.state import REWARD, Player, State

    game = make_game(3)
    state = State(players=(Player(pending=2), Player(), Player(pending=1)), phase=REWARD, auction=3)
    prompt = game.prompt(state)
    assert prompt.text.format(**{k: ", ".join(v) if isinstance(v, list) else v for k, v in prompt.details.items()}) == (
        "Kingdom 1: Alice and Carol place their reward pyramids on empty spaces."
    )
    assert "your" not in prompt.text


def test_engine_messages_number_columns_from_1_like_the_phones():
    import pytest

    from games.engines.base import IllegalAction
    from shelf.amun_re.state import REWARD, Player, State

    from .conftest import card

    game = make_game(2)
    columns = ((card(spaces=1),), (card(spaces=3),), (card(spaces=3),))
    state = State(players=(Player(pending=2, columns=columns), Player()), phase=REWARD, auction=3)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "place_pyramids", "columns": [2, 0, 0]})
    assert err.value.details["column"] == 1
    assert err.value.template == "Rule 2.6: column {column} has only 1 empty space."


def test_refusals_about_one_pyramid_read_in_the_singular():
    import pytest

    from games.engines.base import IllegalAction
    from shelf.amun_re.state import INCOME, REWARD, Player, State

    from .conftest import card

    game = make_game(2)
    columns = ((card(spaces=3),), (card(spaces=3),), (card(spaces=3),))
    state = State(players=(Player(pending=1, columns=columns), Player()), phase=REWARD, auction=3)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "place_pyramids", "columns": [0, 0, 0]})
    assert err.value.template == "Rule 2.6: place your 1 pyramid."
    state = State(players=(Player(columns=columns, marker=1), Player(bought=True)), phase=INCOME, auction=3)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "buy", "count": 1})
    assert err.value.template == "Rule 2.6: 1 pyramid costs {cost} gold; your marker is at {marker}."
