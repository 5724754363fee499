"""No input makes the API answer 500: random JSON actions against every real game are 4xx or applied."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.write.pregame import create_table
from tests.registry import GAMES

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
actions = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"kind": st.sampled_from(["draw", "move", "pass", "discard", "", "tile", "leader", "commit", "swap",
                                  "build_hand", "bid", "offer", "reveal", "buy", "roll", "build_lair",
                                  "market_swap", "supply_trade", "end_turn"])},
        optional={"card": json_values | st.sampled_from(["1", "7", "11", "sorry", 0, 5]),
                  "pawn": json_values | st.sampled_from(["R0", "B1", "Z9"]),
                  "steps": json_values, "to": json_values, "target": json_values, "then": json_values,
                  "tiles": json_values, "tile": json_values, "hex": json_values | st.just([0, 0]), "colour": json_values,
                  "cards": json_values | st.just([0, 6, 8]), "province": json_values, "gold": json_values,
                  "value": json_values | st.integers(-2, 9), "site": json_values, "space": json_values,
                  "give": json_values, "take": json_values}),
)


@pytest.mark.django_db
@pytest.mark.parametrize("slug", GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=actions, version=st.one_of(st.integers(-3, 3), st.text(max_size=3), st.none()),
       seat=st.integers(0, 1))
def test_random_action_bodies_never_cause_a_server_error(slug, action, version, seat):
    table = create_table(slug, {"components": "physical"}, [{"name": "A"}, {"name": "B"}], seed=1)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=seat).token}")
    response = client.post(f"/api/tables/{table.code}/actions/", {"action": action, "version": version},
                           format="json")
    assert response.status_code < 500
    if response.status_code >= 400:
        assert response.json()["code"]
        table.refresh_from_db()
        assert table.version == 0 and not table.actions.filter(version__gt=0).exists(), "a refused action writes nothing"
