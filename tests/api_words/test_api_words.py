"""Every API answer reads as words, in the reader's language: ``detail`` is the message (the field
apart, in ``field``), a 403 is translated, DRF's nested errors are flattened to words, unknown keys
are refused on every write, and a confirmation takes only JSON ``true``."""

import pytest
from rest_framework.test import APIClient

from kyoku.principals import SYSTEM
from league import services
from league.models import Season
from tests.actors import open_season


@pytest.fixture
def season(league, players):
    rules = services.rule_set_create(name="M-League", slug="mleague", preset="mleague", is_template=True, actor=SYSTEM)
    return open_season(league, rules, players)


@pytest.fixture
def open_game(season, players):
    return services.game_create(
        division=season.divisions.get(code="A"), match_day=1, table=1, players=players[:4], actor=SYSTEM
    )


def api_for(user, lang="en"):
    api = APIClient(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        api.force_authenticate(user)
    return api


# ------------------------------------------------------------------ detail is words, field apart


def test_a_validation_error_says_words_and_names_its_field_apart(game, admin):
    r = api_for(admin).post(f"/api/games/{game.pk}/result/", {"scores": [1, 2, 3]}, format="json")
    assert r.status_code == 400
    body = r.json()
    assert body["field"] == "scores" and "scores" in body["errors"]
    assert body["detail"] == body["errors"]["scores"][0]
    assert not body["detail"].startswith("scores")


def test_a_service_error_says_words_in_the_readers_language(season, open_game, admin):
    r = api_for(admin, "ja").post(f"/api/seasons/{season.pk}/close/", {}, format="json")
    assert r.status_code == 409
    body = r.json()
    assert body["field"] == "confirm" and body["codes"]["confirm"]
    assert body["detail"] == body["errors"]["confirm"][0] and not body["detail"].startswith("confirm")


def test_a_parse_error_names_the_body_apart(admin, game):
    r = api_for(admin).post(f"/api/games/{game.pk}/result/", "{not json", content_type="application/json")
    assert r.status_code == 400
    assert r.json()["field"] == "body" and r.json()["detail"].startswith("not valid JSON")


# ------------------------------------------------------------------ 403 in the reader's language


@pytest.mark.parametrize(
    "lang, words",
    [("en", "you may not do this in Test League"), ("ja", "Test League では"), ("zh-hant", "你不可在 Test League")],
)
def test_a_403_is_said_in_the_readers_language(season, lang, words):
    from kyoku.models import League, LeagueRole
    from tests.actors import make_role_user

    other = League.objects.create(name="Other League", slug="other")
    stranger = make_role_user("other-admin", other, LeagueRole.Role.ADMIN)  # an admin, not of this league
    r = api_for(stranger, lang).post(f"/api/seasons/{season.pk}/close/", {"confirm": True}, format="json")
    assert r.status_code == 403
    assert words in r.json()["detail"]
    if lang != "en":
        assert "you may not" not in r.json()["detail"]
    assert Season.objects.get(pk=season.pk).status == "open"


# ------------------------------------------------------------------ nested errors flattened to words


def test_a_list_items_error_is_words_naming_the_item(member):
    r = api_for(member).post("/api/me/notifications/read/", {"ids": ["x", -1]}, format="json")
    assert r.status_code == 400
    body = r.json()
    assert "ErrorDetail" not in r.content.decode()
    assert set(body["errors"]) == {"ids.0", "ids.1"}
    assert body["field"] == "ids.0" and body["detail"] == "A valid integer is required."
    assert body["codes"]["ids.1"] == ["min_value"]


def test_a_nested_members_error_is_words(member):
    keys = {"p256dh": "k" * 500, "auth": "a"}
    r = api_for(member).post(
        "/api/me/push-subscriptions/", {"endpoint": "https://push.example.com/x", "keys": keys}, format="json"
    )
    assert r.status_code == 400
    assert "ErrorDetail" not in r.content.decode()
    assert r.json()["field"] == "keys.p256dh" and "200" in r.json()["detail"]


# ------------------------------------------------------------------ unknown keys refused on every write


def test_an_unknown_key_is_refused_and_nothing_is_created(season, admin):
    before = Season.objects.count()
    r = api_for(admin).post(f"/api/seasons/{season.pk}/next/", {"bogus": 1}, format="json")
    assert r.status_code == 400
    body = r.json()
    assert body["field"] == "bogus" and body["codes"]["bogus"] == ["unknown_field"]
    assert body["detail"].startswith("bogus is not a field of this request")
    assert Season.objects.count() == before


def test_an_unknown_key_is_refused_in_the_readers_language(season, admin):
    r = api_for(admin, "ja").post(f"/api/seasons/{season.pk}/next/", {"bogus": 1}, format="json")
    assert r.status_code == 400 and "bogus" in r.json()["detail"]
    assert "is not a field" not in r.json()["detail"]


def test_a_write_that_takes_no_body_refuses_keys(season, admin):
    r = api_for(admin).post(f"/api/seasons/{season.pk}/promotion/", {"confirm": "yes"}, format="json")
    assert r.status_code == 400
    assert r.json()["field"] == "confirm" and r.json()["codes"]["confirm"] == ["unknown_field"]


def test_a_form_body_with_an_unknown_key_is_refused(season, admin):
    r = api_for(admin).post(f"/api/seasons/{season.pk}/next/", {"bogus": "1"})  # multipart
    assert r.status_code == 400 and r.json()["field"] == "bogus"


def test_known_keys_still_write(season, admin):
    r = api_for(admin).post(f"/api/seasons/{season.pk}/next/", {}, format="json")
    assert r.status_code == 201, r.json()


# ------------------------------------------------------------------ a confirmation takes only true


@pytest.mark.parametrize("said", ["yes", "true", 1, "1", "on"])
def test_a_confirmation_takes_only_json_true(season, open_game, admin, said):
    r = api_for(admin).post(f"/api/seasons/{season.pk}/close/", {"confirm": said}, format="json")
    assert r.status_code == 400
    assert r.json()["field"] == "confirm" and "true" in r.json()["detail"]
    assert Season.objects.get(pk=season.pk).status == "open"


def test_json_true_confirms(season, open_game, admin):
    r = api_for(admin).post(f"/api/seasons/{season.pk}/close/", {"confirm": True}, format="json")
    assert r.status_code == 200
    assert Season.objects.get(pk=season.pk).status == "closed"


def test_a_result_correction_takes_only_json_true(game, admin):
    url = f"/api/games/{game.pk}/result/"
    assert api_for(admin).post(url, {"scores": [40000, 30000, 20000, 10000]}, format="json").status_code in (200, 201)
    r = api_for(admin).post(url, {"scores": [45000, 25000, 20000, 10000], "replace": "yes"}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "replace"


def test_a_browsers_push_subscription_body_has_no_unknown_key(member, settings):
    # PushSubscription.toJSON(): endpoint, expirationTime and keys (static/app.js sends it whole)
    body = {
        "endpoint": "https://fcm.googleapis.com/fcm/send/abc",
        "expirationTime": None,
        "keys": {"p256dh": "k", "auth": "a"},
    }
    r = api_for(member).post("/api/me/push-subscriptions/", body, format="json")
    assert r.json().get("field") != "expirationTime", r.json()
