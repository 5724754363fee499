"""Edition profiles: validated by the engine, exported and imported as files, chosen at table creation."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.engines.base import IllegalAction
from games.models import EditionProfile, Table
from games.write import editions
from shelf.amun_re.edition import default_edition_data

pytestmark = pytest.mark.django_db


def calibrated() -> dict:
    data = default_edition_data()
    return {**data, "name": "Our box", "verified": True}


def test_a_profile_is_checked_by_the_engine_before_it_is_stored():
    broken = {**calibrated(), "pyramid_cost": {"1": 5, "2": 3}}
    with pytest.raises(IllegalAction) as err:
        editions.save("amun_re", "edition", broken)
    assert err.value.code == "bad_edition"
    assert not EditionProfile.objects.exists()
    with pytest.raises(IllegalAction):
        editions.save("amun_re", "no_such_option", calibrated())


def test_an_exported_profile_imports_on_a_fresh_install_through_the_page():
    profile = editions.save("amun_re", "edition", calibrated())
    exported = Client().get(f"/editions/{profile.id}/export.json")
    assert exported.status_code == 200 and "attachment" in exported["Content-Disposition"]
    EditionProfile.objects.all().delete()
    upload = SimpleUploadedFile("box.json", exported.content, content_type="application/json")
    response = Client().post("/editions/import/", {"file": upload})
    assert response.status_code == 302
    again = EditionProfile.objects.get()
    assert again.data == profile.data and again.verified and again.name == "Our box"
    listing = Client().get("/editions/").content.decode()
    assert "Our box" in listing


def test_importing_garbage_is_refused_with_a_message():
    for content in [b"not json", json.dumps({"format": "other"}).encode()]:
        Client().post("/editions/import/", {"file": SimpleUploadedFile("x.json", content)})
    assert not EditionProfile.objects.exists()


def test_a_table_created_with_a_profile_uses_its_numbers():
    profile = editions.save("amun_re", "edition", calibrated())
    phone = Client()
    response = phone.post("/", {"game": "amun_re", "players": 3, "opt-components": "digital",
                                "opt-edition": str(profile.id), "opt-hand_sum_mode": "exact",
                                "opt-budget_over_36": "take_all_lose_rest", "opt-rebid_same_province": "on",
                                "opt-ankh_after_each_auction": "on", "opt-visible_ankhs_mid_kingdom": "top_cards",
                                "opt-allow_negative_vp": "on", "opt-pyramid_supply": "76"})
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get()
    assert table.options["edition"]["name"] == "Our box"
    page = phone.get(f"/t/{table.code}/").content.decode()
    assert "is not verified" not in page
