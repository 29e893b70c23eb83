"""Closing a season with games or match days still open needs an explicit confirm, after being told
what is open (page and API: 409 listing it); a closed season can be reopened by an admin, audited."""

from datetime import date, timedelta

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league import services
from kyoku.models import AuditLog
from league.models import Season
from kyoku.principals import SYSTEM


@pytest.fixture
def open_game(season, players):
    return services.game_create(
        division=season.divisions.get(code="A"), match_day=1, table=1, players=players[:4], actor=SYSTEM
    )


def api_for(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_api_close_with_an_unplayed_game_answers_409_listing_it(season, open_game, admin):
    r = api_for(admin).post(f"/api/seasons/{season.pk}/close/", {}, format="json")
    assert r.status_code == 409
    assert "1 game not played" in r.json()["errors"]["confirm"][0]
    season.refresh_from_db()
    assert season.status == "open"
    r = api_for(admin).post(f"/api/seasons/{season.pk}/close/", {"confirm": True}, format="json")
    assert r.status_code == 200
    season.refresh_from_db()
    assert season.status == "closed"
    assert AuditLog.objects.filter(action="season.close_confirmed", object_id=str(season.pk)).exists()


def test_hand_by_hand_game_in_progress_and_match_days_are_listed(season, open_game, admin, players):
    from matchdays.models import MatchDay
    from scoring import services as scoring

    scoring.hand_record_add(game=open_game, record={"result": {"type": "draw", "tenpai": [0]}}, actor=admin)
    MatchDay.objects.create(
        season=season, division=season.divisions.get(code="A"), number=2, date=date.today() + timedelta(days=14)
    )
    r = api_for(admin).post(f"/api/seasons/{season.pk}/close/", {}, format="json")
    message = r.json()["errors"]["confirm"][0]
    assert "1 game entered hand by hand and not finished" in message and "1 match day to come" in message


def test_a_finished_season_closes_without_asking(season, admin):
    r = api_for(admin).post(f"/api/seasons/{season.pk}/close/", {}, format="json")
    assert r.status_code == 200


def test_page_lists_open_work_and_needs_the_checkbox(client, season, open_game, admin):
    client.force_login(admin)
    page = client.get(reverse("office-season", args=[season.pk])).content.decode()
    assert "1 game not played" in page and 'name="confirm"' in page and "data-confirm=" in page
    client.post(reverse("office-close", args=[season.pk]))
    assert Season.objects.get(pk=season.pk).status == "open"
    client.post(reverse("office-close", args=[season.pk]), {"confirm": "1"})
    assert Season.objects.get(pk=season.pk).status == "closed"


def test_reopen_is_audited_and_only_for_admins(client, season, admin, referee):
    services.season_status_set(season=season, status="closed", actor=SYSTEM)
    assert api_for(referee).post(f"/api/seasons/{season.pk}/reopen/", {}, format="json").status_code == 403
    r = api_for(admin).post(f"/api/seasons/{season.pk}/reopen/", {"reason": "a result to correct"}, format="json")
    assert r.status_code == 200
    assert Season.objects.get(pk=season.pk).status == "open"
    entry = AuditLog.objects.get(action="season.reopen")
    assert entry.data["reason"] == "a result to correct"
    assert api_for(admin).post(f"/api/seasons/{season.pk}/reopen/", {}, format="json").status_code == 409
