"""Re-settling a whole season in bulk, and revising a season's rules (which re-settles it).

The game is the M-League game of test_hands_riichi (worked there). Under revised rules with
honba worth 1,500 and uma 20/10 (see test_rules_revision_...), by hand:

hand 2  3 han 30 fu ron 3,900 + honba 1,500 + 1 stick: deltas [0, 0, −5400, +6400]
hand 4  1 han 30 fu tsumo 300/500 + 500 honba each: deltas [−800, −1000, +2600, −800]
running [26500, 25500, 23500, 23500] → [26500, 25500, 18100, 29900] → [25200, 29400, 16800, 28600]
        → [24400, 28400, 19400, 27800] → [23400, 27400, 18400, 29800], 1 stick left → seat 3 30,800
points  seat 3 0.8 + 20 + 20 = 40.8; seat 1 −2.6 + 10 = 7.4; seat 0 −6.6 − 10 = −16.6; seat 2 −11.6 − 20 = −31.6
typed   [40000, 30000, 20000, 10000]: 10 + 20 + 20 = 50; 0 + 10 = 10; −10 − 10 = −20; −20 − 20 = −40
"""

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from kyoku.models import AuditLog
from league.models import GameResult, Standing
from league.services import game_result_record, season_status_set
from scoring import services
from scoring.models import HandRecord

from .conftest import make_game
from .test_hands_riichi import HANDS, RUNNING
from kyoku.principals import SYSTEM

REVISED = {"honba_points": 1500, "uma": [20, 10, -10, -20]}
REVISED_RUNNING = [
    [26500, 25500, 23500, 23500],
    [26500, 25500, 18100, 29900],
    [25200, 29400, 16800, 28600],
    [24400, 28400, 19400, 27800],
    [23400, 27400, 18400, 29800],
]


def running():
    return [h.scores_after for h in HandRecord.objects.order_by("sequence")]


def test_season_resettle_rebuilds_settlements_results_and_standings(finished, admin):
    # wipe the derived data (as after an engine change) and the stored result's points
    HandRecord.objects.update(settlement={}, scores_after=[])
    GameResult.objects.update(scores=[25000] * 4, deposits_left=0, points=[0, 0, 0, 0])
    finished.seats.update(points=0, place=None)
    timings = {}
    summary = services.season_hands_resettle(season=finished.season, actor=admin, timings=timings)
    assert summary == {
        "hands": 5,
        "hands_changed": 5,
        "hands_resettled": True,
        "games_finished_from_hands": 1,
        "results_changed": 1,
    }
    assert set(timings) == {"read_engine_write", "results", "standings", "statistics"}
    assert running() == RUNNING
    result = GameResult.objects.get(game=finished)
    assert result.scores == [23800, 27800, 18400, 29000] and result.points == [-16.2, 7.8, -41.6, 50.0]
    assert [float(s.points) for s in finished.seats.order_by("seat")] == [-16.2, 7.8, -41.6, 50.0]
    assert Standing.objects.get(player=finished.seats.get(seat=3).player).rank == 1
    assert AuditLog.objects.filter(action="season.hands_resettle").count() == 1
    # a second run recomputes everything and finds nothing to write
    again = services.season_hands_resettle(season=finished.season, actor=SYSTEM)
    assert (again["hands_changed"], again["results_changed"]) == (0, 0)


def test_hands_entered_one_by_one_are_already_up_to_date(finished):
    assert services.season_hands_resettle(season=finished.season, actor=SYSTEM)["hands_changed"] == 0


def test_an_update_that_bypasses_the_services_clears_the_digest(finished):
    """The database guard: a stored digest never vouches for content it was not computed for."""
    assert not HandRecord.objects.filter(derived_digest__isnull=True).exists()
    HandRecord.objects.filter(sequence=2).update(scores_after=[0, 0, 0, 0])
    assert list(HandRecord.objects.filter(derived_digest__isnull=True).values_list("sequence", flat=True)) == [2]
    assert services.season_hands_resettle(season=finished.season, actor=SYSTEM)["hands_changed"] == 1
    assert running() == RUNNING


def test_a_stale_state_in_a_stored_record_is_rewritten(finished):
    hand = HandRecord.objects.get(sequence=3)
    hand.record = {**hand.record, "honba": 7}  # as if typed in by hand in the database
    hand.save(update_fields=["record"])
    assert services.season_hands_resettle(season=finished.season, actor=SYSTEM)["hands_changed"] == 1
    assert HandRecord.objects.get(sequence=3).record["honba"] == 0
    assert running() == RUNNING


