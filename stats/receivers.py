"""The statistics follow every change of hands and results inside the change's own transaction
(league.signals ``game_facts_changed`` / ``season_facts_changed``, sent by the writes of
league.services and scoring.services), and a game or result removed directly (its rows cascade;
its players' season and league rows are rebuilt from what is left)."""

from __future__ import annotations

import threading
from typing import Any

from django.db.models.signals import post_delete, post_save, pre_delete

from league.models import Game, GameResult
from league.signals import game_facts_changed, players_merged, season_facts_changed

from . import services

_PENDING = "_stats_scopes"
_deleting = threading.local()  # the games being deleted in this thread: their result goes with them


def _games_deleting() -> set[int]:
    if not hasattr(_deleting, "ids"):
        _deleting.ids = set()
    return _deleting.ids


def on_game_facts_changed(sender: Any, game_id: int, **kwargs: Any) -> None:
    services.game_stats_sync(game_id=game_id)


def on_season_facts_changed(sender: Any, season_id: int, **kwargs: Any) -> None:
    services.season_stats_sync(season_id=season_id)


def on_game_deleting(sender: Any, instance: Game, **kwargs: Any) -> None:
    setattr(instance, _PENDING, services.games_before_delete(game_ids=[instance.pk]))
    _games_deleting().add(instance.pk)


def on_game_deleted(sender: Any, instance: Game, **kwargs: Any) -> None:
    _games_deleting().discard(instance.pk)
    scopes = getattr(instance, _PENDING, None)
    if scopes:
        services.players_refresh(scopes)


def on_result_deleted(sender: Any, instance: GameResult, **kwargs: Any) -> None:
    # a result removed directly (Django admin, or with its game); the league's services never do
    if instance.game_id not in _games_deleting() and Game.objects.filter(pk=instance.game_id).exists():
        services.game_stats_sync(game_id=instance.game_id)


def on_game_saved(sender: Any, instance: Game, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    # a game saved whole (Django admin: its status set to void, or back): its figures follow.
    # The league's services save only the fields they change and send game_facts_changed.
    if not created and update_fields is None:
        services.game_stats_sync(game_id=instance.pk)


def on_players_merged(sender: Any, league_ids: set[int], actor: Any, **kwargs: Any) -> None:
    """Two players merged (league.services.merge): the leagues' figures rebuilt in its transaction."""
    from kyoku.models import League

    for league in League.objects.filter(pk__in=league_ids).order_by("pk"):
        services.stats_recompute(actor=actor, league=league)


def connect() -> None:
    game_facts_changed.connect(on_game_facts_changed, dispatch_uid="stats.game_facts_changed")
    players_merged.connect(on_players_merged, dispatch_uid="stats.players_merged")
    season_facts_changed.connect(on_season_facts_changed, dispatch_uid="stats.season_facts_changed")
    pre_delete.connect(on_game_deleting, sender=Game, dispatch_uid="stats.game_deleting")
    post_delete.connect(on_game_deleted, sender=Game, dispatch_uid="stats.game_deleted")
    post_save.connect(on_game_saved, sender=Game, dispatch_uid="stats.game_saved")
    post_delete.connect(on_result_deleted, sender=GameResult, dispatch_uid="stats.result_deleted")
