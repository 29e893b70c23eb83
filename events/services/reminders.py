"""A round starts in N minutes: its seated players are told (notifications.reminders registers
this scan; Celery beat or ``manage.py notifications_remind`` runs it every minute)."""

from __future__ import annotations

import datetime as dt

from kyoku.principals import Actor
from league.models import Game

from .. import notices
from ..models import Event, Round
from .common import round_games


def rounds_starting_tell(now: dt.datetime, within: dt.timedelta, actor: Actor) -> int:
    """Every round of a running event scheduled to start in (now, now + within], whose clock has not
    started: each player seated at one of its tables still to play is told once (the key names the
    round and its start time: a round moved to another time is a new reminder). A round not yet
    seated tells nobody; the scan a minute later tells whoever is seated by then."""
    rounds = Round.objects.filter(
        scheduled_at__gt=now,
        scheduled_at__lte=now + within,
        started_at__isnull=True,
        ended_at__isnull=True,
        event__status=Event.Status.RUNNING,
    ).select_related("event__league")
    told = 0
    for round_ in rounds:
        games = list(round_games(round_).filter(result__isnull=True).exclude(status=Game.Status.VOID).order_by("table"))
        told += notices.round_starting(round_=round_, games=games, actor=actor)
    return told
