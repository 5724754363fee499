"""The fairness commitment is stored when the table is created: shown from the row (host page, table screen,
API) and checked by ``check_draws`` against the stored value and against a hash the player kept."""

from __future__ import annotations

import hashlib
import importlib

import pytest
from django.apps import apps as django_apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from rest_framework.test import APIClient

from games.models import Table
from games.record.audit import check_draws
from games.write.pregame import create_table
from tests.conftest import play_through_write_path
from tests.web.test_fair_draws import finished_table

pytestmark = pytest.mark.django_db


def _sha(seed: int) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


def test_a_seed_swapped_in_the_database_no_longer_matches_the_published_commitment(fixture_game_registered):
    table = create_table("counting", {}, [{"name": "Alice"}, {"name": "Bob"}], seed=41)
    published = APIClient().get(f"/api/tables/{table.code}/").json()["draws"]["commitment"]
    assert published == _sha(41) == table.seed_commitment
    Table.objects.filter(pk=table.pk).update(seed=42)  # a swap behind the app's back, before the first draw
    table.refresh_from_db()
    play_through_write_path(table, 42)  # every draw then comes from the swapped seed
    table.refresh_from_db()
    assert table.status == "finished"
    assert table.seed_commitment == published, "the stored commitment does not follow the seed"
    assert APIClient().get(f"/api/tables/{table.code}/").json()["draws"]["commitment"] == published
    screen = Client().get(f"/t/{table.code}/screen/").content.decode()
    assert published in screen and _sha(42) not in screen
    result = check_draws(table)
    assert not result.ok and not result.commitment_ok and "stored" in result.reason
    assert result.checked and result.mismatch is None, "the draws themselves fit the swapped seed"
    with pytest.raises(CommandError, match="MISMATCH"):
        call_command("check_draws", table.code)


def test_check_draws_also_checks_the_commitment_the_player_kept(fixture_game_registered, capsys):
    table = finished_table(seed=41)
    call_command("check_draws", table.code, commitment=_sha(41).upper())
    assert "OK" in capsys.readouterr().out
    result = check_draws(table, commitment=_sha(40))
    assert not result.ok and not result.commitment_ok and "you passed" in result.reason
    with pytest.raises(CommandError, match="you passed"):
        call_command("check_draws", table.code, commitment=_sha(40))


def test_the_commitment_is_written_once_and_never_moves(fixture_game_registered):
    table = finished_table(seed=7)
    first = table.seed_commitment
    table.seed = 8
    table.save()
    table.refresh_from_db()
    assert table.seed_commitment == first == _sha(7)


def test_the_migration_fills_the_commitment_of_older_tables_from_their_seed(fixture_game_registered):
    table = finished_table(seed=99)
    Table.objects.filter(pk=table.pk).update(seed_commitment="")
    migration = importlib.import_module("games.migrations.0010_table_seed_commitment")
    migration.fill(django_apps, None)
    table.refresh_from_db()
    assert table.seed_commitment == _sha(99)
