"""Qualification applications: filed by a player (evidence checked, proof file stored) and
decided by an admin; an approval enters the player in the division the tier admits to.
The checks of a tier and its evidence are :mod:`league.qualification`."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext
from django.db import IntegrityError, transaction
from django.utils import timezone

from kyoku import authz
from kyoku.authz import acting_user
from kyoku.principals import Actor, System, actor_require, is_user
from kyoku.uploads import evidence_file_check, random_name

from .. import notices, qualification
from ..models import (
    Division,
    Entry,
    Game,
    LeagueMembership,
    Player,
    QualificationApplication,
    QualificationTier,
    Season,
)
from .common import standings_refresh, actor_authorize, audit_log_write
from .memberships import membership_require
from .summary import division_summary_entrants


@transaction.atomic
def application_submit(
    *, player: Player, season: Season, tier: QualificationTier, evidence: dict, proof=None, actor: Actor
) -> QualificationApplication:
    """File an application. The proof file is checked (type from its content, size) before
    anything is written, and written only once the row exists, so a refused request (invalid
    evidence, a duplicate application) leaves no file behind."""
    if tier.league_id != season.league_id:
        raise ValidationError({"tier": [gettext("this tier belongs to another league")]})
    actor_require(actor)
    if not isinstance(actor, System):  # a command (the demo) files for a player; a request is the player or an admin
        player_ok = is_user(actor) and getattr(getattr(actor, "player", None), "pk", None) == player.pk
        if not player_ok and not authz.is_admin(actor, season.league):
            raise PermissionDenied("only the player, or an admin of this league, may file this application")
    # the player's own application makes them a member of the league (their consent); an admin
    # files one only for a member (or a player new to every league): another league's player is invited
    membership_require(league=season.league, player=player, actor=actor, own=LeagueMembership.Via.APPLICATION)
    qualification.check_tier_in_force(tier=tier, season=season)
    clean = qualification.clean_evidence(tier=tier, evidence=evidence, season=season)
    if tier.requirements.get("proof_required") and not proof:
        raise ValidationError({"proof": [gettext("upload a screenshot or file that proves the account and games")]})
    proof_type = evidence_file_check(proof) if proof else ""
    if season.status == Season.Status.CLOSED:
        raise ValidationError({"season": [gettext("the season is closed")]})
    if season.status == Season.Status.DRAFT and not (isinstance(actor, System) or authz.is_admin(actor, season.league)):
        # a draft season is still being prepared: a player applies once the admin opens registration
        raise ValidationError({"season": [gettext("registration for this season has not opened yet")]})
    try:
        with transaction.atomic():
            application = QualificationApplication.objects.create(
                player=player, season=season, tier=tier, proof_type=proof_type, **clean
            )
    except IntegrityError:
        raise ValidationError(
            {"tier": [gettext("you already have a pending or approved application for this tier")]}
        ) from None
    if proof:
        stored = application.proof.storage.save(random_name("qualification", proof_type), proof)
        try:
            QualificationApplication.objects.filter(pk=application.pk).update(proof=stored)
            application.proof.name = stored
            audit_log_write(
                actor=actor,
                action="application.submit",
                obj=application,
                data={"tier": tier.code, **clean, "proof_type": proof_type},
            )
        except Exception:
            application.proof.storage.delete(stored)
            raise
    else:
        audit_log_write(actor=actor, action="application.submit", obj=application, data={"tier": tier.code, **clean})
    return application


@transaction.atomic
def application_decide(
    *, application: QualificationApplication, approve: bool, actor: Actor, reason: str = ""
) -> QualificationApplication:
    actor_authorize(actor, application, authz.Need.ADMIN)
    application = QualificationApplication.objects.select_for_update().get(pk=application.pk)
    if application.status != QualificationApplication.Status.PENDING:
        raise ValidationError(
            {"status": [gettext("already %(status)s") % {"status": application.get_status_display().lower()}]}
        )
    if not approve and not reason.strip():
        raise ValidationError({"reason": [gettext("give the player a reason for the rejection")]})
    if approve:
        qualification.check_not_expired(application=application)
        division = Division.objects.filter(season=application.season, code=application.tier.division_code).first()
        if division is None:
            raise ValidationError(
                {
                    "tier": [
                        gettext("%(season)s has no division %(code)s")
                        % {"season": application.season, "code": application.tier.division_code}
                    ]
                }
            )
        existing = Entry.objects.filter(season=application.season, player=application.player).first()
        if existing and existing.division_id != division.pk:
            if Game.objects.filter(division_id=existing.division_id, seats__player=application.player).exists():
                raise ValidationError(
                    {"player": [gettext("already plays in %(division)s this season") % {"division": existing.division}]}
                )
            # A qualification moves a player up into the division it admits to.
            left = existing.division_id
            existing.division, existing.basis, existing.application = division, Entry.Basis.QUALIFICATION, application
            existing.save(update_fields=["division", "basis", "application"])
            standings_refresh(left, [application.player_id])
            standings_refresh(division.pk, [application.player_id])
            division_summary_entrants(division_id=left)
            division_summary_entrants(division_id=division.pk)
        elif not existing:
            Entry.objects.create(
                season=application.season,
                division=division,
                player=application.player,
                basis=Entry.Basis.QUALIFICATION,
                application=application,
            )
            standings_refresh(division.pk, [application.player_id])
            division_summary_entrants(division_id=division.pk)
    application.status = (
        QualificationApplication.Status.APPROVED if approve else QualificationApplication.Status.REJECTED
    )
    application.decided_by, application.decided_at, application.reason = acting_user(actor), timezone.now(), reason
    application.save(update_fields=["status", "decided_by", "decided_at", "reason"])
    audit_log_write(
        actor=actor,
        action="application.approve" if approve else "application.reject",
        obj=application,
        data={"reason": reason},
    )
    notices.application_decided(application=application, actor=actor)
    return application
