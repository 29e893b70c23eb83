"""Celery tasks. Each is idempotent: running it twice gives the same stored state."""

from celery import shared_task
from django.db import OperationalError

from kyoku.principals import System

from . import services
from .models import Division, Season


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def standings_recompute(division_id: int) -> int:
    division = Division.objects.filter(pk=division_id).first()
    return services.standings_recompute(division=division) if division else 0


@shared_task
def standings_recompute_all() -> int:
    return sum(services.standings_recompute(division=d) for d in Division.objects.all())


@shared_task
def season_promote(season_id: int, next_season_id: int) -> dict:
    season = Season.objects.get(pk=season_id)
    for division in season.divisions.all():
        services.standings_recompute(division=division)
    return services.season_promote(
        season=season, next_season=Season.objects.get(pk=next_season_id), actor=System("task:season_promote")
    )


@shared_task(ignore_result=False)
def ping() -> str:
    """Round trip through the broker (used by the Redis test and health checks)."""
    return "pong"
