"""Schemathesis against the app's own OpenAPI schema, in process (WSGI): 0 server errors, 0 schema violations.

Every operation of ``/api/schema/`` is fuzzed with positive (schema-valid) and
negative (schema-invalid) cases, with all of schemathesis' response checks
(status code, content type, headers and body conformance, server errors, ...).
A Sorry! table is created first and about half the cases aim at it with its
seat or host secret, so the authenticated endpoints are exercised too.
"""

from __future__ import annotations

import os
import re
import time

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from games.write.pregame import create_table

#: Cases per operation and generation mode (8 operations x 2 modes). Raise it with SCHEMATHESIS_EXAMPLES.
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "125"))
CODE = re.compile(r"[A-Za-z0-9]{1,12}")  # the schema's pattern of a table code
STATS: dict[str, int] = {"cases": 0, "server_errors": 0}


@pytest.fixture
def api_schema(db, keep_test_connection):
    """The schema as the app serves it, bound to the app itself (no network)."""
    return schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


@pytest.fixture
def keep_test_connection():
    """Like Django's test client: the WSGI handler must not close the test transaction's connection."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def _operations(schema) -> list:
    return [result.ok() for result in schema.get_all_operations()]


@pytest.mark.django_db
@pytest.mark.timeout(600)
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=["positive", "negative"])
def test_every_api_operation_answers_as_its_schema_says(api_schema, mode):
    table = create_table("sorry", {"components": "physical"}, [{"name": "Ann"}, {"name": "Bo"}], seed=1)
    seat_token = table.seats.get(index=0).token
    operations = _operations(api_schema)
    assert len(operations) >= 8, "every API endpoint is in the schema"
    started = time.monotonic()
    for operation in operations:

        @given(case=operation.as_strategy(mode), aim=st.sampled_from(["table", "table+secret", "random"]))
        @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        def fuzz(case, aim):
            # The in-process client does not inflate gzip; the pages and the API compress for real clients.
            headers = {"Accept-Encoding": "identity"}
            code = (case.path_parameters or {}).get("code")
            # A negative case may be negative by its code or its secrets: aim it only where that is kept invalid.
            if aim != "random" and isinstance(code, str) and CODE.fullmatch(code):
                case.path_parameters["code"] = table.code
            if aim == "table+secret" and not ({"authorization", "x-host-token"} & {h.lower() for h in case.headers or {}}
                                              and mode is GenerationMode.NEGATIVE):
                headers |= {"Authorization": f"Bearer {seat_token}", "X-Host-Token": table.host_token}
            response = case.call(headers=headers)
            STATS["cases"] += 1
            STATS["server_errors"] += response.status_code >= 500
            # Every built-in check but positive_data_acceptance, which expects schema-valid data to be
            # accepted: a legal-looking move the rules forbid is a documented 400 (and 403/409 likewise).
            # In its place: schema-valid data is never refused as malformed by the envelope checks.
            case.validate_response(response, headers=headers, excluded_checks=[positive_data_acceptance])
            if mode is GenerationMode.POSITIVE and response.status_code == 400:
                assert response.json()["code"] not in ("invalid", "parse_error"), (
                    f"schema-valid {case.method} {case.formatted_path} refused as malformed: {response.text}")

        fuzz()
    print(f"\nschemathesis {mode.value}: {STATS['cases']} cases so far, {STATS['server_errors']} server errors, "
          f"{time.monotonic() - started:.0f} s")
    assert STATS["server_errors"] == 0
