"""A league invites the person behind one of its members to claim that player (docs/privacy.md).

The admin names the member and an address; the link goes to that address, and only an account
holding that address, verified, may accept it: a forwarded or leaked link is refused to any other
account and stays usable. The token is shown once, in the email, and stored as its SHA-256."""

from __future__ import annotations

import datetime
from typing import Any, NamedTuple

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.text import email_clean
from kyoku.audit import audit_log_write
from kyoku.tokens import token_hash, token_new
from kyoku.models import League
from kyoku.throttle import throttle_hit
from league.models import LeagueMembership, Player
from league.services.memberships import membership_grant

from ..models import INVITATION_DAYS, ClaimInvitation
from .common import league_language, link_check, mail_send, player_link, verified_addresses
from league.names import player_display_name


class ClaimSent(NamedTuple):
    invitation: ClaimInvitation
    token: str  # the only copy outside the email
    delivered: bool  # False: the mail server did not take it; send again


def email_normalise(value: str) -> str:
    """An address as stored and compared (``kyoku.text.email_clean``): ValidationError naming ``email``."""
    return email_clean(value, field="email")


def _member_check(league: League, player: Player) -> None:
    active = LeagueMembership.objects.filter(league=league, player=player, archived_at__isnull=True)
    if not active.exists():
        raise ValidationError(
            {"player": [_("%(player)s is not a member of %(league)s.") % {"player": player, "league": league}]},
            code="not_member",
        )
    if player.user_id is not None:
        raise ValidationError({"player": [_("This player is already linked to an account.")]}, code="player_linked")


def _mail(invitation: ClaimInvitation, token: str, base_url: str) -> bool:
    league = invitation.league
    with translation.override(league_language(league)):
        link = f"{base_url.rstrip('/')}/claim/{token}/"
        subject = _("%(league)s invites you to link your account to your player") % {"league": league.display_name}
        body = _(
            "%(league)s keeps your results as %(player)s. Open this link to link your account to that "
            "player; sign in (or sign up) with this address, %(email)s, verified:\n\n%(link)s\n\n"
            "The link works once, until %(expires)s. If you did not expect it, ignore this email."
        ) % {
            "league": league.display_name,
            "player": player_display_name(invitation.player),
            "email": invitation.email,
            "link": link,
            "expires": timezone.localtime(invitation.expires_at).strftime("%Y-%m-%d"),
        }
    return mail_send(to=invitation.email, subject=subject, body=body)


def _deliver(invitation: ClaimInvitation, token: str, base_url: str) -> bool:
    delivered = _mail(invitation, token, base_url)
    if delivered:
        invitation.sent_at = timezone.now()
        invitation.save(update_fields=["sent_at"])
    return delivered


def claim_invitation_send(*, league: League, player: Player, email: str, base_url: str, actor: Any) -> ClaimSent:
    """Invite the person behind ``player`` (a member of ``league`` with no account yet) at ``email``.
    The invitation is kept even when the mail server is down (``delivered`` False: send it again)."""
    authz.authorize(actor, league, authz.Need.ADMIN)
    address = email_normalise(email)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        _member_check(league, player)
        throttle_hit("claim_invite_league", f"league:{league.pk}")
        token, digest = token_new()
        now = timezone.now()
        invitation = ClaimInvitation.objects.create(
            league=league,
            player=player,
            email=address,
            token_hash=digest,
            created_by=authz.acting_user(actor),
            created_at=now,
            expires_at=now + datetime.timedelta(days=INVITATION_DAYS),
        )
        audit_log_write(actor=actor, action="claim.invite", obj=invitation, data={"player": player.pk})
    return ClaimSent(invitation, token, _deliver(invitation, token, base_url))