def test_a_rewritten_record_keeps_every_character(finished):
    """On PostgreSQL the rewrite goes through COPY text, where a backslash is an escape: quotes,
    backslashes, control characters and CJK text must come back exactly as they went in."""
    note = 'tile "5m" \\ back\\slash\n\ttab, 東家 立直 \u00e9'
    hand = HandRecord.objects.get(sequence=3)
    hand.record = {**hand.record, "honba": 7, "note": note}
    hand.save(update_fields=["record"])
    assert services.season_hands_resettle(season=finished.season, actor=SYSTEM)["hands_changed"] == 1
    stored = HandRecord.objects.get(sequence=3).record
    assert (stored["note"], stored["honba"]) == (note, 0)
    assert running() == RUNNING


def test_season_resettle_leaves_games_not_finished_from_hands(game, admin):
    game_result_record(game=game, scores=[40000, 30000, 20000, 10000], actor=admin)
    services.hand_record_add(game=game, record=HANDS[0], actor=admin)  # hands entered, never finished
    services.season_hands_resettle(season=game.season, actor=SYSTEM)
    assert GameResult.objects.get(game=game).scores == [40000, 30000, 20000, 10000]


def test_an_invalid_stored_hand_names_it_and_changes_nothing(finished):
    bad = HandRecord.objects.get(sequence=4)
    HandRecord.objects.filter(pk=bad.pk).update(
        record={**bad.record, "result": {"type": "tsumo", "winner": {"seat": 2, "han": 1, "fu": 35}}}
    )
    before = list(HandRecord.objects.order_by("sequence").values_list("settlement", "scores_after"))
    with pytest.raises(ValidationError) as caught:
        services.season_hands_resettle(season=finished.season, actor=SYSTEM)
    assert list(caught.value.message_dict) == [f"hands[{bad.pk}].result.winner.fu"]
    assert list(HandRecord.objects.order_by("sequence").values_list("settlement", "scores_after")) == before


def test_closed_season_is_refused(game):
    season_status_set(season=game.season, status="closed", actor=SYSTEM)
    with pytest.raises(ValidationError):
        services.season_hands_resettle(season=game.season, actor=SYSTEM)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_worker_processes_give_what_one_process_gives(season, players, admin, workers):
    games = [make_game(season, players, table=t) for t in range(1, 6)]
    for g in games:
        for record in HANDS:
            services.hand_record_add(game=g, record=record, actor=admin)
        services.game_hands_finish(game=g, actor=admin)
    HandRecord.objects.update(settlement={}, scores_after=[])
    summary = services.season_hands_resettle(season=season, workers=workers, batch_hands=6, actor=SYSTEM)
    assert summary == {
        "hands": 25,
        "hands_changed": 25,
        "hands_resettled": True,
        "games_finished_from_hands": 5,
        "results_changed": 0,
    }
    for g in games:
        assert [h.scores_after for h in g.hands.order_by("sequence")] == RUNNING


def test_rules_revision_resettles_hands_and_re_derives_every_result(finished, season, players, admin):
    typed = make_game(season, players, table=2)
    game_result_record(game=typed, scores=[40000, 30000, 20000, 10000], actor=admin)
    before = season.rule_set
    summary = services.season_rules_revise(season=season, overrides=REVISED, actor=admin, notes="AGM")
    season.refresh_from_db()
    assert (season.rule_set.slug, season.rule_set.version) == (before.slug, before.version + 1)
    assert season.rule_set.options["honba_points"] == 1500
    assert summary == {
        "rule_set": {"slug": before.slug, "version": 2},
        "hands": 5,
        "hands_changed": 4,
        "hands_resettled": True,
        "games_finished_from_hands": 1,
        "results_changed": 2,
    }
    assert running() == REVISED_RUNNING
    assert HandRecord.objects.get(sequence=2).settlement["deltas"] == [0, 0, -5400, 6400]
    result = GameResult.objects.get(game=finished)
    assert (result.scores, result.points, result.rule_set_id) == (
        [23400, 27400, 18400, 29800],
        [-16.6, 7.4, -31.6, 40.8],
        season.rule_set_id,
    )
    assert GameResult.objects.get(game=typed).points == [50.0, 10.0, -20.0, -40.0]
    assert [float(s.points) for s in typed.seats.order_by("seat")] == [50.0, 10.0, -20.0, -40.0]
    top = Standing.objects.get(player=finished.seats.get(seat=0).player)
    assert float(top.total_points) == 50.0 - 16.6
    assert AuditLog.objects.filter(action="season.rules_revise").get().data["to_version"] == 2
    # the earlier version is kept, unchanged
    before.refresh_from_db()
    assert before.options["honba_points"] == 300


