"""CSV exports are safe to open in a spreadsheet (OWASP CSV injection): text that would start a
formula is prefixed with a quote; numbers, negative league points included, stay numbers."""

import csv
import io

import pytest
from django.urls import reverse

from kyoku.csv_cells import csv_cell
from league import services
from kyoku.principals import SYSTEM

HOSTILE = '=HYPERLINK("http://attacker.example/","Click")'


@pytest.mark.parametrize(
    "text", [HOSTILE, "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1", "\r=1", "＝1+1", "＋1", "－1", "＠A1"]
)
def test_formula_text_is_quoted(text):
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("value", [-20, -20.0, "-20.0", "-49.8", "63.0", "43000", 0, None, "Player 1 (選手1)", "a=b"])
def test_numbers_and_plain_text_unchanged(value):
    assert csv_cell(value) == value


@pytest.fixture
def hostile_game(season, players, admin):
    players[0].display_name = HOSTILE
    players[0].native_name = ""
    players[0].save()
    game = services.game_create(
        division=season.divisions.get(code="A"), match_day=1, table=1, players=players[:4], actor=SYSTEM
    )
    services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
    services.standings_recompute(division=game.division)
    return game


def _csv(response):
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.mark.parametrize("route", ["standings", "results", "history"])
def test_every_csv_export_neutralises_a_hostile_name(client, hostile_game, players, route):
    url = {
        "standings": reverse("standings-export", args=[hostile_game.season_id, "A", "csv"]),
        "results": reverse("results-export", args=[hostile_game.season_id, "csv"]),
        "history": reverse("player-export", args=[players[3].pk, "csv"]),
    }[route]
    rows = _csv(client.get(url))
    cells = [value for row in rows for value in row.values()]
    assert not any(value.startswith(("=", "+", "@")) for value in cells)
    if route != "history":
        assert any(value.startswith("'" + HOSTILE) for value in cells)
    negative = [v for row in rows for k, v in row.items() if k in {"points", "total_points"} and v.startswith("-")]
    assert negative, "a negative league point is written as a number"
    assert all(not v.startswith("'") for v in negative)


def test_json_export_keeps_the_name_as_it_is(client, hostile_game):
    data = client.get(reverse("results-export", args=[hostile_game.season_id, "json"])).json()["rows"]
    assert HOSTILE in {row["player"] for row in data}
