"""The Amun-Re calibration screen (rules file 6.2): copy the box's numbers, the engine checks them, a profile is saved."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.models import EditionProfile
from games.write import editions
from shelf.amun_re.edition import PROVINCE_FIELDS, default_edition_data

pytestmark = pytest.mark.django_db

URL = "/editions/amun_re/calibrate/"


def form_data(data: dict | None = None, verified: bool = True, button: str = "save") -> dict[str, str]:
    """What the host's phone posts after copying ``data`` (default: the shipped profile) into the form."""
    data = data or default_edition_data()
    post = {"profile-name": data["name"], "profile-note": "", button: "1"}
    if verified:
        post["profile-verified"] = "on"
    rows = data["offering_table"]
    post.update({"rows-TOTAL_FORMS": str(len(rows) + 1), "rows-INITIAL_FORMS": "0"})
    for i, row in enumerate(rows):
        for key in ("min_total", "max_total", "gold_per_farm", "gold_per_caravan"):
            post[f"rows-{i}-{key}"] = "" if row[key] is None else str(row[key])
    prices = data["pyramid_cost"]
    post.update({"prices-TOTAL_FORMS": str(len(prices) + 1), "prices-INITIAL_FORMS": "0"})
    for k in range(1, len(prices) + 1):
        post[f"prices-{k - 1}-price"] = str(prices[str(k)])
    for field in PROVINCE_FIELDS:
        low, high = data["province_bounds"].get(field, [0, 0])
        post[f"bounds-{field}_low"], post[f"bounds-{field}_high"] = str(low), str(high)
    return post


def our_box() -> dict:
    data = default_edition_data()
    data["name"] = "Our Hoopa box"
    data["offering_table"][0]["gold_per_caravan"] = 4
    data["pyramid_cost"]["7"] = 40
    return data


def test_the_screen_opens_prefilled_with_the_shipped_default_and_says_it_is_unverified():
    page = Client().get(URL).content.decode()
    assert 'name="rows-1-min_total" value="6"' in page and 'name="rows-3-max_total"' in page
    assert 'name="prices-4-price" value="21"' in page
    assert 'name="bounds-farms_high" value="6"' in page
    assert "not verified against a physical copy" in page
    assert "I copied these from my box" in page


def test_the_editions_page_links_to_the_calibration_screen():
    assert URL in Client().get("/editions/").content.decode()


def test_a_valid_calibration_is_saved_verified_and_offered_in_the_lobby():
    response = Client().post(URL, form_data(our_box()))
    assert response.status_code == 302 and response["Location"] == "/editions/"
    profile = EditionProfile.objects.get()
    assert (profile.slug, profile.option, profile.name, profile.verified) == (
        "amun_re",
        "edition",
        "Our Hoopa box",
        True,
    )
    assert profile.data["verified"] is True
    assert profile.data["offering_table"][0]["gold_per_caravan"] == 4
    assert profile.data["offering_table"][3]["max_total"] is None
    assert profile.data["pyramid_cost"]["7"] == 40 and len(profile.data["pyramid_cost"]) == 7
    assert editions.validate("amun_re", "edition", profile.data) == profile.data
    options = Client().get("/?game=amun_re").content.decode()
    assert f'value="{profile.id}"' in options and "Our Hoopa box" in options


def test_a_calibrated_profile_travels_as_a_file_through_the_editions_pages():
    Client().post(URL, form_data(our_box()))
    profile = EditionProfile.objects.get()
    exported = Client().get(f"/editions/{profile.id}/export.json").content
    EditionProfile.objects.all().delete()
    Client().post("/editions/import/", {"file": SimpleUploadedFile("box.json", exported)})
    again = EditionProfile.objects.get()
    assert (again.data, again.verified, again.name) == (profile.data, True, "Our Hoopa box")


def test_an_unticked_box_saves_an_unverified_profile():
    Client().post(URL, form_data(our_box(), verified=False))
    profile = EditionProfile.objects.get()
    assert not profile.verified and profile.data["verified"] is False


def test_a_stored_profile_opens_as_the_starting_point():
    profile = editions.save("amun_re", "edition", {**our_box(), "verified": True})
    page = Client().get(f"{URL}?from={profile.id}").content.decode()
    assert 'placeholder="Our Hoopa box"' in page and 'name="prices-6-price" value="40"' in page
    for nonsense in ("999", "abc", "-1"):
        assert Client().get(f"{URL}?from={nonsense}").status_code == 200


