"""A league match day starts in N minutes: the players seated at its games are told
(notifications.reminders registers this scan; Celery beat or ``manage.py notifications_remind``
runs it every minute). A tournament's rounds have their own scan (events.services.reminders)."""

from __future__ import annotations

import datetime as dt

from django.db.models import Prefetch

from kyoku.principals import Actor

from .. import notices
from ..models import Game, GameSeat, Season


def match_days_starting_tell(now: dt.datetime, within: dt.timedelta, actor: Actor) -> int:
    """Every game of a league season with a start time in (now, now + within] that is still to
    play (scheduled, no result): each seated player is told once per match day and start time
    (the time is the game's, set from the match day's date and start time when its seating is
    published: matchdays.services.seating_publish). A game without a time tells nobody."""
    games = (
        Game.objects.filter(
            season__kind=Season.Kind.LEAGUE,
            status=Game.Status.SCHEDULED,
            result__isnull=True,
            scheduled_at__gt=now,
            scheduled_at__lte=now + within,
        )
        .select_related("season__league", "division")
        # each game's seats with their players in the same read, not a query per game
        .prefetch_related(Prefetch("seats", queryset=GameSeat.objects.select_related("player__user").order_by("seat")))
        .order_by("division_id", "match_day", "table")
    )
    return sum(notices.match_day_starting(game=game, actor=actor) for game in games)
