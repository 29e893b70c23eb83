"""Keep ratings following the results: each change of a result queues a sync after commit.

The queueing never fails the request that changed the result (it has committed): with the
broker down the sync runs in-process (constant time for the latest game), and if that fails
too the periodic reconciliation (ratings.reconcile) repairs the ratings later."""

import logging

from celery import Task
from django.db import transaction
from django.db.models.signals import post_delete, pre_delete

from league.models import Game, GameResult, Season
from league.signals import game_result_changed, games_results_changed, players_merged


logger = logging.getLogger(__name__)


def task_enqueue(task: Task, *args) -> None:
    """Queue ``task``; when the broker cannot take it, run it here; when that fails too, log and
    leave the repair to the reconciliation. Eager (no broker): simply run it, errors propagate."""
    if task.app.conf.task_always_eager:
        task(*args)  # run here: what ``delay`` does eagerly, less its result object (about 0.5 ms)
        return
    try:
        task.apply_async(args, retry=False)
        return
    except Exception as exc:  # the broker is down or unreachable (kombu / redis errors)
        logger.warning("broker unavailable, %s runs in-process: %s", task.name, exc)
    try:
        task.apply(args, throw=True)
    except Exception:
        logger.exception("%s failed in-process; the reconciliation will repair its rows", task.name)


def on_game_result_changed(sender, game_id, kind, league_id=None, **kwargs):
    from .tasks import ratings_game_sync

    if league_id is None:
        league_id = Game.objects.filter(pk=game_id).values_list("season__league_id", flat=True).first()
    if league_id is not None:
        task_enqueue(ratings_game_sync, league_id, game_id, kind)


def on_games_results_changed(sender, season_id, game_ids, kind, **kwargs):
    from .tasks import ratings_games_sync

    league_id = Season.objects.filter(pk=season_id).values_list("league_id", flat=True).first()
    if league_id is not None:
        task_enqueue(ratings_games_sync, league_id, season_id, game_ids, kind)


def on_result_deleted(sender, instance, **kwargs):
    # a result removed directly (Django admin); the league's services never delete one
    from .tasks import ratings_game_sync

    league_id = Game.objects.filter(pk=instance.game_id).values_list("season__league_id", flat=True).first()
    if league_id is not None:
        transaction.on_commit(lambda: task_enqueue(ratings_game_sync, league_id, instance.game_id, "deleted"))


def on_game_deleting(sender, instance, **kwargs):
    # the game's rating events go with it (cascade): rebuild from where it stood
    from .models import RatingEvent
    from .tasks import ratings_league_rebuild

    rows = list(RatingEvent.objects.filter(game=instance).values_list("order_key", "player_id"))
    if rows:
        # its players' states are restored from their games before it, not from the events after
        # it (those were rated with it)
        key, players = rows[0][0], sorted(p for _, p in rows)
        league_id = instance.season.league_id
        transaction.on_commit(lambda: task_enqueue(ratings_league_rebuild, league_id, key, "game_deleted", players))


def on_players_merged(sender, league_ids, actor, **kwargs):
    """Two players merged (league.services.merge): the leagues' ratings rebuilt in its transaction
    (one rebuild per league; rare, and the merge must commit with ratings equal to a recompute)."""
    from kyoku.models import League

    from .services import league_ratings_rebuild

    for league in League.objects.filter(pk__in=league_ids).order_by("pk"):
        league_ratings_rebuild(league=league, actor=actor, reason="merge")


def connect():
    game_result_changed.connect(on_game_result_changed, dispatch_uid="ratings.game_result_changed")
    players_merged.connect(on_players_merged, dispatch_uid="ratings.players_merged")
    games_results_changed.connect(on_games_results_changed, dispatch_uid="ratings.games_results_changed")
    post_delete.connect(on_result_deleted, sender=GameResult, dispatch_uid="ratings.result_deleted")
    pre_delete.connect(on_game_deleting, sender=Game, dispatch_uid="ratings.game_deleting")