def claim_invitation_resend(*, invitation: ClaimInvitation, base_url: str, actor: Any) -> ClaimSent:
    """Send a waiting invitation again, with a new link (the old one stops working) and a new expiry."""
    authz.authorize(actor, invitation, authz.Need.ADMIN)
    with transaction.atomic():
        invitation = (
            ClaimInvitation.objects.select_for_update().select_related("league", "player").get(pk=invitation.pk)
        )
        if invitation.state not in (ClaimInvitation.State.PENDING, ClaimInvitation.State.EXPIRED):
            raise ValidationError({"invitation": [_("This invitation was used or revoked.")]}, code="not_pending")
        _member_check(invitation.league, invitation.player)
        throttle_hit("claim_invite_league", f"league:{invitation.league_id}")
        token, invitation.token_hash = token_new()
        invitation.expires_at = timezone.now() + datetime.timedelta(days=INVITATION_DAYS)
        invitation.sent_at = None
        invitation.save(update_fields=["token_hash", "expires_at", "sent_at"])
        audit_log_write(actor=actor, action="claim.resend", obj=invitation, data={"player": invitation.player_id})
    return ClaimSent(invitation, token, _deliver(invitation, token, base_url))


@transaction.atomic
def claim_invitation_revoke(*, invitation: ClaimInvitation, actor: Any) -> ClaimInvitation:
    authz.authorize(actor, invitation, authz.Need.ADMIN)
    invitation = ClaimInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.used_at is not None or invitation.revoked_at is not None:
        raise ValidationError({"invitation": [_("This invitation was used or revoked.")]}, code="not_pending")
    invitation.revoked_at, invitation.revoked_by = timezone.now(), authz.acting_user(actor)
    invitation.save(update_fields=["revoked_at", "revoked_by"])
    audit_log_write(actor=actor, action="claim.revoke", obj=invitation, data={"player": invitation.player_id})
    return invitation


def invitation_state_check(invitation: ClaimInvitation) -> None:
    """Refuse a used, revoked or expired invitation in words."""
    state = invitation.state
    if state == ClaimInvitation.State.USED:
        raise ValidationError({"invitation": [_("This invitation has already been used.")]}, code="used")
    if state == ClaimInvitation.State.REVOKED:
        raise ValidationError({"invitation": [_("This invitation was revoked by the league.")]}, code="revoked")
    if state == ClaimInvitation.State.EXPIRED:
        raise ValidationError(
            {"invitation": [_("This invitation has expired: ask the league to send it again.")]}, code="expired"
        )


@transaction.atomic
def claim_invitation_accept(*, token: str, actor: Any) -> ClaimInvitation:
    """The signed-in person accepts: their account becomes the player's. Refused (nothing written,
    the invitation still usable by its addressee) when the account lacks the address verified."""
    if not getattr(actor, "is_authenticated", False):
        raise ValidationError({"account": [_("Sign in to accept this invitation.")]}, code="signin")
    invitation = (
        ClaimInvitation.objects.select_for_update()
        .select_related("league")
        .filter(token_hash=token_hash(token or ""))
        .first()
    )
    if invitation is None:
        raise ValidationError({"invitation": [_("This link is not a valid invitation.")]}, code="unknown")
    invitation_state_check(invitation)
    if invitation.email not in verified_addresses(actor):
        raise ValidationError(
            {
                "email": [
                    _(
                        "This invitation was sent to another address. Sign in with the account that has "
                        "that address, or add it to this account and verify it, then open the link again."
                    )
                ]
            },
            code="email_mismatch",
        )
    player = Player.objects.select_for_update().get(pk=invitation.player_id)
    link_check(player=player, user=actor)
    player_link(player=player, user=actor)
    membership_grant(league=invitation.league, player=player, via=LeagueMembership.Via.INVITATION, actor=actor)
    invitation.used_at, invitation.used_by = timezone.now(), actor
    invitation.save(update_fields=["used_at", "used_by"])
    audit_log_write(actor=actor, action="claim.accept", obj=invitation, data={"player": player.pk, "user": actor.pk})
    return invitation
