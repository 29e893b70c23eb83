"""The season office through the API: next season, promotion preview and confirm, close."""

import pytest

from league import services
from kyoku.models import AuditLog, League
from league.models import Entry, Season
from tests.actors import make_role_user
from kyoku.principals import SYSTEM


@pytest.fixture
def played(season, players, admin):
    for code, four in (("A", players[:4]), ("B", players[4:8])):
        division = season.divisions.get(code=code)
        game = services.game_create(division=division, match_day=1, table=1, players=four, actor=SYSTEM)
        services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
        services.standings_recompute(division=division)
    return season


def test_next_preview_confirm_close(as_user, played, players, admin):
    api = as_user(admin)
    nxt = api.post(f"/api/seasons/{played.pk}/next/")
    assert nxt.status_code == 201 and (nxt.json()["year"], nxt.json()["number"]) == (2026, 2)
    preview = api.get(f"/api/seasons/{played.pk}/promotion/").json()
    moves = {row["player"]: (row["from_division"], row["to_division"], row["basis"]) for row in preview}
    assert moves[players[4].pk] == ("B", "A", "promoted") and moves[players[3].pk] == ("A", "B", "relegated")
    assert api.post(f"/api/seasons/{played.pk}/promotion/").json()["created"] == 8
    assert api.post(f"/api/seasons/{played.pk}/promotion/").json()["created"] == 0
    assert Entry.objects.filter(season_id=nxt.json()["id"]).count() == 8
    assert api.post(f"/api/seasons/{played.pk}/close/").json()["status"] == "closed"
    assert AuditLog.objects.filter(action="season.promotion_confirm").count() == 2


def test_confirm_before_next_season_is_400(as_user, played, admin):
    response = as_user(admin).post(f"/api/seasons/{played.pk}/promotion/")
    assert response.status_code == 400 and "next_season" in response.content.decode()


@pytest.mark.parametrize(
    "path,method", [("next/", "post"), ("close/", "post"), ("promotion/", "get"), ("promotion/", "post")]
)
def test_it_validates_ownership(as_user, played, member, path, method):
    other = make_role_user("other-admin", League.objects.create(name="Other", slug="other"), "admin")
    for user in (other, member):
        response = getattr(as_user(user), method)(f"/api/seasons/{played.pk}/{path}")
        assert response.status_code == 403, (path, user)
    assert Season.objects.count() == 1 and Season.objects.get().status == "open"
