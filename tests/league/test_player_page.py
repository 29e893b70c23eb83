"""The player page: the current season first, its running total counting penalties so that it
ends on the standings total (a player at −60.1 in the standings must not show +23.5), every
season's standings line, earlier seasons a click away, and a bounded number of queries."""

import re
from decimal import Decimal

from django.test import Client

from league import services
from league.models import Standing
from tests.actors import open_season
from kyoku.principals import SYSTEM


def _running_totals(html: str) -> list[str]:
    table = re.search(r'(?s)<table class="grid" id="results">.*?</table>', html).group(0)
    return re.findall(r'(?s)<td class="num">([−\-]?[\d.]+)</td></tr>', table)


def test_running_total_counts_penalties_and_ends_on_the_standings_total(season, division_a, players, admin):
    four = players[:4]
    g1 = services.game_create(division=division_a, match_day=1, table=1, players=four, actor=SYSTEM)
    services.game_result_record(game=g1, scores=[10200, 16000, 30800, 43000], actor=admin)  # −49.8
    services.penalty_assign(
        season=season,
        player=four[0],
        offence="false_win",
        sanction="chombo",
        points=Decimal("20"),
        game=g1,
        actor=admin,
    )
    g2 = services.game_create(division=division_a, match_day=2, table=1, players=four, actor=SYSTEM)
    services.game_result_record(game=g2, scores=[43000, 30800, 16000, 10200], actor=admin)  # +63.0
    services.penalty_assign(
        season=season,
        player=four[0],
        offence="late_declaration",
        sanction="warning",
        points=Decimal("3.5"),
        actor=admin,
    )
    html = Client().get(f"/players/{four[0].pk}/").content.decode()
    standing = Standing.objects.get(division=division_a, player=four[0])
    assert standing.total_points == Decimal("-10.3")  # −49.8 − 20 + 63.0 − 3.5
    # game, its penalty, game, the loose penalty: the last running total is the standings total
    # shown with a real minus sign, as every page shows league points
    assert _running_totals(html) == ["−49.8", "−69.8", "−6.8", "−10.3"]
    career = re.search(r'(?s)<table class="grid" id="career">.*?</table>', html).group(0)
    assert "−10.3" in career and "−23.5" in career and "-10.3" not in career  # one minus sign everywhere


def test_current_season_first_and_earlier_ones_a_click_away(season, division_a, players, admin, league):
    four = players[:4]
    g1 = services.game_create(division=division_a, match_day=1, table=1, players=four, actor=SYSTEM)
    services.game_result_record(game=g1, scores=[43000, 30800, 16000, 10200], actor=admin)
    later = open_season(league, season.rule_set, players, number=2)
    a2 = later.divisions.get(code="A")
    g2 = services.game_create(division=a2, match_day=1, table=1, players=four, actor=SYSTEM)
    services.game_result_record(game=g2, scores=[10200, 16000, 30800, 43000], actor=admin)
    client = Client()
    html = client.get(f"/players/{four[0].pk}/").content.decode()
    assert _running_totals(html) == ["−49.8"]  # season 2, the latest
    assert f'href="?season={season.pk}#season-history"' in html
    earlier = client.get(f"/players/{four[0].pk}/?season={season.pk}").content.decode()
    assert _running_totals(earlier) == ["63.0"]
    # an unknown or foreign season falls back to the latest
    assert _running_totals(client.get(f"/players/{four[0].pk}/?season=999999").content.decode()) == ["−49.8"]


def test_player_page_queries_do_not_grow_with_games_seasons_or_leagues(
    season, division_a, players, admin, league, django_assert_max_num_queries
):
    """The issue's goal: five queries at most (player, seats, standings, penalties, ratings),
    however many games, seasons, penalties and rating leagues the player has."""
    from ratings.services import league_ratings_rebuild

    four = players[:4]
    later = open_season(league, season.rule_set, players, number=2)
    for division in (division_a, later.divisions.get(code="A")):
        for day in range(1, 7):
            game = services.game_create(division=division, match_day=day, table=1, players=four, actor=SYSTEM)
            services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
        services.penalty_assign(
            season=division.season,
            player=four[0],
            offence="false_win",
            sanction="chombo",
            points=Decimal("20"),
            game=game,
            actor=admin,
        )
    league_ratings_rebuild(league=league, actor=SYSTEM)
    client = Client()
    with django_assert_max_num_queries(5):
        html = client.get(f"/players/{four[0].pk}/").content.decode()
    assert _running_totals(html)[-1] == str(Standing.objects.get(season=later, player=four[0]).total_points)
    assert 'class="player-rating"' in html
    with django_assert_max_num_queries(5):
        assert client.get(f"/players/{four[0].pk}/?season={season.pk}").status_code == 200
