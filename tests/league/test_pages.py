"""Server-rendered pages, in English and Traditional Chinese, with per-role access."""

import pytest
from django.urls import reverse

from league import services
from league.models import GameResult, QualificationTier
from kyoku.principals import SYSTEM


@pytest.fixture
def played(game, admin):
    services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
    services.standings_recompute(division=game.division)
    return game


def test_public_pages_render(client, played):
    season = played.season
    for url in [
        reverse("home"),
        reverse("season", args=[season.pk]),
        reverse("standings", args=[season.pk, "A"]),
        reverse("game", args=[played.pk]),
        reverse("player", args=[played.seats.first().player_id]),
    ]:
        assert client.get(url).status_code == 200, url


def test_standings_page_shows_points_and_sorts(client, played):
    url = reverse("standings", args=[played.season_id, "A"])
    body = client.get(url).content.decode()
    assert "63.0" in body and "-49.8" in body
    assert body.index("Player 1") < body.index("Player 4")
    by_fourths = client.get(url + "?sort=fourths").content.decode()
    assert by_fourths.index("Player 4") < by_fourths.index("Player 1")


def test_player_page_has_running_total_chart(client, played):
    body = client.get(reverse("player", args=[played.seats.get(seat=0).player_id])).content.decode()
    assert "<svg" in body and "polyline" in body and "63.0" in body


def test_traditional_chinese(client, played):
    client.post(reverse("set_language"), {"language": "zh-hant", "next": "/"})
    body = client.get(reverse("standings", args=[played.season_id, "A"])).content.decode()
    assert "排名" in body or "積分" in body
    assert 'lang="zh-hant"' in body


@pytest.mark.parametrize("who,status", [("admin", 200), ("referee", 403), ("member", 403), ("outsider", 403)])
def test_result_form_is_for_admins(client, game, admin, referee, member, outsider, who, status):
    client.force_login({"admin": admin, "referee": referee, "member": member, "outsider": outsider}[who])
    assert client.get(reverse("game-result-entry", args=[game.pk])).status_code == status


def test_result_form_anonymous_goes_to_login(client, game):
    response = client.get(reverse("game-result-entry", args=[game.pk]))
    assert response.status_code == 302 and "login" in response["Location"]


def test_result_form_shows_field_errors_and_stores_nothing(client, game, admin):
    client.force_login(admin)
    response = client.post(
        reverse("game-result-entry", args=[game.pk]),
        {"score_0": 43000, "score_1": 30800, "score_2": 16000, "score_3": 10000, "deposits_left": 0},
    )
    assert response.status_code == 200
    assert "100000" in response.content.decode() or "99800" in response.content.decode()
    assert not GameResult.objects.exists()


def test_result_form_saves(client, game, admin):
    client.force_login(admin)
    response = client.post(
        reverse("game-result-entry", args=[game.pk]),
        {"score_0": 43000, "score_1": 30800, "score_2": 16000, "score_3": 10200, "deposits_left": 0},
    )
    assert response.status_code == 302
    assert GameResult.objects.get().points == [63.0, 10.8, -24.0, -49.8]


def test_review_queue_approve(client, season, players, admin, member, league):
    tier = QualificationTier.objects.create(
        league=league, code="1", description="1", validity="yearly", effective_year=2023, effective_number=3
    )
    application = services.application_submit(player=players[5], season=season, tier=tier, evidence={}, actor=SYSTEM)
    client.force_login(member)
    assert client.get(reverse("review")).status_code == 403
    client.force_login(admin)
    assert "Player 6" in client.get(reverse("review")).content.decode()
    client.post(reverse("review-decide", args=[application.pk]), {"decision": "approve"})
    application.refresh_from_db()
    assert application.status == "approved"


def test_member_applies_from_my_page(client, season, member, league):
    tier = QualificationTier.objects.create(
        league=league, code="1", description="1", validity="yearly", effective_year=2023, effective_number=3
    )
    client.force_login(member)
    response = client.post(reverse("me"), {"season": season.pk, "tier": tier.pk})
    assert response.status_code == 302
    assert member.player.applications.count() == 1
