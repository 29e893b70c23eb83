"""The season office: next season, close, promotion preview and confirm (idempotent, audited)."""

import pytest
from django.urls import reverse

from kyoku.models import AuditLog
from league import services
from kyoku.models import League
from league.models import Entry, Season
from tests.actors import make_role_user
from kyoku.principals import SYSTEM


@pytest.fixture
def played(season, players, admin):
    a, b = season.divisions.get(code="A"), season.divisions.get(code="B")
    for division, four in ((a, players[:4]), (b, players[4:8])):
        game = services.game_create(division=division, match_day=1, table=1, players=four, actor=SYSTEM)
        services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
        services.standings_recompute(division=division)
    return season


@pytest.fixture
def other_admin(db):
    other = League.objects.create(name="Other league", slug="other")
    return make_role_user("other-admin", other, "admin")


def test_admin_creates_next_season_once(client, played, admin):
    client.force_login(admin)
    url = reverse("office-next-season", args=[played.pk])
    assert client.post(url).status_code == 302
    assert client.post(url).status_code == 302
    nxt = Season.objects.get(league=played.league, year=2026, number=2)
    assert [d.code for d in nxt.divisions.all()] == ["A", "B"]
    assert nxt.rule_set.preset == played.rule_set.preset
    assert Season.objects.filter(league=played.league).count() == 2


def test_promotion_preview_then_confirm_is_idempotent_and_audited(client, played, players, admin):
    client.force_login(admin)
    url = reverse("office-promotion", args=[played.pk])
    body = client.get(url).content.decode()
    assert "Promoted" in body and "Relegated" in body and "Create the next season" in body
    client.post(reverse("office-next-season", args=[played.pk]))
    client.post(url)
    nxt = Season.objects.get(league=played.league, number=2)
    placed = {e.player_id: (e.division.code, e.basis) for e in Entry.objects.filter(season=nxt)}
    assert len(placed) == 8
    assert placed[players[4].pk] == ("A", "promoted") and placed[players[3].pk] == ("B", "relegated")
    client.post(url)  # confirming twice changes nothing
    assert Entry.objects.filter(season=nxt).count() == 8
    confirms = AuditLog.objects.filter(action="season.promotion_confirm", actor=admin).order_by("pk")
    assert [row.data["created"] for row in confirms] == [8, 0]
    assert AuditLog.objects.filter(action="season.create", actor=admin).count() == 1


def test_confirm_without_next_season_stores_nothing(client, played, admin):
    client.force_login(admin)
    assert client.post(reverse("office-promotion", args=[played.pk])).status_code == 302
    assert not Season.objects.filter(number=2).exists()


def test_close_season(client, played, admin):
    client.force_login(admin)
    client.post(reverse("office-close", args=[played.pk]))
    client.post(reverse("office-close", args=[played.pk]))
    played.refresh_from_db()
    assert played.status == "closed"
    assert AuditLog.objects.filter(action="season.status", actor=admin).count() == 1


@pytest.mark.parametrize("name", ["office-season", "office-next-season", "office-close", "office-promotion"])
def test_it_validates_ownership(client, played, other_admin, member, name):
    url = reverse(name, args=[played.pk])
    for user in (other_admin, member):
        client.force_login(user)
        response = client.post(url) if name != "office-season" else client.get(url)
        assert response.status_code == 403, (name, user)
    assert Season.objects.filter(league=played.league).count() == 1
    assert not Entry.objects.exclude(season=played).exists()
    played.refresh_from_db()
    assert played.status == "open"


def test_office_page_in_traditional_chinese(client, played, admin):
    client.force_login(admin)
    client.post(reverse("set_language"), {"language": "zh-hant", "next": "/"})
    assert client.get(reverse("office-season", args=[played.pk])).status_code == 200


def test_the_next_season_is_proposed_with_dates_and_they_can_be_changed(client, played, admin):
    import datetime as dt

    from league import office

    Season.objects.filter(pk=played.pk).update(starts_on=dt.date(2026, 1, 10), ends_on=dt.date(2026, 3, 31))
    played.refresh_from_db()
    assert office.season_next_dates(season=played) == (dt.date(2026, 4, 1), dt.date(2026, 6, 20))
    client.force_login(admin)
    page = client.get(reverse("office-season", args=[played.pk])).content.decode()
    assert 'value="2026-04-01"' in page and 'value="2026-06-20"' in page  # the form shows the proposal
    client.post(reverse("office-next-season", args=[played.pk]), {"starts_on": "2026-04-05", "ends_on": ""})
    nxt = Season.objects.get(league=played.league, number=2)
    assert (nxt.starts_on, nxt.ends_on) == (dt.date(2026, 4, 5), dt.date(2026, 6, 20))


def test_next_season_dates_that_run_backwards_are_refused_in_words(client, played, admin):
    client.force_login(admin)
    response = client.post(
        reverse("office-next-season", args=[played.pk]),
        {"starts_on": "2026-05-01", "ends_on": "2026-04-01"},
        follow=True,
    )
    assert "ends before it starts" in response.content.decode()
    assert not Season.objects.filter(league=played.league, number=2).exists()


def test_next_season_api_takes_dates_and_names_a_bad_one(client, played, admin):
    client.force_login(admin)
    url = f"/api/seasons/{played.pk}/next/"
    bad = client.post(url, {"starts_on": "someday"}, content_type="application/json")
    assert bad.status_code == 400 and "starts_on" in bad.json()["errors"]
    ok = client.post(url, {"starts_on": "2026-07-01", "ends_on": "2026-09-30"}, content_type="application/json")
    assert ok.status_code == 201
    nxt = Season.objects.get(pk=ok.json()["id"])
    assert str(nxt.starts_on) == "2026-07-01" and str(nxt.ends_on) == "2026-09-30"


def test_promotion_preview_shows_rank_games_and_points(client, played, admin):
    client.force_login(admin)
    body = client.get(reverse("office-promotion", args=[played.pk])).content.decode()
    assert '<th class="num">Rank</th>' in body and '<th class="num">Points</th>' in body
    from league import office

    rows = office.promotion_preview(season=played)
    first_a = next(r for r in rows if r["from"] == "A" and r["rank"] == 1)
    assert first_a["games"] == 1 and first_a["points"] is not None
    assert all(r["rank"] is not None for r in rows)


def test_promotion_preview_in_japanese_says_rank_and_divisions_in_words(client, played, admin):
    client.force_login(admin)
    client.post(reverse("set_language"), {"language": "ja", "next": "/"})
    body = client.get(reverse("office-promotion", args=[played.pk])).content.decode()
    assert "順位" in body and "段位" not in body  # a standings place, not a platform dan rank
    assert "移動前" in body and "開始日" not in body  # the division moved from, not a date
    assert "<td>A</td>" not in body  # divisions by name, not by code
