"""What the tournament services share: coded errors, the actor check, the board's version, the
event's division and a round's games."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.db.models.query import QuerySet

import live
from kyoku import authz
from kyoku.errors import Conflict
from kyoku.principals import Actor, actor_require
from league.models import Division, Game

from ..models import Event, Round

EVENT_DIVISION = ("E", "Tournament", "賽事")


def fail(field: str, message: str, code: str, **params) -> ValidationError:
    return ValidationError({field: [ValidationError(message, code=code, params=params or None)]})


def conflict(field: str, message: str, code: str, **params) -> Conflict:
    """As ``fail``, answered 409: what was asked contradicts what is already recorded."""
    return Conflict({field: [ValidationError(message, code=code, params=params or None)]})


def authorize(actor: Actor, obj, need: authz.Need) -> None:
    """Every service checks its actor in the object's league: a user by their roles, a table phone
    only on its own table, the system always (kyoku.authz); None and anonymous are refused."""
    actor_require(actor)
    authz.authorize(actor, obj, need)


def event_board_bump(event_id: int) -> None:
    """Everything a board shows changed: boards revalidating on the version see it at once."""
    Event.objects.filter(pk=event_id).update(board_version=F("board_version") + 1)
    from ..selectors import board_version_forget

    # forgotten now and again at the commit: a poll in between caches the old version, not the new
    board_version_forget(event_id)
    transaction.on_commit(lambda: board_version_forget(event_id))
    # the board's screens are told once the change is committed, with the committed version (live)
    live.publish_on_commit(live.board_topic(event_id), lambda: board_version_read(event_id), "board")


def board_version_read(event_id: int) -> int | None:
    return Event.objects.filter(pk=event_id).values_list("board_version", flat=True).first()


def event_division(event: Event) -> Division:
    return event.season.divisions.get(code=EVENT_DIVISION[0])


def round_games(round_: Round) -> QuerySet[Game]:
    return Game.objects.filter(season=round_.event.season, match_day=round_.number)


def round_played(round_: Round) -> bool:
    return round_.started_at is not None or round_games(round_).filter(result__isnull=False).exists()
