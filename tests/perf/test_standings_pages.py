"""Standings at league scale: conditional requests on the API (ETag from the standings version,
304 until a result lands), a bounded number of queries whatever the division's size, paging
that sorts across the whole division, and the promotion / relegation zones."""

from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.test import APIClient

from league import services
from league.models import Division, Player
from tests.actors import open_season
from kyoku.principals import SYSTEM


@pytest.fixture
def season(league, players):
    rules = services.rule_set_create(name="M-League", slug="mleague", preset="mleague", is_template=True, actor=SYSTEM)
    return open_season(league, rules, players)  # A: players 1-4, B: players 5-8


@pytest.fixture
def played(season, players, admin):
    a = season.divisions.get(code="A")
    b = season.divisions.get(code="B")
    services.game_result_record(
        game=services.game_create(division=a, match_day=1, table=1, players=players[:4], actor=SYSTEM),
        scores=[43000, 30800, 16000, 10200],
        actor=admin,
    )
    services.game_result_record(
        game=services.game_create(division=b, match_day=1, table=1, players=players[4:], actor=SYSTEM),
        scores=[10200, 16000, 30800, 43000],
        actor=admin,
    )
    return a, b


def test_standings_api_answers_304_until_the_standings_change(played, players, admin, season):
    a, _ = played
    client = APIClient()
    first = client.get(f"/api/divisions/{a.pk}/standings/")
    assert first.status_code == 200 and first["ETag"] and first["Cache-Control"] == "no-cache"
    assert [r["player"]["id"] for r in first.json()][:1] == [players[0].pk]
    again = client.get(f"/api/divisions/{a.pk}/standings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    # a penalty moves the standings: the old ETag no longer matches, the new table says so
    services.penalty_assign(
        season=season, player=players[0], offence="false_win", sanction="chombo", points=Decimal("120"), actor=admin
    )  # 63.0 − 120 = −57.0: last
    changed = client.get(f"/api/divisions/{a.pk}/standings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert changed.json()[-1]["player"]["id"] == players[0].pk


def test_other_sorts_have_their_own_etag(played):
    a, _ = played
    client = APIClient()
    by_rank = client.get(f"/api/divisions/{a.pk}/standings/")
    by_name = client.get(f"/api/divisions/{a.pk}/standings/?sort=name")
    assert by_rank["ETag"] != by_name["ETag"]
    assert (
        client.get(f"/api/divisions/{a.pk}/standings/?sort=name", HTTP_IF_NONE_MATCH=by_rank["ETag"]).status_code == 200
    )


def test_zones_follow_the_leagues_promotion_count(played, league):
    a, b = played
    top = Client().get(f"/seasons/{a.season_id}/divisions/A/").content.decode()
    bottom = Client().get(f"/seasons/{b.season_id}/divisions/B/").content.decode()
    # the top division only relegates, the bottom one only promotes; 2 of 4 each (league default)
    assert top.count('class="zone-relegation"') == 2 and 'class="zone-promotion"' not in top
    assert bottom.count('class="zone-promotion"') == 2 and 'class="zone-relegation"' not in bottom
    assert "Bottom 2: relegated" in top and "Top 2: promoted" in bottom
    zh = Client(HTTP_ACCEPT_LANGUAGE="zh-hant").get(f"/seasons/{b.season_id}/divisions/B/").content.decode()
    assert "首 2 名：季末升級" in zh and "第一" in zh


def test_a_large_division_is_paged_and_sorted_across_all_of_it(season, league, django_assert_max_num_queries):
    from league.selectors import STANDINGS_PAGE_SIZE

    b = season.divisions.get(code="B")
    extra = Player.objects.bulk_create(
        Player(display_name=f"Z{i:04d}", membership_number=f"X{i:04d}") for i in range(STANDINGS_PAGE_SIZE + 30)
    )
    for p in extra:
        services.entry_create(division=b, player=p, actor=SYSTEM)
    url = f"/seasons/{season.pk}/divisions/B/"
    with django_assert_max_num_queries(8):
        first = Client().get(url + "?sort=name").content.decode()
    last = Client().get(url + "?sort=name&page=2").content.decode()
    assert 'id="standings-pages"' in first and f"{STANDINGS_PAGE_SIZE + 34} players" in first
    # sorted by name across the division: the last names are on page 2
    assert "Z0229" in last and "Z0229" not in first and "Player 5" in first
    # a page past the end shows the last page instead of failing
    assert "Z0229" in Client().get(url + "?sort=name&page=999").content.decode()


def test_api_standings_query_count_is_bounded(played, django_assert_max_num_queries):
    a, _ = played
    with django_assert_max_num_queries(5):
        assert APIClient().get(f"/api/divisions/{a.pk}/standings/").status_code == 200


def test_it_validates_ownership(played):
    # standings are public league data, but only for divisions that exist
    assert APIClient().get("/api/divisions/999999/standings/").status_code == 404
    assert Client().get(f"/seasons/{played[0].season_id}/divisions/Q/").status_code == 404
    assert Division.objects.count() == 2


@pytest.mark.django_db
def test_a_renamed_player_shows_at_once_in_the_cached_table_and_api(played, players):
    a, _ = played
    api, page = APIClient(), Client()
    first = api.get(f"/api/divisions/{a.pk}/standings/")
    page.get(f"/seasons/{a.season_id}/divisions/A/")  # caches the rendered table
    player = players[0]
    player.display_name = "Renamed Player"
    player.save()
    again = api.get(f"/api/divisions/{a.pk}/standings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert "Renamed Player" in {row["player"]["display_name"] for row in again.json()}
    assert "Renamed Player" in page.get(f"/seasons/{a.season_id}/divisions/A/").content.decode()


@pytest.mark.django_db
def test_the_api_answer_is_the_same_from_the_cache(played):
    a, _ = played
    api = APIClient()
    cold = api.get(f"/api/divisions/{a.pk}/standings/")
    warm = api.get(f"/api/divisions/{a.pk}/standings/")
    assert cold["Content-Type"] == warm["Content-Type"] == "application/json"
    assert cold.json() == warm.json() and [row["rank"] for row in warm.json()] == [1, 2, 3, 4]


@pytest.mark.django_db
def test_the_api_rows_are_what_the_serializer_gives(played, players, admin):
    # fractions, a penalty, a player without a game (no average place): every kind of value
    from league.api.serializers import StandingSerializer
    from league.api.views import _standings_data
    from league.selectors import standings_for

    a, _ = played
    services.penalty_assign(
        season=a.season,
        player=players[1],
        points=Decimal("12.5"),
        offence="false_win",
        sanction="point_deduction",
        actor=admin,
    )
    services.entry_create(division=a, player=Player.objects.create(display_name="No Games"), actor=admin)
    for sort in ("rank", "-total_points", "games"):
        expected = [dict(row) for row in StandingSerializer(standings_for(division=a, sort=sort), many=True).data]
        assert _standings_data(a, sort) == expected
    assert any(row["average_place"] is None for row in expected)
