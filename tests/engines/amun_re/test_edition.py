"""Edition profile and its validator (rules file 1.4-1.6, 6.2)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from shelf.amun_re import validate_edition
from shelf.amun_re.edition import default_edition_data, edition_warnings

from .conftest import make_game


def bad(data):
    with pytest.raises(IllegalAction) as err:
        validate_edition(data)
    assert err.value.code == "bad_edition"
    return err.value.details["where"]


def test_the_shipped_default_profile_is_valid_and_marked_unverified():
    edition = validate_edition(default_edition_data())
    assert edition.verified is False
    assert edition.column_for(9) == 2
    assert edition.cost(5) == 21
    view = make_game(2).view(make_game(2).setup(None), None)
    assert view["edition"] == {"name": edition.name, "verified": False}
    assert any(w["code"] == "unverified" for w in edition_warnings(edition))


def test_a_profile_where_9_is_not_in_column_2_is_refused():
    data = default_edition_data()
    data["offering_table"][0]["max_total"] = 9
    data["offering_table"][1]["min_total"] = 10
    assert bad(data) == "offering_table[2]"


def test_the_farm_rate_anchors_of_columns_2_and_3_are_enforced():
    data = default_edition_data()
    data["offering_table"][1]["gold_per_farm"] = 3
    assert bad(data) == "offering_table[2].gold_per_farm"
    data = default_edition_data()
    data["offering_table"][2]["gold_per_farm"] = 4
    assert bad(data) == "offering_table[3].gold_per_farm"


def test_offering_ranges_must_start_at_0_be_contiguous_and_end_open():
    data = default_edition_data()
    data["offering_table"][0]["min_total"] = 1
    assert bad(data) == "offering_table[1].min_total"
    data = default_edition_data()
    data["offering_table"][2]["min_total"] = 14
    assert bad(data) == "offering_table[3].min_total"
    data = default_edition_data()
    data["offering_table"][3]["max_total"] = 99
    assert bad(data) == "offering_table[4].max_total"
    data = default_edition_data()
    data["offering_table"][1]["max_total"] = None
    assert bad(data) == "offering_table[2].max_total"
    data = default_edition_data()
    data["offering_table"] = data["offering_table"][:2]
    assert bad(data) == "offering_table"


def test_pyramid_prices_need_5_for_21_strictly_rising_with_keys_1_to_n():
    data = default_edition_data()
    data["pyramid_cost"]["5"] = 15
    assert bad(data) in ("pyramid_cost[5]", "pyramid_cost[6]")
    data = default_edition_data()
    data["pyramid_cost"]["3"] = 5
    assert bad(data) == "pyramid_cost[3]"
    data = default_edition_data()
    del data["pyramid_cost"]["2"]
    assert bad(data) == "pyramid_cost"
    data = default_edition_data()
    data["pyramid_cost"] = {"1": 1, "2": 2, "3": 3, "4": 4}
    assert bad(data) == "pyramid_cost"


def test_province_bounds_must_be_ordered_pairs_and_printed_pyramids_fit_the_spaces():
    data = default_edition_data()
    data["province_bounds"]["farms"] = [4, 2]
    assert bad(data) == "province_bounds.farms"
    data = default_edition_data()
    data["province_bounds"]["printed_pyramids"] = [0, 9]
    assert bad(data) == "province_bounds.printed_pyramids"
    data = default_edition_data()
    data["province_bounds"]["caravans"] = "0-3"
    assert bad(data) == "province_bounds.caravans"


def test_malformed_profiles_are_refused_with_bad_edition_never_another_error():
    for data in (
        None,
        [],
        {"name": ""},
        {**default_edition_data(), "extra": 1},
        {**default_edition_data(), "verified": "no"},
        {**default_edition_data(), "offering_table": [1, 2, 3]},
        {**default_edition_data(), "pyramid_cost": {"1": True}},
    ):
        bad(data)


def test_the_edition_option_is_validated_when_the_table_is_created():
    data = default_edition_data()
    data["pyramid_cost"]["5"] = 20
    with pytest.raises(IllegalAction) as err:
        make_game(2, edition=data)
    assert err.value.code == "bad_edition"
    data = default_edition_data()
    data["name"] = "Hoopa, checked"
    data["verified"] = True
    game = make_game(2, edition=data)
    assert game.view(game.setup(None), 0)["edition"] == {"name": "Hoopa, checked", "verified": True}


def test_suspicious_values_only_warn():
    data = default_edition_data()
    data["offering_table"][1]["gold_per_caravan"] = 10
    warnings = {w["code"] for w in edition_warnings(validate_edition(data))}
    assert "caravan_times_ten" in warnings
    assert "caravan_rate_rises" in warnings
