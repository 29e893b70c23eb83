"""The league table page, the player page's rating panel, the public API and the route
declarations."""

import re

import pytest
from django.urls import get_resolver

from ratings.models import PlayerRating
from tests.ratings.conftest import new_game


@pytest.fixture
def rated(season, season2, players, record):
    """Three games over two seasons: Player 1 wins twice, Players 5-8 play once in B."""
    record(new_game(season, "A", 1, 1, players[:4]), [45000, 30000, 15000, 10000])
    record(new_game(season, "B", 1, 1, players[4:]), [10000, 15000, 30000, 45000])
    record(new_game(season2, "A", 1, 1, players[:4]), [40000, 30000, 20000, 10000])
    return {r.player.display_name: r for r in PlayerRating.objects.select_related("player")}


def rows(html):
    body = html.split("<tbody>")[1].split("</tbody>")[0]
    return [re.sub(r"<[^>]+>", " ", tr).split() for tr in body.split("<tr>")[1:]]


def test_table_ranks_by_rating_and_sorts_by_any_column(client, rated, league):
    page = client.get(f"/leagues/{league.slug}/ratings/")
    assert page.status_code == 200
    table = rows(page.content.decode())
    assert table[0][1:3] == ["Player", "1"]
    assert table[0][0] == "1" and table[0][-3] == "2"  # rank 1, two games
    assert f"{rated['Player 1'].ordinal:.2f}" in page.content.decode()
    html = page.content.decode()
    assert "How ratings work" in html and 'href="/players/' in html
    by_games = rows(client.get(f"/leagues/{league.slug}/ratings/?sort=-games").content.decode())
    assert by_games[0][-3] == "1"  # fewest games first
    lowest = rows(client.get(f"/leagues/{league.slug}/ratings/?sort=-rating").content.decode())
    worst = min(rated.values(), key=lambda r: r.ordinal)
    assert lowest[0][1:3] == worst.player.display_name.split() and lowest[0][0] == "8"
    # an unknown sort or page falls back instead of failing
    # a NUL or an out-of-range number in the query is refused before the view (kyoku.middleware)
    assert client.get(f"/leagues/{league.slug}/ratings/?sort=%00&page=99999999999999999999").status_code == 400
    assert client.get(f"/leagues/{league.slug}/ratings/?sort=bogus&page=9999").status_code == 200


def test_table_pages_through_many_players(client, league, settings):
    from league.models import Player
    from ratings.models import PlayerRating as PR

    PR.objects.bulk_create(
        PR(
            league=league,
            player=Player.objects.create(display_name=f"P{i:02d}", membership_number=f"X{i}"),
            mu=25 + i / 10,
            sigma=5,
            ordinal=10 + i / 10,
            games=3,
        )
        for i in range(30)
    )
    first = client.get(f"/leagues/{league.slug}/ratings/").content.decode()
    assert len(rows(first)) == 25 and "Page 1 of 2" in first and 'rel="next"' in first
    second = client.get(f"/leagues/{league.slug}/ratings/?sort=rating&page=2").content.decode()
    assert [r[0] for r in rows(second)] == [str(n) for n in range(26, 31)]
    assert rows(second)[-1][1] == "P00"


