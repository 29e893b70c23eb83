"""Bounds (issue 34 items 9 and 10): a game has at most the hands a real game can have (the bound
the Tenhou import uses), honba never past them; an EMA number is eight ASCII digits; and every
answer under /api/ is JSON with its status (an oversize body 413, a huge id or an unknown URL 404,
a 405, a 500), with DEBUG off and on."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.test import APIClient

from events import ema
from kyoku.models import League, LeagueRole
from kyoku.principals import SYSTEM
from league import services as league_services
from league.models import Player
from online.tenhou import parse as tenhou_parse
from scoring import limits
from scoring import services as scoring_services
from scoring.models import HandRecord
from tests.actors import make_user

HANDS_URL = "/api/games/{}/hands/"
DEALER_TENPAI_DRAW = {"result": {"type": "draw", "tenpai": [0]}}  # the dealer stays, honba + 1


@pytest.fixture
def bound_world(db):
    """A league admin and a WRC game, made as the system (every service gets an actor)."""
    league = League.objects.create(name="Bounds League", slug="bounds")
    admin = make_user("bounds-admin")
    LeagueRole.objects.create(league=league, user=admin, role=LeagueRole.Role.ADMIN)
    rules = league_services.rule_set_create(name="WRC", slug="wrc", preset="wrc", is_template=True, actor=SYSTEM)
    season = league_services.season_create(league=league, year=2026, number=1, rule_set=rules, actor=SYSTEM)
    league_services.season_status_set(season=season, status="open", actor=SYSTEM)
    division = season.divisions.get(code="A")
    players = [Player.objects.create(display_name=f"Bound {i}", membership_number=f"BD{i}") for i in range(4)]
    for p in players:
        league_services.entry_create(division=division, player=p, actor=SYSTEM)
    game = league_services.game_create(division=division, match_day=1, table=1, players=players, actor=SYSTEM)
    api = APIClient()
    api.force_authenticate(admin)
    return admin, game, api


def test_the_bound_is_the_tenhou_imports():
    assert limits.MAX_HANDS == tenhou_parse.MAX_HANDS == 100
    assert limits.MAX_HONBA == limits.MAX_HANDS - 1


def test_a_table_phone_cannot_add_draws_past_a_games_hands(bound_world, monkeypatch):
    """Through the API, with the bound lowered for speed: the hand past it is a 400 naming
    ``sequence`` with its code, and nothing is stored."""
    admin, game, api = bound_world
    monkeypatch.setattr("scoring.services.checks.MAX_HANDS", 5)
    for i in range(5):
        response = api.post(HANDS_URL.format(game.pk), {"record": DEALER_TENPAI_DRAW}, format="json")
        assert response.status_code == 201, response.json()
    response = api.post(HANDS_URL.format(game.pk), {"record": DEALER_TENPAI_DRAW}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert "sequence" in body["errors"] and body["codes"]["sequence"] == ["too_many_hands"]
    assert response["Content-Type"].startswith("application/json")
    assert HandRecord.objects.filter(game=game).count() == 5
    preview = api.post(HANDS_URL.format(game.pk) + "preview/", {"record": DEALER_TENPAI_DRAW}, format="json")
    assert preview.status_code == 400 and preview.json()["codes"]["sequence"] == ["too_many_hands"]


def test_the_hundred_and_first_hand_is_refused_at_the_real_bound(bound_world):
    admin, game, api = bound_world
    for _ in range(limits.MAX_HANDS):
        scoring_services.hand_record_add(game=game, record=DEALER_TENPAI_DRAW, actor=admin)
    last = HandRecord.objects.get(game=game, sequence=limits.MAX_HANDS)
    assert last.record["honba"] == limits.MAX_HONBA  # 99 honba on the hundredth hand, and no more
    response = api.post(HANDS_URL.format(game.pk), {"record": DEALER_TENPAI_DRAW}, format="json")
    assert response.status_code == 400 and response.json()["codes"]["sequence"] == ["too_many_hands"]
    # the hundredth sent again (a phone's retry) is still the same hand, not an error
    again = api.post(HANDS_URL.format(game.pk), {"record": last.record, "sequence": limits.MAX_HANDS}, format="json")
    assert again.status_code == 200
    assert HandRecord.objects.filter(game=game).count() == limits.MAX_HANDS


def test_honba_past_a_games_hands_is_refused():
    from scoring.services.checks import honba_check

    honba_check({"honba": limits.MAX_HONBA})
    with pytest.raises(ValidationError) as err:
        honba_check({"honba": limits.MAX_HONBA + 1})
    assert err.value.error_dict["honba"][0].code == "count_too_large"
    with pytest.raises(ValidationError) as err:
        honba_check({"dealer_streak": 10**6})
    assert "dealer_streak" in err.value.error_dict


# ---------------------------------------------------------------- EMA numbers


@pytest.mark.parametrize(
    "bad",
    [
        "٠٤٠١٠٠١٢",  # Arabic-Indic digits
        "０４０１００１２",  # fullwidth digits
        "۰۴۰۱۰۰۱۲",  # Extended Arabic-Indic (Persian) digits
        "0401001२",  # one Devanagari digit
    ],
)
def test_an_ema_number_is_eight_ascii_digits(bad):
    assert bad.isdigit()  # what let them through
    with pytest.raises(ValueError) as err:
        ema.ema_number_check(bad)
    assert str(err.value).startswith("ema_number:")
    assert ema.ema_number_check(" 04010012 ") == "04010012"


# ---------------------------------------------------------------- JSON under /api/


@pytest.fixture(params=[False, True], ids=["debug-off", "debug-on"])
def raw_client(request, settings, db):
    settings.DEBUG = request.param
    return Client(raise_request_exception=False)


def _json_error(response, status):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert isinstance(body.get("detail"), str) and body["detail"]
    return body


def test_an_oversize_body_is_413_json(raw_client, settings):
    settings.API_MAX_BODY_BYTES = 1000
    body = b'{"rules": "wrc", "pad": "' + b"x" * 2000 + b'"}'
    response = raw_client.post("/api/settle", body, content_type="application/json")
    assert "body" in _json_error(response, 413)["detail"]


def test_an_oversize_body_without_a_length_is_413_json(settings, db):
    """The parser's own check (a body whose length the middleware did not see)."""
    from io import BytesIO

    from kyoku.parsers import PayloadTooLarge, SafeJSONParser

    settings.API_MAX_BODY_BYTES = 10
    with pytest.raises(PayloadTooLarge) as err:
        SafeJSONParser().parse(BytesIO(b'{"a": "0123456789"}'))
    assert err.value.status_code == 413


def test_a_huge_id_in_the_path_is_404_json(raw_client):
    _json_error(raw_client.get("/api/games/99999999999999999999999/hands/"), 404)


def test_an_unknown_api_url_is_404_json(raw_client):
    _json_error(raw_client.get("/api/no-such-thing/"), 404)
    _json_error(raw_client.post("/api/no/such/thing", {}, content_type="application/json"), 404)


def test_a_method_not_allowed_is_405_json(raw_client):
    response = raw_client.delete("/api/settle")
    _json_error(response, 405)
    assert "POST" in response["Allow"]


def test_a_server_error_is_500_json(raw_client, monkeypatch):
    from scoring import api as scoring_api

    def boom(self, request):
        raise RuntimeError("boom")

    monkeypatch.setattr(scoring_api.SettleView, "post", boom)
    body = _json_error(raw_client.post("/api/settle", {}, content_type="application/json"), 500)
    assert "boom" not in body["detail"]


def test_a_page_keeps_its_html_404(db):
    response = Client().get("/no-such-page/99999999999999999999999/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")
