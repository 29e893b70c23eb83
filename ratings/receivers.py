"""Keep ratings following the results: each change of a result queues a sync after commit."""

from django.db import transaction
from django.db.models.signals import post_delete, pre_delete

from league.models import Game, GameResult, Season
from league.signals import game_result_changed, games_results_changed


def on_game_result_changed(sender, game_id, kind, **kwargs):
    from .tasks import ratings_game_sync

    league_id = Game.objects.filter(pk=game_id).values_list("season__league_id", flat=True).first()
    if league_id is not None:
        ratings_game_sync.delay(league_id, game_id, kind)


def on_games_results_changed(sender, season_id, game_ids, kind, **kwargs):
    from .tasks import ratings_games_sync

    league_id = Season.objects.filter(pk=season_id).values_list("league_id", flat=True).first()
    if league_id is not None:
        ratings_games_sync.delay(league_id, season_id, game_ids, kind)


def on_result_deleted(sender, instance, **kwargs):
    # a result removed directly (Django admin); the league's services never delete one
    from .tasks import ratings_game_sync

    league_id = Game.objects.filter(pk=instance.game_id).values_list("season__league_id", flat=True).first()
    if league_id is not None:
        transaction.on_commit(lambda: ratings_game_sync.delay(league_id, instance.game_id, "deleted"))


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
        transaction.on_commit(lambda: ratings_league_rebuild.delay(league_id, key, "game_deleted", players))


def connect():
    game_result_changed.connect(on_game_result_changed, dispatch_uid="ratings.game_result_changed")
    games_results_changed.connect(on_games_results_changed, dispatch_uid="ratings.games_results_changed")
    post_delete.connect(on_result_deleted, sender=GameResult, dispatch_uid="ratings.result_deleted")
    pre_delete.connect(on_game_deleting, sender=Game, dispatch_uid="ratings.game_deleting")