def test_table_in_traditional_chinese(client, rated, league):
    page = client.get(f"/leagues/{league.slug}/ratings/", HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert "測試聯賽" in page  # the league's Chinese name


def test_unknown_league_is_404(client, db):
    assert client.get("/leagues/nope/ratings/").status_code == 404
    assert client.get("/api/leagues/nope/ratings/").status_code == 404


def test_player_page_shows_the_rating_and_its_chart(client, rated, players):
    html = client.get(f"/players/{players[0].pk}/").content.decode()
    assert 'class="chart rating-chart"' in html and "<polyline" in html
    assert f"{rated['Player 1'].ordinal:.2f}" in html
    assert html.count("<circle cx=") >= 2  # one dot per rated game (plus the running-total chart's)
    assert "2026 S1" in html and "2026 S2" in html  # season ticks
    nobody = client.get(f"/players/{players[7].pk}/").content.decode()
    assert "rating-chart" in nobody  # played once in B: one game


def test_league_api_lists_ratings_with_rank_and_paging(api, rated, league):
    body = api.get(f"/api/leagues/{league.slug}/ratings/?limit=3").json()
    assert body["count"] == 8 and len(body["results"]) == 3 and body["next"]
    top = body["results"][0]
    assert top["rank"] == 1 and top["player"]["display_name"] == "Player 1" and top["games"] == 2
    assert top["rating"] == pytest.approx(top["mu"] - 3 * top["sigma"])
    assert top["rating"] == rated["Player 1"].ordinal
    by_name = api.get(f"/api/leagues/{league.slug}/ratings/?sort=name").json()["results"]
    assert [r["player"]["display_name"] for r in by_name] == sorted(r["player"]["display_name"] for r in by_name)


def test_player_api_gives_the_history_that_makes_the_rating(api, rated, players):
    body = api.get(f"/api/players/{players[0].pk}/ratings/").json()
    [league] = body["leagues"]
    history = league["history"]
    assert [h["season"] for h in history] == ["2026 S1", "2026 S2"] and [h["place"] for h in history] == [1, 1]
    assert history[0]["mu_before"] == 25.0 and history[1]["mu_before"] == history[0]["mu"]
    assert history[-1]["rating"] == league["rating"] == rated["Player 1"].ordinal
    assert history[-1]["rating"] > history[-1]["rating_before"]  # a win raised it


def test_player_api_refuses_what_cannot_be_a_player(api, db):
    assert api.get("/api/players/999999/ratings/").status_code == 404
    assert api.get("/api/players/99999999999999999999999/ratings/").status_code == 404
    assert api.post("/api/players/1/ratings/", {}).status_code in (401, 403, 405)


def test_every_ratings_route_is_declared_public():
    from tests.routes import declarations

    names = set()
    for pattern in get_resolver().reverse_dict.keys():
        if isinstance(pattern, str) and ("ratings" in pattern):
            names.add(pattern)
    assert {"ratings-league", "api-ratings-league", "api-ratings-player"} <= names
    routes = {name: r for name, r in declarations()[0].items() if "ratings" in name}
    assert set(routes) == {"ratings-league", "api-ratings-league", "api-ratings-player"}
    assert all(r.methods == {"GET": "public"} for r in routes.values())


def test_matrix_objects_point_at_the_worlds_league_and_owner(db):
    from tests.routes import declarations
    from tests.security.kinds import matrix_objects
    from tests.security.world import world_build

    world = world_build()
    kinds = matrix_objects(world)
    routes = declarations()[0]
    assert kinds[routes["ratings-league"].obj]["slug"] == world.league.slug
    assert kinds[routes["api-ratings-league"].obj]["slug"] == world.league.slug
    assert kinds[routes["api-ratings-player"].obj]["player_id"] == world.players[0].pk


@pytest.mark.parametrize(
    "query",
    [
        "offset=99999999999999999999999",
        "limit=99999999999999999999999",
        "limit=-1&offset=-5",
        "sort=%ED%BF%BF",
        "limit=abc",
        "sort=rating%00",
    ],
)
def test_league_api_survives_odd_query_strings(api, rated, league, query):
    response = api.get(f"/api/leagues/{league.slug}/ratings/?{query}")
    assert response.status_code in (200, 400, 404)
    assert response.status_code != 200 or response.json()["count"] == 8


def test_ratings_engine_imports_without_django():
    import subprocess
    import sys

    code = (
        "import sys, ratings.engine; bad = sorted(m for m in sys.modules if m == 'django' or "
        "m.startswith(('django.', 'rest_framework'))); print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
