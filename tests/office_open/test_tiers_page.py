"""The league admin's qualification tiers page (/leagues/<slug>/tiers/): add, edit, retire, the
requirements as typed fields checked by league.qualification; every bad input is a 400 naming
its field and writes nothing; a player applies on a tier made here from their own page."""

import pytest
from django.test import Client

from kyoku.models import AuditLog
from league.models import QualificationApplication, QualificationTier

URL = "/leagues/test/tiers/"
GOOD = {
    "action": "add",
    "code": "1a",
    "description": "Tenhou 7-dan or Mahjong Soul celestial",
    "description_zh": "天鳳七段或雀魂魂天",
    "division_code": "A",
    "effective_year": "2026",
    "effective_number": "1",
    "validity": "yearly",
    "proof_required": "on",
    "alt0_platform": "tenhou",
    "alt0_min_rank": "7-dan",
    "alt0_min_room": "phoenix",
    "alt0_min_rating": "2000",
    "alt0_min_games_in_year": "40",
    "alt1_platform": "",
    "alt2_platform": "mahjongsoul",
    "alt2_min_rank": "celestial",
}
REQUIREMENTS = {
    "proof_required": True,
    "accounts": [
        {"platform": "tenhou", "min_rank": "7-dan", "min_room": "phoenix", "min_rating": 2000, "min_games_in_year": 40},
        {"platform": "mahjongsoul", "min_rank": "celestial"},
    ],
}


