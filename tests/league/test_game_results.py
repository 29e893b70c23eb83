"""Recording a game's final scores: league points from the season's rule set."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from league import services
from kyoku.models import AuditLog
from league.models import GameResult, Standing
from kyoku.principals import SYSTEM


def test_mleague_points_from_settlement_contract(game, admin):
    result, created = services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
    assert created
    assert result.points == [63.0, 10.8, -24.0, -49.8]
    assert result.places == [1, 2, 3, 4]
    seats = list(game.seats.order_by("seat"))
    assert [s.points for s in seats] == [Decimal("63.0"), Decimal("10.8"), Decimal("-24.0"), Decimal("-49.8")]
    game.refresh_from_db()
    assert game.status == "finished"


def test_ema_ties_split(league, ema_rules, players, admin):
    season = services.season_create(league=league, year=2026, number=2, rule_set=ema_rules, actor=SYSTEM)
    division = season.divisions.get(code="A")
    for p in players[:4]:
        services.entry_create(division=division, player=p, actor=SYSTEM)
    game = services.game_create(division=division, match_day=1, table=1, players=players[:4], actor=SYSTEM)
    result, _ = services.game_result_record(game=game, scores=[28000, 28000, 37000, 27000], actor=admin)
    assert result.points == [-2, -2, 22, -18]


def test_scores_must_add_up_to_table_total_and_nothing_is_stored(game, admin):
    with pytest.raises(ValidationError) as err:
        services.game_result_record(game=game, scores=[43000, 30800, 16000, 10000], actor=admin)
    assert "scores" in err.value.message_dict
    assert "100000" in " ".join(err.value.message_dict["scores"]) or "99800" in " ".join(
        err.value.message_dict["scores"]
    )
    assert not GameResult.objects.exists()
    assert not AuditLog.objects.filter(action__startswith="game_result").exists()
    game.refresh_from_db()
    assert game.status == "scheduled"


def test_leftover_deposit_changes_the_table_total(game, admin):
    # One riichi stick left on the table: scores add up to 99,000 and the stick goes to first place.
    result, _ = services.game_result_record(
        game=game, scores=[42000, 30800, 16000, 10200], deposits_left=1, actor=admin
    )
    assert result.points[0] == 63.0


def test_bad_score_value_names_the_seat(game, admin):
    with pytest.raises(ValidationError) as err:
        services.game_result_record(game=game, scores=[43000, "lots", 16000, 10200], actor=admin)
    assert "scores[1]" in err.value.message_dict


def test_same_result_twice_creates_nothing_new(game, admin):
    services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
    _, created = services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
    assert not created
    assert AuditLog.objects.filter(action="game_result.create").count() == 1


def test_a_different_result_needs_explicit_replace(game, admin):
    services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
    with pytest.raises(services.ResultConflict):
        services.game_result_record(game=game, scores=[30800, 43000, 16000, 10200], actor=admin)
    result, _ = services.game_result_record(game=game, scores=[30800, 43000, 16000, 10200], actor=admin, replace=True)
    assert result.points == [10.8, 63.0, -24.0, -49.8]
    replaced = AuditLog.objects.get(action="game_result.replace")
    assert replaced.data["previous"]["scores"] == [43000, 30800, 16000, 10200]


def test_result_updates_stored_standings_after_commit(game, admin, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
    top = Standing.objects.filter(division=game.division).order_by("rank").first()
    assert top.player == game.seats.get(seat=0).player
    assert top.total_points == Decimal("63.0")


def test_closed_season_refuses_results(game, admin):
    services.season_status_set(season=game.season, status="closed", actor=SYSTEM)
    with pytest.raises(ValidationError) as err:
        services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
    assert "game" in err.value.message_dict


def test_game_needs_four_distinct_entered_players(division_a, players):
    with pytest.raises(ValidationError) as err:
        services.game_create(division=division_a, match_day=1, table=2, players=players[:3], actor=SYSTEM)
    assert "players" in err.value.message_dict
    with pytest.raises(ValidationError) as err:
        services.game_create(division=division_a, match_day=1, table=2, players=[players[0]] * 4, actor=SYSTEM)
    assert "players" in err.value.message_dict
    with pytest.raises(ValidationError) as err:  # players[4] is entered in B, not A
        services.game_create(division=division_a, match_day=1, table=2, players=players[1:5], actor=SYSTEM)
    assert "not entered" in err.value.message_dict["players"][0]
