"""Appeals: filed by a player the ruling concerns, decided by a referee (upheld, or reversed with
a new ruling and its penalties)."""

from __future__ import annotations

from typing import cast

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from kyoku import authz
from kyoku.authz import acting_user
from kyoku.principals import Actor
from kyoku.safe_json import check_field
from league.models import GameSeat, Player
from league.services import audit_log_write, penalty_cancel
from referee.engine import ENGINE_VERSION

from .. import notices
from ..models import Appeal, Incident, Ruling
from .catalogue import penalty_catalogue_current
from .common import incident_record, text_checked
from .incidents import current_ruling, ruling_propose
from .sanctions import penalties_clean, ruling_override_apply, ruling_penalties_issue


def player_concerned(ruling: Ruling, player: Player | None) -> bool:
    """A player concerned by a ruling: one who sat at the incident's game."""
    return player is not None and GameSeat.objects.filter(game_id=ruling.incident.game_id, player=player).exists()


@transaction.atomic
def appeal_file(*, ruling: Ruling, player: Player | None, reason: str, actor: Actor) -> Appeal:
    incident = Incident.objects.select_for_update().get(pk=ruling.incident_id)
    if not player_concerned(ruling, player):
        raise PermissionDenied("Only a player of this game may appeal its ruling.")
    assert player is not None  # player_concerned says no to None
    if not (reason or "").strip():
        raise ValidationError({"reason": [gettext("say why the ruling should change")]})
    reason = text_checked(reason, "reason", 5000)
    if incident.status == Incident.Status.OPEN:
        raise ValidationError({"status": [gettext("this incident has not been ruled yet")]})
    if incident.status == Incident.Status.APPEALED:
        raise ValidationError({"status": [gettext("an appeal against this ruling is already pending")]})
    if incident.status == Incident.Status.CLOSED:
        raise ValidationError({"status": [gettext("this incident is closed: its ruling is final")]})
    if cast(Ruling, current_ruling(incident)).pk != ruling.pk:  # ruled: it has a ruling
        raise ValidationError({"ruling": [gettext("this ruling has been replaced; appeal the current one")]})
    appeal = Appeal.objects.create(ruling=ruling, player=player, reason=reason.strip())
    incident.status = Incident.Status.APPEALED
    incident.save(update_fields=["status"])
    audit_log_write(
        actor=actor,
        action="appeal.file",
        obj=appeal,
        data={"ruling": ruling.pk, "incident": incident.pk, "player": player.pk},
    )
    notices.appeal_filed(appeal=appeal, actor=actor)
    return appeal


@transaction.atomic
def appeal_decide(
    *,
    appeal: Appeal,
    referee: Actor,
    uphold: bool,
    reason: str,
    new_final: dict | None = None,
    penalties: list | None = None,
) -> Appeal:
    """Decide an appeal. A different referee than the one who ruled must decide it.

    Upholding leaves the ruling and its penalties as they are. Reversing cancels the old ruling's
    active penalties and stores a new ruling (``appeal_of``) whose final is the old final with
    ``new_final``'s fields applied (without ``new_final``: the old final with no penalties);
    its penalties, plus any extra ``penalties``, are issued anew. The incident is then closed.
    """
    appeal = (
        Appeal.objects.select_for_update()
        .select_related("ruling__incident__game__season__league", "ruling__incident__game__season__rule_set")
        .get(pk=appeal.pk)
    )
    old = appeal.ruling
    incident = Incident.objects.select_for_update().get(pk=old.incident_id)
    season = incident.game.season
    authz.authorize(referee, appeal, authz.Need.REFEREE)
    if appeal.status != Appeal.Status.PENDING:
        raise ValidationError(
            {
                "status": [
                    gettext("this appeal is already decided (%(status)s)")
                    % {"status": appeal.get_status_display().lower()}
                ]
            }
        )
    if old.referee_id is not None and old.referee_id == getattr(referee, "pk", None):
        raise ValidationError(
            {
                "referee": [
                    gettext("an appeal must be decided by a different referee than the one " "who made the ruling")
                ]
            }
        )
    reason = text_checked((reason or "").strip(), "reason", 5000)
    check_field(new_final, "new_final")
    check_field(penalties, "penalties")
    if not reason:
        raise ValidationError({"reason": [gettext("give the reason for the decision on the appeal")]})
    if incident.status != Incident.Status.APPEALED:
        raise ValidationError(
            {
                "status": [
                    gettext("incident #%(pk)s is %(status)s, not appealed")
                    % {"pk": incident.pk, "status": incident.get_status_display().lower()}
                ]
            }
        )
    if uphold:
        if new_final or penalties:
            raise ValidationError(
                {"new_final": [gettext("upholding keeps the ruling: give no new ruling or penalties")]}
            )
        appeal.status = Appeal.Status.UPHELD
    else:
        if new_final is None:
            final = {**old.final, "penalties": []}
        else:
            final = ruling_override_apply(old.final, new_final, "new_final")
        catalogue = penalty_catalogue_current(league=season.league)
        ruled = penalties_clean(final.get("penalties", []), "new_final.penalties", catalogue.data)
        extra = penalties_clean(penalties, "penalties", catalogue.data)
        for penalty in old.penalties.filter(cancelled_at__isnull=True):
            penalty_cancel(
                penalty=penalty, reason=f"appeal #{appeal.pk} reversed ruling #{old.pk}: {reason}", actor=referee
            )
        new = Ruling.objects.create(
            incident=incident,
            engine_version=ENGINE_VERSION,
            rule_set=season.rule_set,
            rules=incident_record(incident)["rules"],
            proposed=ruling_propose(incident=incident),
            decision=Ruling.Decision.OVERRIDDEN,
            override_reason=reason,
            final=final,
            referee=acting_user(referee),
            appeal_of=appeal,
        )
        issued = ruling_penalties_issue(
            ruling=new,
            incident=incident,
            ruled=ruled,
            extra=extra,
            catalogue=catalogue,
            referee=referee,
            source="appeal",
        )
        appeal.status = Appeal.Status.REVERSED
        audit_log_write(
            actor=referee,
            action="ruling.decide",
            obj=new,
            data={
                "incident": incident.pk,
                "appeal": appeal.pk,
                "replaces": old.pk,
                "decision": "overridden",
                "override_reason": reason,
                "engine_version": ENGINE_VERSION,
                "rules": new.rules,
                "catalogue": {"id": catalogue.pk, "version": catalogue.version},
                "sanctions": issued,
            },
        )
    appeal.decided_by, appeal.decided_at, appeal.decision_reason = acting_user(referee), timezone.now(), reason
    appeal.save(update_fields=["status", "decided_by", "decided_at", "decision_reason"])
    incident.status = Incident.Status.CLOSED
    incident.save(update_fields=["status"])
    audit_log_write(
        actor=referee,
        action="appeal.uphold" if uphold else "appeal.reverse",
        obj=appeal,
        data={"ruling": old.pk, "reason": reason},
    )
    notices.appeal_decided(appeal=appeal, actor=referee)
    return appeal