def _page(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def tier(season, admin):
    assert _page(admin).post(URL, GOOD).status_code == 302
    return QualificationTier.objects.get(league__slug="test", code="1A")


def test_add_a_tier_with_typed_requirements(tier, admin):
    assert tier.requirements == REQUIREMENTS
    assert (tier.description_zh, tier.division_code, tier.effective_year, tier.validity) == (
        "天鳳七段或雀魂魂天",
        "A",
        2026,
        "yearly",
    )
    assert AuditLog.objects.filter(action="tier.create", object_id=str(tier.pk)).count() == 1
    body = _page(admin).get(URL).content.decode()
    assert "Tenhou · rank 7-dan or above · games in the Phoenix room or above · rating 2000 or above" in body
    assert "A proof file is required." in body
    assert 'name="alt0_platform"' in body and "requirements" not in body.split('id="tier-form"')[1].split("</form>")[0]


def test_the_tiers_page_is_linked_from_the_league_page_and_the_office(season, admin, member):
    assert 'id="league-tiers-link"' in _page(admin).get("/leagues/test/").content.decode()
    assert URL in _page(admin).get(f"/office/seasons/{season.pk}/").content.decode()
    assert 'id="league-tiers-link"' not in _page(member).get("/leagues/test/").content.decode()
    assert _page(member).get(URL).status_code == 403


BAD = [
    ({"code": ""}, "code"),
    ({"code": "TOOLONGCODE"}, "code"),
    ({"description": ""}, "description"),
    ({"description": "x" * 201}, "description"),
    ({"description_zh": "x" * 201}, "description_zh"),
    ({"division_code": "Z"}, "division_code"),
    ({"division_code": ""}, "division_code"),
    ({"effective_year": "soon"}, "effective_year"),
    ({"effective_year": "1999"}, "effective_year"),
    ({"effective_number": "5"}, "effective_number"),
    ({"validity": "forever"}, "validity"),
    ({"alt0_platform": "riichi-city"}, "alt0_platform"),
    ({"alt0_min_rank": "celestial"}, "alt0_min_rank"),  # a Mahjong Soul rank on a Tenhou account
    ({"alt2_min_room": "phoenix"}, "alt2_min_room"),  # a Tenhou room on a Mahjong Soul account
    ({"alt0_min_rank": "god"}, "alt0_min_rank"),
    ({"alt0_min_rating": "-1"}, "alt0_min_rating"),
    ({"alt0_min_rating": "lots"}, "alt0_min_rating"),
    ({"alt0_min_rating": "10001"}, "alt0_min_rating"),
    ({"alt0_min_games_in_year": "1.5"}, "alt0_min_games_in_year"),
    ({"alt1_min_rating": "100"}, "alt1_platform"),  # a requirement with no platform
    ({"code": "a\x00b"}, "code"),
]


@pytest.mark.parametrize("change,field", BAD, ids=[f for _, f in BAD])
def test_bad_input_is_a_400_naming_the_field_and_writes_nothing(season, admin, change, field):
    audits = AuditLog.objects.count()
    response = _page(admin).post(URL, {**GOOD, **change})
    assert response.status_code == 400
    form = response.context["form"]
    assert field in form.errors, form.errors
    assert not QualificationTier.objects.exists() and AuditLog.objects.count() == audits


def test_a_second_tier_with_the_same_code_is_refused(tier, admin):
    response = _page(admin).post(URL, {**GOOD, "description": "again"})
    assert response.status_code == 400 and "already has a tier 1A" in str(response.context["form"].errors["code"])
    assert QualificationTier.objects.count() == 1


def test_edit_a_tier(tier, admin):
    client = _page(admin)
    form = client.get(f"{URL}?edit={tier.pk}").content.decode()
    assert 'value="edit"' in form and 'value="Tenhou 7-dan or Mahjong Soul celestial"' in form
    changed = {
        **GOOD,
        "action": "edit",
        "tier": tier.pk,
        "alt0_min_rank": "8-dan",
        "alt2_platform": "",
        "alt2_min_rank": "",
    }
    changed.pop("proof_required")
    assert client.post(URL, changed).status_code == 302
    tier.refresh_from_db()
    assert tier.requirements == {
        "proof_required": False,
        "accounts": [{**REQUIREMENTS["accounts"][0], "min_rank": "8-dan"}],
    }
    row = AuditLog.objects.get(action="tier.update", object_id=str(tier.pk))
    assert row.data["from"]["requirements"] == REQUIREMENTS
    # a bad edit (the second row's error names the row the admin typed in) changes nothing
    bad = {**changed, "alt1_platform": "mahjongsoul", "alt1_min_room": "phoenix"}
    response = client.post(URL, bad)
    assert response.status_code == 400 and "alt1_min_room" in response.context["form"].errors
    tier.refresh_from_db()
    assert tier.requirements["accounts"][0]["min_rank"] == "8-dan"
    # another league's tier, or none, is not edited
    assert client.post(URL, {**changed, "tier": 999999}).status_code == 400
    assert client.post(URL, {**changed, "tier": "x"}).status_code == 400


def test_retire_keeps_the_tier_and_its_applications(tier, admin, season, member):
    application = QualificationApplication.objects.create(
        player=member.player, season=season, tier=tier, platform="tenhou", account_id="m1", evidence_year=2026
    )
    assert _page(admin).post(URL, {"action": "retire", "tier": tier.pk}).status_code == 302
    tier.refresh_from_db()
    application.refresh_from_db()
    assert tier.active is False and application.tier_id == tier.pk
    assert AuditLog.objects.filter(action="tier.retire", object_id=str(tier.pk)).count() == 1
    # retiring again changes nothing; a retired tier takes no new application
    assert _page(admin).post(URL, {"action": "retire", "tier": tier.pk}).status_code == 302
    assert AuditLog.objects.filter(action="tier.retire").count() == 1
    offered = _page(member).get("/me/").context["form"].fields["tier"].queryset
    assert tier not in offered


def test_a_player_applies_on_a_tier_made_on_the_page(season, admin, member):
    simple = {
        **{k: v for k, v in GOOD.items() if not k.startswith("alt")},
        "code": "2",
        "description": "Mahjong Soul master",
        "alt0_platform": "mahjongsoul",
        "alt0_min_rank": "master",
        "alt0_min_games_in_year": "40",
    }
    simple.pop("proof_required")
    assert _page(admin).post(URL, simple).status_code == 302
    tier = QualificationTier.objects.get(code="2")
    client = _page(member)
    form = {
        "season": season.pk,
        "tier": tier.pk,
        "platform": "mahjongsoul",
        "account_id": "member-ms",
        "rank": "adept",
        "games_in_year": "50",
    }
    low = client.post("/me/", form)
    assert low.status_code == 200 and "rank" in low.context["form"].errors
    assert not QualificationApplication.objects.exists()
    assert client.post("/me/", {**form, "rank": "saint"}).status_code == 302
    application = QualificationApplication.objects.get()
    assert (application.tier, application.rank, application.games_in_year) == (tier, "saint", 50)
