"""The penalty ledger: penalties assigned and cancelled (never deleted), the standings following."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from kyoku.authz import acting_user
from kyoku.principals import Actor

from .. import notices
from ..models import Entry, Game, Penalty, Player, Season
from .common import standings_refresh, audit_log_write


@transaction.atomic
def penalty_assign(
    *,
    season: Season,
    player: Player,
    offence: str,
    sanction: str,
    points=Decimal("0"),
    game: Game | None = None,
    hand_number: int | None = None,
    ruling=None,
    actor: Actor,
    note: str = "",
) -> Penalty:
    if sanction not in Penalty.Sanction.values:
        raise ValidationError({"sanction": [gettext("unknown sanction %(sanction)s") % {"sanction": repr(sanction)}]})
    points = Decimal(str(points))
    if points < 0:
        raise ValidationError({"points": [gettext("give the points deducted as a positive number")]})
    penalty = Penalty.objects.create(
        season=season,
        player=player,
        offence=offence,
        sanction=sanction,
        points=points,
        game=game,
        hand_number=hand_number,
        ruling=ruling,
        assigned_by=acting_user(actor),
        note=note,
    )
    audit_log_write(
        actor=actor,
        action="penalty.assign",
        obj=penalty,
        data={"offence": offence, "sanction": sanction, "points": str(points)},
    )
    _penalty_standings_refresh(penalty)
    notices.penalty_issued(penalty=penalty, actor=actor)
    return penalty


@transaction.atomic
def penalty_cancel(*, penalty: Penalty, reason: str, actor: Actor) -> Penalty:
    if not reason.strip():
        raise ValidationError({"reason": [gettext("say why the penalty is cancelled")]})
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if penalty.cancelled_at:
        raise ValidationError({"penalty": [gettext("already cancelled")]})
    penalty.cancelled_at, penalty.cancelled_by, penalty.cancel_reason = timezone.now(), acting_user(actor), reason
    penalty.save(update_fields=["cancelled_at", "cancelled_by", "cancel_reason"])
    audit_log_write(actor=actor, action="penalty.cancel", obj=penalty, data={"reason": reason})
    _penalty_standings_refresh(penalty)
    return penalty


def _penalty_standings_refresh(penalty: Penalty) -> None:
    entry = Entry.objects.filter(season=penalty.season, player=penalty.player).first()
    if entry:
        standings_refresh(entry.division_id, [penalty.player_id])