def test_a_revision_of_game_end_options_alone_rescores_results_and_leaves_hands(finished, season, players, admin):
    """Uma 20/10 instead of M-League's 30/10, nothing else: no hand reads the uma, so no hand is
    written; the results (from the stored final scores) and standings follow. Finished game
    [23800, 27800, 18400, 29000] + 1 stick to seat 3, return 30,000, oka 20: seat 3 0 + 20 + 20 =
    40.0; seat 1 −2.2 + 10 = 7.8; seat 0 −6.2 − 10 = −16.2; seat 2 −11.6 − 20 = −31.6."""
    typed = make_game(season, players, table=2)
    game_result_record(game=typed, scores=[40000, 30000, 20000, 10000], actor=admin)
    digests = list(HandRecord.objects.order_by("sequence").values_list("derived_digest", flat=True))
    with CaptureQueriesContext(connection) as queries:
        summary = services.season_rules_revise(season=season, overrides={"uma": [20, 10, -10, -20]}, actor=admin)
    assert summary == {
        "rule_set": {"slug": season.rule_set.slug, "version": 2},
        "hands": 5,
        "hands_changed": 0,
        "hands_resettled": False,
        "games_finished_from_hands": 1,
        "results_changed": 2,
    }
    assert not [q for q in queries if "scoring_handrecord" in q["sql"] and not q["sql"].startswith("SELECT")]
    assert list(HandRecord.objects.order_by("sequence").values_list("derived_digest", flat=True)) == digests
    assert running() == RUNNING
    season.refresh_from_db()
    result = GameResult.objects.get(game=finished)
    assert (result.points, result.rule_set_id) == ([-16.2, 7.8, -31.6, 40.0], season.rule_set_id)
    assert [float(s.points) for s in finished.seats.order_by("seat")] == [-16.2, 7.8, -31.6, 40.0]
    assert GameResult.objects.get(game=typed).points == [50.0, 10.0, -20.0, -40.0]
    assert float(Standing.objects.get(player=finished.seats.get(seat=3).player).total_points) == 40.0 - 40.0
    assert AuditLog.objects.filter(action="season.results_rescore").count() == 1
    # and a full re-settle afterwards agrees: nothing to write, nothing to change
    again = services.season_hands_resettle(season=season, actor=SYSTEM)
    assert (again["hands_changed"], again["results_changed"]) == (0, 0)


def test_rules_revision_with_an_unknown_option_changes_nothing(finished, season):
    with pytest.raises(ValidationError) as caught:
        services.season_rules_revise(season=season, overrides={"honba_pionts": 1500}, actor=SYSTEM)
    assert "overrides.honba_pionts" in caught.value.message_dict
    season.refresh_from_db()
    assert season.rule_set.version == 1 and running() == RUNNING


def test_command_resettles_and_revises(finished, season, capsys):
    call_command("resettle_season", str(season.pk))
    assert '"hands": 5' in capsys.readouterr().out
    call_command("resettle_season", str(season.pk), "--overrides", '{"honba_points": 1500, "uma": [20, 10, -10, -20]}')
    assert running() == REVISED_RUNNING
    with pytest.raises(CommandError, match="overrides: not JSON"):
        call_command("resettle_season", str(season.pk), "--overrides", "{")
    with pytest.raises(CommandError, match="season: no season"):
        call_command("resettle_season", "999999")


def test_the_workers_setting_caps_the_processes(season, players, admin, settings, monkeypatch):
    import scoring.parallel as parallel

    started = []
    monkeypatch.setattr(parallel, "ProcessPoolExecutor", lambda **kwargs: started.append(kwargs) or 1 / 0)
    for table in range(1, 4):
        g = make_game(season, players, table=table)
        for record in HANDS:
            services.hand_record_add(game=g, record=record, actor=admin)
    settings.RESETTLE_WORKERS = 1
    assert services.season_hands_resettle(season=season, batch_hands=5, actor=SYSTEM)["hands"] == 15
    assert started == []  # one worker: no pool even for three batches


def test_command_overrides_are_merged_and_unchanged_points_are_not_counted(finished, season, capsys):
    import json

    call_command("resettle_season", str(season.pk), "--overrides", '{"honba_points": 1500}')
    first = json.loads(capsys.readouterr().out)
    assert first["overrides"] == {"honba_points": 1500}
    # a second change keeps the first (it used to be dropped silently)
    call_command("resettle_season", str(season.pk), "--overrides", '{"reaction_time_ms": 1500}')
    second = json.loads(capsys.readouterr().out)
    assert second["overrides"] == {"honba_points": 1500, "reaction_time_ms": 1500}
    season.refresh_from_db()
    assert season.rule_set.overrides == {"honba_points": 1500, "reaction_time_ms": 1500}
    # an option no settlement or result reads: a new version, but no point changed, so none counted
    assert second["results_changed"] == 0
    # null goes back to the preset's value
    call_command("resettle_season", str(season.pk), "--overrides", '{"honba_points": null}')
    season.refresh_from_db()
    assert season.rule_set.overrides == {"reaction_time_ms": 1500} and running() == RUNNING
