"""Re-settling a whole season in bulk: settlements, running scores, results and standings."""

import pytest
from django.core.exceptions import ValidationError

from league.models import GameResult, Standing
from scoring import services
from scoring.models import HandRecord

from .test_hands_riichi import HANDS, RUNNING


def test_season_resettle_rebuilds_settlements_results_and_standings(game, admin, django_capture_on_commit_callbacks):
    for record in HANDS:
        services.hand_record_add(game=game, record=record, actor=admin)
    services.game_hands_finish(game=game, actor=admin)
    # wipe the derived data (as after an engine change) and the stored result's points
    HandRecord.objects.update(settlement={}, scores_after=[])
    GameResult.objects.update(scores=[25000] * 4, deposits_left=0, points=[0, 0, 0, 0])
    game.seats.update(points=0, place=None)
    timings = {}
    summary = services.season_hands_resettle(season=game.season, actor=admin, timings=timings)
    assert summary == {"hands": 5, "games_finished_from_hands": 1, "results_changed": 1}
    assert set(timings) == {"read", "engine", "write", "results", "standings"}
    assert [h.scores_after for h in HandRecord.objects.order_by("sequence")] == RUNNING
    result = GameResult.objects.get(game=game)
    assert result.scores == [23800, 27800, 18400, 29000] and result.points == [-16.2, 7.8, -41.6, 50.0]
    assert [float(s.points) for s in game.seats.order_by("seat")] == [-16.2, 7.8, -41.6, 50.0]
    assert Standing.objects.get(player=game.seats.get(seat=3).player).rank == 1
    # a second run finds nothing to change in the results
    assert services.season_hands_resettle(season=game.season)["results_changed"] == 0


def test_season_resettle_leaves_games_not_finished_from_hands(game, admin):
    from league.services import game_result_record

    game_result_record(game=game, scores=[40000, 30000, 20000, 10000], actor=admin)
    services.hand_record_add(game=game, record=HANDS[0], actor=admin)  # hands entered, never finished
    services.season_hands_resettle(season=game.season)
    assert GameResult.objects.get(game=game).scores == [40000, 30000, 20000, 10000]


def test_closed_season_is_refused(game, admin):
    from league.services import season_status_set

    season_status_set(season=game.season, status="closed")
    with pytest.raises(ValidationError):
        services.season_hands_resettle(season=game.season)
