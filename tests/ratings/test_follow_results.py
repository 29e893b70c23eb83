"""Ratings follow every way a result changes, after the change commits: typed results, games
finished hand by hand, hand corrections and deletions, late results, corrections, deleted
results and games, and a season's results re-derived under revised rules."""

from django.core.management import call_command

from league import services
from kyoku.models import AuditLog
from league.models import Game, GameResult
from ratings.models import PlayerRating, RatingEvent
from ratings.services import league_ratings_rebuild
from scoring import services as scoring
from scoring.models import HandRecord
from tests.ratings.conftest import new_game, snapshot
from tests.riichi_game import HANDS
from kyoku.principals import SYSTEM


def places(game):
    return {e.player.display_name: e.place for e in RatingEvent.objects.filter(game=game).select_related("player")}


def full_recompute_agrees(league):
    before = snapshot(league)
    league_ratings_rebuild(league=league, actor=SYSTEM)
    return snapshot(league) == before


def test_ratings_are_written_after_the_commit_not_before(game, admin, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)
    assert not RatingEvent.objects.exists()  # nothing until the transaction commits
    for callback in callbacks:
        callback()
    assert places(game) == {"Player 1": 1, "Player 2": 2, "Player 3": 3, "Player 4": 4}
    assert AuditLog.objects.filter(action="ratings.game_created").count() == 1


def test_a_late_result_rebuilds_from_its_game_and_a_correction_too(season, season2, players, record, league):
    early = new_game(season, "A", 1, 1, players[:4])
    later = new_game(season2, "A", 1, 1, players[:4])
    record(later, [45000, 30000, 15000, 10000])
    first = RatingEvent.objects.get(game=later, player=players[0])
    assert first.mu_before == 25.0  # rated first: starts fresh
    record(early, [10000, 15000, 30000, 45000])  # entered late: belongs before ``later``
    moved = RatingEvent.objects.get(game=later, player=players[0])
    assert moved.mu_before == RatingEvent.objects.get(game=early, player=players[0]).mu_after != 25.0
    assert AuditLog.objects.filter(action="ratings.game_created").first().data["from"].startswith("20261-")
    assert full_recompute_agrees(league)

    record(early, [45000, 30000, 15000, 10000], replace=True)  # corrected
    assert places(early)["Player 1"] == 1
    assert AuditLog.objects.filter(action="ratings.game_replaced").exists()
    assert full_recompute_agrees(league)
    # the same result again changes nothing and rebuilds nothing
    count = AuditLog.objects.filter(action__startswith="ratings.").count()
    record(early, [45000, 30000, 15000, 10000], replace=True)
    assert AuditLog.objects.filter(action__startswith="ratings.").count() == count


