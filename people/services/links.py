"""A person asks a league to link their account to the member whose number they know.

The answer never tells whether the number exists or belongs to that league (no enumeration
oracle): every ask writes one request, matched or not, and is answered with the same words; the
asks are throttled per user and per client address by the view (``kyoku.throttle``). The league's
admins see what the number matched (their own roster) and approve or reject."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.audit import audit_log_write
from kyoku.models import League
from league.models import LeagueMembership, Player

from ..models import LinkRequest
from .common import account_address, league_language, link_check, mail_send, player_link
from league.names import player_display_name

NUMBER_MAX = 20


def number_clean(value: str) -> str:
    number = (value or "").strip()
    if not number:
        raise ValidationError({"membership_number": [_("Give your membership number.")]}, code="number_missing")
    if len(number) > NUMBER_MAX:
        raise ValidationError(
            {"membership_number": [_("A membership number has at most 20 characters.")]}, code="number_long"
        )
    return number


def _match(league: League, number: str) -> Player | None:
    """One query, whatever the number: the league's member holding it, or None."""
    membership = (
        LeagueMembership.objects.filter(league=league, player__membership_number=number)
        .select_related("player")
        .first()
    )
    return membership.player if membership is not None else None


@transaction.atomic
def link_request_create(*, league: League, user: Any, membership_number: str, actor: Any) -> LinkRequest:
    """Record the ask (matched or not: the caller answers the same words either way)."""
    if getattr(actor, "pk", None) != getattr(user, "pk", None):
        raise ValidationError({"account": [_("Only the person asks for their own account.")]}, code="not_self")
    if authz.player_of(user) is not None:
        raise ValidationError(
            {"account": [_("Your account is already linked to a player. One account is one player.")]},
            code="account_linked",
        )
    number = number_clean(membership_number)
    request = LinkRequest.objects.create(
        league=league, user=user, membership_number=number, player=_match(league, number)
    )
    audit_log_write(actor=actor, action="link_request.create", obj=request, data={"number": number})
    return request


def _told(request: LinkRequest) -> None:
    """Mail the person the decision, when their account has an address (after the commit)."""
    address = account_address(request.user)
    if not address:
        return
    with translation.override(league_language(request.league)):
        league = request.league.display_name
        if request.status == LinkRequest.Status.APPROVED:
            subject = _("%(league)s linked your account to your player") % {"league": league}
            body = _("%(league)s approved your request: your account is now linked to %(player)s.") % {
                "league": league,
                "player": player_display_name(request.player) if request.player else "",
            }
        else:
            subject = _("%(league)s did not link your account") % {"league": league}
            body = _("%(league)s rejected your request to link membership number %(number)s. Reason: %(reason)s") % {
                "league": league,
                "number": request.membership_number,
                "reason": request.reason or "—",
            }
    mail_send(to=address, subject=subject, body=body)


@transaction.atomic
def link_request_decide(*, link_request: LinkRequest, approve: bool, reason: str = "", actor: Any) -> LinkRequest:
    """An admin of the request's league approves (the account becomes the matched member's: the
    same checks as an invitation) or rejects with a reason; the person is told."""
    authz.authorize(actor, link_request, authz.Need.ADMIN)
    request = LinkRequest.objects.select_for_update().select_related("league", "user").get(pk=link_request.pk)
    if request.status != LinkRequest.Status.PENDING:
        raise ValidationError({"request": [_("This request has already been decided.")]}, code="decided")
    reason = (reason or "").strip()[:300]
    if approve:
        if request.player_id is None:
            raise ValidationError(
                {"request": [_("No member has this number: reject the request, with a reason.")]}, code="no_match"
            )
        player = Player.objects.select_for_update().get(pk=request.player_id)
        link_check(player=player, user=request.user)
        player_link(player=player, user=request.user)
        request.status = LinkRequest.Status.APPROVED
    else:
        if not reason:
            raise ValidationError({"reason": [_("Give the person a reason.")]}, code="reason_missing")
        request.status = LinkRequest.Status.REJECTED
    request.reason, request.decided_by, request.decided_at = reason, authz.acting_user(actor), timezone.now()
    request.save(update_fields=["status", "reason", "decided_by", "decided_at"])
    audit_log_write(
        actor=actor, action=f"link_request.{request.status}", obj=request, data={"player": request.player_id}
    )
    transaction.on_commit(lambda: _told(request))
    return request
