"""Who is a league's member, and the invitations that ask a player to become one.

A league's admins read its members' private details (membership number, online account names:
docs/privacy.md), so membership is recorded only where the player consented or the league
legitimately holds the player (``LeagueMembership.Via``):

- an admin of the league enters a player who is new to every league (the record was made for it);
- the player applies for a qualification in one of its seasons, or registers themselves;
- the player accepts an invitation;
- the system (a task, a command) or the site's operator (a superuser) enters the player.

An admin who enters a player who belongs to another league and not to theirs does not enter them:
``office.entry_add`` sends an invitation instead, which the player accepts or declines on their
own page. Every other writer of entries (``entry_create``, ``application_submit``) refuses such a
player (``InvitationRequired``), so no path (an event's registration by its director, a
qualification filed by an admin) enters a player without their consent.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.models import League
from kyoku.principals import System, TablePhone, is_user

from kyoku.throttle import throttle_check, throttle_hit

from ..models import Division, Entry, InvitationBlock, LeagueInvitation, LeagueMembership, Player
from .common import audit_log_write

Via = LeagueMembership.Via


class InvitationRequired(PermissionDenied):
    """The player has not joined this league: only their consent (an invitation they accept, their
    own application or registration) enters them."""


def is_member(player: Player, league: League | int) -> bool:
    league_id = league if isinstance(league, int) else league.pk
    return LeagueMembership.objects.filter(player=player, league_id=league_id).exists()


def consent_via(*, league: League, player: Player, actor: Any, own: str = Via.REGISTRATION) -> str | None:
    """How ``actor`` may bring ``player`` into ``league``: "" when the player is already a member,
    the ``Via`` of the membership the act makes, or None when only the player's consent can (an
    invitation). ``own`` names the player's own act (a registration, an application)."""
    if is_member(player, league):
        return ""
    if isinstance(actor, TablePhone):
        return None  # a table's phone enters nobody
    if isinstance(actor, System):
        return Via.SYSTEM
    if not is_user(actor):
        return None
    if getattr(authz.player_of(actor), "pk", None) == player.pk:
        return own
    if actor.is_superuser:
        return Via.SYSTEM
    if authz.is_admin(actor, league) and not LeagueMembership.objects.filter(player=player).exists():
        return Via.ADMIN  # a player new to every league: the record was made for this one
    return None


def membership_grant(*, league: League, player: Player, via: str, actor: Any) -> LeagueMembership:
    """Record that ``player`` is a member of ``league`` (once; audited when made)."""
    if via not in Via.values:
        raise ValueError(f"unknown membership origin {via!r}")
    existing = LeagueMembership.objects.filter(league=league, player=player).first()
    if existing is not None:
        return existing
    membership = LeagueMembership.objects.create(
        league=league, player=player, via=via, created_by=authz.acting_user(actor)
    )
    audit_log_write(actor=actor, action="membership.grant", obj=membership, data={"player": player.pk, "via": via})
    return membership


def membership_require(*, league: League, player: Player, actor: Any, own: str = Via.REGISTRATION) -> None:
    """Make sure ``player`` is (or, by this act, becomes) a member of ``league``; refuse with
    ``InvitationRequired`` when only the player's consent can make them one."""
    via = consent_via(league=league, player=player, actor=actor, own=own)
    if via is None:
        raise InvitationRequired(
            _("%(player)s has not joined %(league)s: invite them, they are entered when they accept.")
            % {"player": player, "league": league}
        )
    if via:
        membership_grant(league=league, player=player, via=via, actor=actor)


# ---------------------------------------------------------------- invitations