def test_a_broken_anchor_is_refused_with_the_rule_on_the_field_and_nothing_is_saved():
    data = default_edition_data()
    data["offering_table"][1]["gold_per_farm"] = 3
    response = Client().post(URL, form_data(data))
    page = response.content.decode()
    assert response.status_code == 400
    assert "Offering table, row 2: gold per farm must be 2 (column 2 pays 2 gold per farm, rules 1.5)." in page
    assert 'id="id_rows-1-gold_per_farm_error"' in page, "the message sits on the field the host must fix"
    assert not EditionProfile.objects.exists()


def test_a_price_list_that_breaks_the_five_for_21_anchor_is_refused():
    data = default_edition_data()
    data["pyramid_cost"]["5"] = 20
    page = Client().post(URL, form_data(data)).content.decode()
    assert "5 pyramids cost 21 gold" in page and 'id="id_prices-4-price_error"' in page
    assert not EditionProfile.objects.exists()


def test_gaps_between_columns_are_refused():
    data = default_edition_data()
    data["offering_table"][2]["min_total"] = 14
    page = Client().post(URL, form_data(data)).content.decode()
    assert "Offering table, row 3: the lowest total must be 13 (it follows row 2)." in page
    assert not EditionProfile.objects.exists()


def test_check_shows_the_engine_warnings_without_saving():
    data = default_edition_data()
    data["offering_table"][1]["gold_per_caravan"] = 10
    response = Client().post(URL, form_data(data, button="check"))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Column 2 pays 10 per caravan" in page and "Caravan rate rises from column 1 to 2" in page
    assert not EditionProfile.objects.exists()


def test_saving_carries_the_warnings_to_the_editions_page():
    data = default_edition_data()
    data["offering_table"][1]["gold_per_caravan"] = 10
    page = Client().post(URL, form_data(data), follow=True).content.decode()
    assert "Column 2 pays 10 per caravan" in page and EditionProfile.objects.count() == 1


@pytest.mark.parametrize(
    "garbage",
    [
        {},
        {"save": "1", "profile-name": "x"},
        {**form_data(), "rows-0-min_total": "zero"},
        {**form_data(), "rows-0-min_total": "-4"},
        {**form_data(), "rows-TOTAL_FORMS": "100000"},
        {**form_data(), "rows-TOTAL_FORMS": "nan"},
        {**form_data(), "bounds-farms_low": "9", "bounds-farms_high": "2"},
        {**form_data(), "bounds-pyramid_spaces_high": "0", "bounds-pyramid_spaces_low": "0"},
        {**form_data(), "prices-TOTAL_FORMS": "1", "prices-0-price": ""},
        {**form_data(), "rows-3-max_total": "40"},
    ],
)
def test_garbage_is_answered_on_the_form_never_with_a_500(garbage):
    response = Client().post(URL, garbage)
    assert response.status_code == 400
    assert 'class="banner error"' in response.content.decode()
    assert not EditionProfile.objects.exists()


def test_refusals_name_rows_and_fields_for_people_never_a_json_path():
    data = default_edition_data()
    data["pyramid_cost"]["3"] = 4
    page = Client().post(URL, form_data(data)).content.decode()
    assert "Pyramid prices, 3 pyramids: must cost more than 2 pyramids (rules 1.6)." in page
    assert "pyramid_cost[" not in page and "offering_table[" not in page


def test_each_refusal_is_shown_once_on_its_field():
    data = default_edition_data()
    data["offering_table"][1]["gold_per_farm"] = 3
    page = Client().post(URL, form_data(data)).content.decode()
    assert page.count("gold per farm must be 2") == 1
    assert "each one is marked below" in page


def test_an_emptied_price_is_flagged_on_its_own_field_and_later_prices_do_not_shift():
    post = {**form_data(), "prices-2-price": ""}
    response = Client().post(URL, post)
    page = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_prices-2-price_error"' in page and "Pyramid prices, 3 pyramids: this price is missing" in page
    assert 'id="id_prices-4-price_error"' not in page, "the 21 for 5 pyramids stays on its own row"
    assert not EditionProfile.objects.exists()


def test_a_valid_check_says_all_numbers_pass():
    page = Client().post(URL, form_data(our_box(), button="check")).content.decode()
    assert "All numbers pass the checks." in page and 'class="banner error"' not in page


def test_the_name_starts_empty_with_a_placeholder():
    page = Client().get(URL).content.decode()
    assert 'name="profile-name"' in page and 'name="profile-name" value=' not in page
    assert 'placeholder="Amun-Re: The Card Game (2017), placeholder tables"' in page


def test_saving_a_name_already_used_for_this_game_is_refused():
    Client().post(URL, form_data(our_box()))
    response = Client().post(URL, form_data({**our_box(), "name": "our hoopa box"}))
    assert response.status_code == 400
    assert "A profile called “our hoopa box” already exists for Amun-Re; choose another name." in response.content.decode()
    assert EditionProfile.objects.count() == 1
