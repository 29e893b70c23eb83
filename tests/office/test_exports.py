"""Data out: standings, a season's results and a player's history as CSV and JSON."""

import csv
import io

import pytest
from django.urls import reverse

from league import services
from kyoku.principals import SYSTEM


@pytest.fixture
def played(season, players, admin):
    game = services.game_create(
        division=season.divisions.get(code="A"), match_day=1, table=1, players=players[:4], actor=SYSTEM
    )
    services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
    services.standings_recompute(division=game.division)
    return game


def _csv(response):
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_standings_csv(client, played):
    rows = _csv(client.get(reverse("standings-export", args=[played.season_id, "A", "csv"])))
    # one name per person (league.names): the English file writes the Latin name alone
    assert [(r["rank"], r["player"], r["total_points"]) for r in rows][0] == ("1", "Player 1", "63.0")
    assert rows[-1]["player"] == "Player 4" and rows[-1]["total_points"] == "-49.8"


def test_results_json_and_csv(client, played):
    data = client.get(reverse("results-export", args=[played.season_id, "json"])).json()["rows"]
    assert [r["raw_score"] for r in data] == [43000, 30800, 16000, 10200]
    assert [r["seat"] for r in data] == ["E", "S", "W", "N"]
    rows = _csv(client.get(reverse("results-export", args=[played.season_id, "csv"])))
    assert [r["place"] for r in rows] == ["1", "2", "3", "4"]


def test_player_history_csv(client, played, players):
    rows = _csv(client.get(reverse("player-export", args=[players[3].pk, "csv"])))
    assert rows == [
        {
            "season": "2026 S1",
            "division": "A",
            "game": str(played.pk),
            "match_day": "1",
            "table": "1",
            "seat": "N",
            "raw_score": "10200",
            "points": "-49.8",
            "place": "4",
        }
    ]


def test_unknown_format_is_404(client, played):
    assert client.get(reverse("results-export", args=[played.season_id, "xml"])).status_code == 404


def test_season_page_links_downloads_and_office(client, played, admin):
    url = reverse("season", args=[played.season_id])
    body = client.get(url).content.decode()
    assert reverse("results-export", args=[played.season_id, "csv"]) in body
    assert reverse("office-season", args=[played.season_id]) not in body
    client.force_login(admin)
    assert reverse("office-season", args=[played.season_id]) in client.get(url).content.decode()
