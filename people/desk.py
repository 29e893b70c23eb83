"""The event desk's lookup by membership number (closes an enumeration hole: a director of one
league could map every number to a name through the desk's register form).

A director adds by number only a member of the event's league or a player registered for this
event; any other number, held by someone or by nobody, gets one answer that names no one, and
those answers are throttled per user (``desk_number_user``)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from kyoku.throttle import throttle_check, throttle_hit
from league.models import Player

from .selectors import desk_player_by_number


def desk_player_find(*, event: Any, number: str, actor: Any) -> Player:
    key = f"user:{getattr(actor, 'pk', '')}"
    throttle_check("desk_number_user", key)
    player = desk_player_by_number(event, number)
    if player is None:
        throttle_hit("desk_number_user", key)
        raise ValidationError(
            {
                "membership_number": [
                    _(
                        "No member of %(league)s and no one registered for this event has this membership "
                        "number. A player from elsewhere registers themselves on the event's page."
                    )
                    % {"league": event.league.display_name}
                ]
            },
            code="number_unknown",
        )
    return player
