"""Celery tasks (in-process when no broker). Each leaves the same state however often it runs."""

from celery import shared_task

from kyoku.models import League
from kyoku.principals import System

from . import services


@shared_task
def ratings_game_sync(league_id: int, game_id: int, kind: str = "changed") -> dict | None:
    # the league is read (and locked) by the sync itself, which does nothing if it is gone
    return services.game_ratings_sync(
        league=League(pk=league_id), game_id=game_id, kind=kind, actor=System("task:ratings_game_sync")
    )


@shared_task
def ratings_games_sync(league_id: int, season_id: int, game_ids: list[int], kind: str = "changed") -> dict | None:
    return services.games_ratings_sync(
        league=League(pk=league_id),
        game_ids=game_ids,
        season_id=season_id,
        kind=kind,
        actor=System("task:ratings_games_sync"),
    )


@shared_task
def ratings_league_rebuild(
    league_id: int, from_key: str | None = None, reason: str = "recompute", players: list[int] | None = None
) -> dict | None:
    league = League.objects.filter(pk=league_id).first()
    return (
        services.league_ratings_rebuild(
            league=league,
            from_key=from_key,
            reason=reason,
            players=players or (),
            actor=System("task:ratings_league_rebuild"),
        )
        if league
        else None
    )


@shared_task
def derived_reconcile() -> dict:
    """The periodic repair of what a lost task left stale (config/celery.py schedules it)."""
    from .reconcile import derived_reconcile as reconcile

    return reconcile(actor=System("task:derived_reconcile"))
