"""Rulings: the engine's proposal accepted or overridden, its penalties issued; an incident closed."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from kyoku import authz
from kyoku.authz import acting_user
from kyoku.principals import Actor
from kyoku.safe_json import check_field
from league.services import audit_log_write
from referee.engine import ENGINE_VERSION

from .. import notices
from ..models import Incident, Ruling
from .catalogue import penalty_catalogue_current
from .common import incident_record, text_checked
from .incidents import ruling_propose
from .sanctions import penalties_clean, ruling_override_apply, ruling_penalties_issue


@transaction.atomic
def ruling_decide(
    *,
    incident: Incident,
    referee: Actor,
    accept: bool,
    override: dict | None = None,
    override_reason: str = "",
    penalties: list | None = None,
) -> Ruling:
    """Store the ruling on an open incident: the engine's proposal, accepted or overridden (with a
    reason), and issue its penalties (plus any ``penalties`` the referee adds, each
    ``{"seat", "offence", "note"?}``) to the ledger, sanctions from the league's catalogue."""
    incident = (
        Incident.objects.select_for_update()
        .select_related("game__season__rule_set", "game__season__league")
        .get(pk=incident.pk)
    )
    season = incident.game.season
    authz.authorize(referee, incident, authz.Need.REFEREE)
    check_field(override, "override")
    check_field(penalties, "penalties")
    override_reason = text_checked(override_reason or "", "override_reason", 2000)
    if incident.status != Incident.Status.OPEN:
        raise ValidationError(
            {
                "status": [
                    gettext(
                        "incident #%(pk)s is %(status)s, not open: a ruling is made once; to change it, a player concerned files an appeal"
                    )
                    % {"pk": incident.pk, "status": incident.get_status_display().lower()}
                ]
            }
        )
    override_reason = (override_reason or "").strip()
    proposed = ruling_propose(incident=incident)
    if accept:
        if override:
            raise ValidationError({"override": [gettext("accepting the proposed ruling takes no override")]})
        final, decision = proposed, Ruling.Decision.ACCEPTED
    else:
        if not override_reason:
            raise ValidationError(
                {"override_reason": [gettext("an override needs a reason, recorded with the ruling")]}
            )
        final, decision = ruling_override_apply(proposed, override, "override"), Ruling.Decision.OVERRIDDEN
    catalogue = penalty_catalogue_current(league=season.league)
    ruled = penalties_clean(
        final.get("penalties", []), "proposed.penalties" if accept else "override.penalties", catalogue.data
    )
    extra = penalties_clean(penalties, "penalties", catalogue.data)
    ruling = Ruling.objects.create(
        incident=incident,
        engine_version=ENGINE_VERSION,
        rule_set=season.rule_set,
        rules=incident_record(incident)["rules"],
        proposed=proposed,
        decision=decision,
        override_reason=override_reason if not accept else "",
        final=final,
        referee=acting_user(referee),
    )
    issued = ruling_penalties_issue(
        ruling=ruling,
        incident=incident,
        ruled=ruled,
        extra=extra,
        catalogue=catalogue,
        referee=referee,
        source="ruling",
    )
    incident.status = Incident.Status.RULED
    incident.save(update_fields=["status"])
    audit_log_write(
        actor=referee,
        action="ruling.decide",
        obj=ruling,
        data={
            "incident": incident.pk,
            "decision": decision,
            "override_reason": ruling.override_reason,
            "engine_version": ENGINE_VERSION,
            "rule_set": str(season.rule_set),
            "rules": ruling.rules,
            "catalogue": {
                "id": catalogue.pk,
                "version": catalogue.version,
                "catalogue_version": catalogue.data.get("version"),
            },
            "sanctions": issued,
        },
    )
    notices.ruling_issued(ruling=ruling, actor=referee)
    return ruling


@transaction.atomic
def incident_close(*, incident: Incident, actor: Actor) -> Incident:
    """Close a ruled incident nobody appealed."""
    incident = Incident.objects.select_for_update().select_related("game__season__league").get(pk=incident.pk)
    authz.authorize(actor, incident, authz.Need.REFEREE)
    if incident.status != Incident.Status.RULED:
        raise ValidationError(
            {
                "status": [
                    gettext("only a ruled incident can be closed; this one is %(status)s")
                    % {"status": incident.get_status_display().lower()}
                ]
            }
        )
    incident.status = Incident.Status.CLOSED
    incident.save(update_fields=["status"])
    audit_log_write(actor=actor, action="incident.close", obj=incident)
    return incident