@transaction.atomic
def invitation_create(*, division: Division, player: Player, actor: Any) -> LeagueInvitation:
    """Invite ``player`` into ``division``. Asking again while an invitation is open returns it."""
    authz.authorize(actor, division, authz.Need.ADMIN)
    season = division.season
    if Entry.objects.filter(season=season, player=player).exists():
        raise ValidationError(
            {"player": [_("%(player)s already has an entry in %(season)s") % {"player": player, "season": season}]}
        )
    pending = LeagueInvitation.objects.filter(
        season=season, player=player, status=LeagueInvitation.Status.PENDING
    ).first()
    if pending is not None:
        return pending
    if InvitationBlock.objects.filter(player=player, league_id=season.league_id).exists():
        words = _("the player does not accept invitations from this league")
        raise ValidationError({"player": ValidationError(words, code="invitations_blocked")})
    # how many a league may send (kyoku.throttle LIMITS): 429 in words once over
    throttle_check("invitation_league", f"league:{season.league_id}")
    throttle_hit("invitation_league", f"league:{season.league_id}")
    try:
        with transaction.atomic():
            invitation = LeagueInvitation.objects.create(
                league_id=season.league_id,
                season=season,
                division=division,
                player=player,
                invited_by=authz.acting_user(actor),
            )
    except IntegrityError:  # a concurrent request made the same invitation
        return LeagueInvitation.objects.get(season=season, player=player, status=LeagueInvitation.Status.PENDING)
    audit_log_write(
        actor=actor,
        action="invitation.create",
        obj=invitation,
        data={"player": player.pk, "division": division.code},
    )
    return invitation


def _decision_check(invitation: LeagueInvitation, actor: Any) -> LeagueInvitation:
    """The invitation, locked, once the actor is known to be its player (or the system)."""
    authz.authorize(actor, invitation, authz.Need.SELF)
    invitation = (
        LeagueInvitation.objects.select_for_update()
        .select_related("season", "division", "player")
        .get(pk=invitation.pk)
    )
    if invitation.status != LeagueInvitation.Status.PENDING:
        raise ValidationError({"invitation": [_("This invitation has already been answered.")]})
    return invitation


@transaction.atomic
def invitation_accept(*, invitation: LeagueInvitation, actor: Any) -> LeagueInvitation:
    """The player accepts: they become a member of the league and are entered in the division
    (unless an entry of theirs in that season already exists)."""
    from .seasons import entry_create

    invitation = _decision_check(invitation, actor)
    league = invitation.season.league
    membership_grant(league=league, player=invitation.player, via=Via.INVITATION, actor=actor)
    entry = Entry.objects.filter(season=invitation.season, player=invitation.player).first()
    if entry is None:
        entry = entry_create(division=invitation.division, player=invitation.player, actor=actor)
    invitation.status, invitation.decided_at, invitation.entry = LeagueInvitation.Status.ACCEPTED, timezone.now(), entry
    invitation.save(update_fields=["status", "decided_at", "entry"])
    audit_log_write(actor=actor, action="invitation.accept", obj=invitation, data={"entry": entry.pk})
    return invitation


@transaction.atomic
def invitation_decline(*, invitation: LeagueInvitation, actor: Any, block: bool = False) -> LeagueInvitation:
    """The player declines: nothing is entered, the league stays outside; the answer is kept.
    With ``block`` the player also accepts no more invitations from the league (until lifted)."""
    invitation = _decision_check(invitation, actor)
    invitation.status, invitation.decided_at = LeagueInvitation.Status.DECLINED, timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    audit_log_write(actor=actor, action="invitation.decline", obj=invitation, data={"block": block})
    if block:
        InvitationBlock.objects.get_or_create(player=invitation.player, league_id=invitation.league_id)
        audit_log_write(actor=actor, action="invitation.block", obj=invitation, data={"player": invitation.player_id})
    return invitation


@transaction.atomic
def invitation_block_lift(*, block: InvitationBlock, actor: Any) -> None:
    """The player accepts the league's invitations again."""
    authz.authorize(actor, block, authz.Need.SELF)
    audit_log_write(actor=actor, action="invitation.unblock", obj=block, data={"league": block.league_id})
    block.delete()
