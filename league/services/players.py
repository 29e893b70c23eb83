"""A player's name split into its parts, confirmed by an admin.

The data migration that introduced the parts, and the EMA file for a player whose parts are blank,
only *propose* a split (``league.names.name_parts_propose``). A result sheet a federation signs
should carry names someone checked, so the confirmation is a stored fact: who confirmed the split,
and when. It stops holding when the name is changed and its parts are not (the parts may no longer
be the name's)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from kyoku.principals import is_user

from ..models import Player
from ..names import split_after_edit, split_confirmable
from .common import audit_log_write

NAME_PARTS = ("family_name", "given_name", "name_order")
NAMES = ("display_name", "native_name")


@transaction.atomic
def player_name_confirm(*, player: Player, actor: Any) -> Player:
    """Record that ``actor`` checked ``player``'s split as it is stored now. Both parts must be
    written (league.names.split_confirmable): ValidationError naming the empty part otherwise."""
    if not split_confirmable(player.family_name, player.given_name):
        field = "family_name" if not player.family_name.strip() else "given_name"
        raise ValidationError({field: _("Write both the family name and the given name before confirming the split.")})
    player.name_confirmed_at = timezone.now()
    player.name_confirmed_by = actor if is_user(actor) else None
    player.save(update_fields=["name_confirmed_at", "name_confirmed_by"])
    audit_log_write(
        actor=actor,
        action="player.name_confirm",
        obj=player,
        data={"family_name": player.family_name, "given_name": player.given_name, "name_order": player.name_order},
    )
    return player


@transaction.atomic
def player_name_unconfirm(*, player: Player, actor: Any, reason: str) -> Player:
    """Forget the confirmation: the name changed and its checked parts may no longer be its parts."""
    if player.name_confirmed_at is None:
        return player
    player.name_confirmed_at, player.name_confirmed_by = None, None
    player.save(update_fields=["name_confirmed_at", "name_confirmed_by"])
    audit_log_write(actor=actor, action="player.name_unconfirm", obj=player, data={"reason": reason})
    return player


def player_name_edited(*, player: Player, actor: Any, changed: list[str]) -> None:
    """After an edit of ``player`` (the admin's form lists what changed): writing a part, with
    both parts written, is the editor's confirmation of the split; setting only the order,
    clearing a part or changing the name alone leaves a split nobody checked
    (league.names.split_after_edit)."""
    after = split_after_edit(changed, player.family_name, player.given_name)
    if after == "confirm":
        player_name_confirm(player=player, actor=actor)
    elif after == "unconfirm":
        reason = "name_changed" if any(field in changed for field in NAMES) else "parts_unchecked"
        player_name_unconfirm(player=player, actor=actor, reason=reason)