def test_a_game_finished_hand_by_hand_and_its_corrections(game, admin, league, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for record in HANDS:
            scoring.hand_record_add(game=game, record=record, actor=admin)
        scoring.game_hands_finish(game=game, actor=admin)
    # final scores 23,800 / 27,800 / 18,400 / 29,000 (tests/riichi_game.py RUNNING)
    assert places(game) == {"Player 1": 3, "Player 2": 2, "Player 3": 4, "Player 4": 1}
    with django_capture_on_commit_callbacks(execute=True):  # hand 2's ron was really seat 2's win
        hand = HandRecord.objects.get(game=game, sequence=2)
        scoring.hand_record_correct(
            hand=hand,
            record={"result": {"type": "ron", "from": 3, "winners": [{"seat": 2, "han": 4, "fu": 30}]}},
            actor=admin,
        )
    assert places(game)["Player 3"] < 4
    assert full_recompute_agrees(league)
    with django_capture_on_commit_callbacks(execute=True):  # the last hand deleted: the game ends at hand 4
        scoring.hand_record_delete(hand=HandRecord.objects.get(game=game, sequence=5), actor=admin)
    assert places(game) == dict(
        zip(["Player 1", "Player 2", "Player 3", "Player 4"], GameResult.objects.get(game=game).places)
    )
    assert full_recompute_agrees(league)


def test_revised_tie_rule_moves_places_and_the_ratings_follow(
    season, game, admin, record, league, django_capture_on_commit_callbacks
):
    record(game, [35000, 35000, 20000, 10000])
    assert places(game)["Player 1"] == places(game)["Player 2"] == 1  # M-League: a tie shares the place
    with django_capture_on_commit_callbacks(execute=True):
        scoring.season_rules_revise(season=season, overrides={"ties": "seat_order"}, actor=admin)
    assert (places(game)["Player 1"], places(game)["Player 2"]) == (1, 2)
    assert full_recompute_agrees(league)


def test_a_revision_rebuilds_once_from_the_earliest_game_whose_places_moved(
    season, players, record, league, admin, django_capture_on_commit_callbacks
):
    games = [new_game(season, "A", day, 1, players[:4]) for day in (1, 2, 3)]
    record(games[0], [40000, 30000, 20000, 10000])
    record(games[1], [35000, 35000, 20000, 10000])  # the tie: its places move under seat order
    record(games[2], [10000, 20000, 30000, 40000])
    rebuilds = AuditLog.objects.filter(action__startswith="ratings.")
    seen = rebuilds.count()
    with django_capture_on_commit_callbacks(execute=True):
        # every result's points change (uma), only game 2's places do
        scoring.season_rules_revise(
            season=season, overrides={"ties": "seat_order", "uma": [20, 10, -10, -20]}, actor=admin
        )
    new = list(rebuilds.order_by("pk")[seen:])
    assert [row.action for row in new] == ["ratings.games_replaced"]
    assert new[0].data["from"] == RatingEvent.objects.filter(game=games[1]).values_list("order_key", flat=True)[0]
    assert new[0].data["games"] == 2  # game 2 and the later game 3; game 1 is kept as rated
    assert full_recompute_agrees(league)


def test_a_revision_that_moves_no_place_rebuilds_nothing(
    season, game, admin, record, league, django_capture_on_commit_callbacks
):
    record(game, [40000, 30000, 20000, 10000])
    seen = AuditLog.objects.filter(action__startswith="ratings.").count()
    with django_capture_on_commit_callbacks(execute=True):
        scoring.season_rules_revise(season=season, overrides={"uma": [20, 10, -10, -20]}, actor=admin)
    assert AuditLog.objects.filter(action__startswith="ratings.").count() == seen
    assert full_recompute_agrees(league)


def test_deleting_a_result_or_a_game_takes_it_out_of_the_ratings(
    season, players, record, league, django_capture_on_commit_callbacks
):
    one = new_game(season, "A", 1, 1, players[:4])
    two = new_game(season, "A", 2, 1, players[:4])
    record(one, [45000, 30000, 15000, 10000])
    record(two, [45000, 30000, 15000, 10000])
    with django_capture_on_commit_callbacks(execute=True):
        GameResult.objects.filter(game=one).delete()  # e.g. in the Django admin
    # game one still says finished but has no result: not rated; game two starts fresh
    assert not RatingEvent.objects.filter(game=one).exists()
    assert RatingEvent.objects.get(game=two, player=players[0]).mu_before == 25.0
    assert PlayerRating.objects.get(player=players[0]).games == 1
    with django_capture_on_commit_callbacks(execute=True):
        Game.objects.filter(pk=two.pk).delete()
    assert not PlayerRating.objects.filter(league=league).exists()
    assert not RatingEvent.objects.exists()


def test_command_recomputes_every_league_and_gives_the_same_numbers(game, record, league, capsys):
    record(game, [45000, 30000, 15000, 10000])
    kept = snapshot(league)
    RatingEvent.objects.all().delete()
    PlayerRating.objects.all().delete()
    call_command("ratings_recompute")
    assert "test: 1 games, 4 players rated" in capsys.readouterr().out
    assert snapshot(league) == kept


def test_demo_seed_rates_every_league(game, admin, league):
    from io import StringIO

    from ratings.demo import demo_seed

    services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)  # no hooks run
    out = StringIO()
    assert demo_seed(stdout=out)["test"] == {"from": None, "games": 1, "players": 4}
    assert "ratings: test: 1 games, 4 players" in out.getvalue()
    assert PlayerRating.objects.filter(league=league).count() == 4


def test_command_refuses_an_unknown_league(db):
    import pytest
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no league with slug 'nope'"):
        call_command("ratings_recompute", "--league", "nope")
