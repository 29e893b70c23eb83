"""People's reads: a league's claims page, a person's own requests, the event desk's lookup by
membership number, and everything a person's data download holds."""

from __future__ import annotations

from typing import Any, cast

from django.apps import apps
from django.db.models import Q, QuerySet

from kyoku import authz
from kyoku.models import AuditLog, League
from league.models import Entry, GameSeat, LeagueMembership, Penalty, Player, QualificationApplication

from .models import ClaimInvitation, LinkRequest


# ---------------------------------------------------------------- claims


def league_invitations(league: League) -> QuerySet[ClaimInvitation]:
    return ClaimInvitation.objects.filter(league=league).select_related("player", "created_by", "used_by")


def league_link_requests_pending(league: League) -> QuerySet[LinkRequest]:
    return LinkRequest.objects.filter(league=league, status=LinkRequest.Status.PENDING).select_related("player", "user")


def league_members_unlinked(league: League) -> QuerySet[Player]:
    """The league's members (not archived) with no account: whom an invitation may name."""
    return Player.objects.filter(
        memberships__league=league, memberships__archived_at__isnull=True, user__isnull=True
    ).order_by("display_name")


def member_contact_email(league: League, player: Player) -> str:
    row = LeagueMembership.objects.filter(league=league, player=player).values_list("contact_email", flat=True).first()
    return row or ""


def user_link_requests(user: Any) -> QuerySet[LinkRequest]:
    return LinkRequest.objects.filter(user=user).select_related("league")


# ---------------------------------------------------------------- the event desk


def desk_player_by_number(event: Any, number: str) -> Player | None:
    """The player a director may add to ``event`` by membership number: a member of the event's
    league, or a player registered for this event (who registered themselves). Any other number,
    held or not, gives None, so the desk cannot tell a foreign number from an unknown one."""
    number = (number or "").strip()
    if not number:
        return None
    return (
        Player.objects.filter(membership_number=number)
        .filter(Q(memberships__league_id=event.league_id) | Q(event_registrations__event=event))
        .distinct()
        .first()
    )


# ---------------------------------------------------------------- a person's data


def _rows(qs: QuerySet[Any], *fields: str) -> list[dict[str, Any]]:
    return list(qs.values(*fields))


def _account(user: Any) -> dict[str, list[dict[str, Any]]]:
    emails: list[dict[str, Any]] = []
    if apps.is_installed("allauth.account"):
        from allauth.account.models import EmailAddress

        emails = _rows(EmailAddress.objects.filter(user=user), "email", "verified", "primary")
    account = [
        {
            "username": user.username,
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "date_joined": user.date_joined,
            "last_login": user.last_login,
        }
    ]
    return {"account": account, "email_addresses": emails}


def _notifications(user: Any) -> dict[str, list[dict[str, Any]]]:
    from notifications.models import Notification, Preferences, PushSubscription

    return {
        "notifications": _rows(
            Notification.objects.filter(recipient=user), "kind", "league_id", "params", "link", "created", "read_at"
        ),
        "notification_preferences": _rows(
            Preferences.objects.filter(user=user), "language", "choices", "quiet_start", "quiet_end"
        ),
        "push_subscriptions": _rows(PushSubscription.objects.filter(user=user), "endpoint", "created"),
    }


def _player_tables(player: Player) -> dict[str, list[dict[str, Any]]]:
    from events.models import Registration
    from referee.models import Appeal, Ruling

    return {
        "player": _rows(
            Player.objects.filter(pk=player.pk),
            "id",
            "display_name",
            "native_name",
            "family_name",
            "given_name",
            "name_order",
            "membership_number",
            "tenhou_id",
            "mahjong_soul_id",
            "active",
        ),
        "memberships": _rows(
            LeagueMembership.objects.filter(player=player),
            "league__name",
            "via",
            "created_at",
            "contact_email",
            "archived_at",
        ),
        "applications": _rows(
            QualificationApplication.objects.filter(player=player),
            "season__league__name",
            "season__year",
            "season__number",
            "tier__code",
            "status",
            "platform",
            "account_id",
            "rank",
            "rating",
            "games_in_year",
            "room",
            "evidence_year",
            "note",
            "submitted_at",
        ),
        "entries": _rows(
            Entry.objects.filter(player=player),
            "season__league__name",
            "season__year",
            "season__number",
            "division__code",
        ),
        "games": _rows(
            GameSeat.objects.filter(player=player).order_by("game_id"),
            "game_id",
            "game__season__league__name",
            "game__season__year",
            "game__season__number",
            "game__division__code",
            "game__match_day",
            "game__table",
            "game__status",
            "seat",
            "raw_score",
            "points",
            "place",
        ),
        "game_seats": _rows(  # every seat of those games: who sat where, and their scores (public)
            GameSeat.objects.filter(game__seats__player=player).order_by("game_id", "seat"),
            "game_id",
            "seat",
            "player__display_name",
            "raw_score",
            "points",
            "place",
        ),
        "penalties": _rows(
            Penalty.objects.filter(player=player),
            "season__league__name",
            "season__year",
            "season__number",
            "game_id",
            "hand_number",
            "offence",
            "sanction",
            "points",
            "assigned_at",
            "cancelled_at",
        ),
        "rulings": _rows(
            Ruling.objects.filter(incident__game__seats__player=player).distinct(),
            "id",
            "incident__game_id",
            "incident__hand_number",
            "incident__kind",
            "decision",
            "final",
            "override_reason",
            "decided_at",
        ),
        "appeals": _rows(
            Appeal.objects.filter(player=player),
            "ruling_id",
            "reason",
            "status",
            "submitted_at",
            "decided_at",
            "decision_reason",
        ),
        "registrations": _rows(
            Registration.objects.filter(player=player),
            "event__name",
            "status",
            "registered_at",
            "checked_in",
            "substitute",
            "team",
            "ema_number",
            "nationality",
        ),
    }


PLAYER_TABLES = (
    "player",
    "memberships",
    "applications",
    "entries",
    "games",
    "game_seats",
    "penalties",
    "rulings",
    "appeals",
    "registrations",
)


def person_data(user: Any) -> dict[str, list[dict[str, Any]]]:
    """Everything the site holds about ``user`` and their player, table by table (rows of plain
    values). Others' private notes (a referee's incident notes) are not the person's data."""
    data = _account(user)
    player = cast("Player | None", authz.player_of(user))
    tables = _player_tables(player) if player is not None else {name: [] for name in PLAYER_TABLES}
    data.update(tables)
    data.update(_notifications(user))
    data["link_requests"] = _rows(
        LinkRequest.objects.filter(user=user), "league__name", "membership_number", "status", "reason", "created_at"
    )
    data["audit_entries"] = _rows(
        AuditLog.objects.filter(actor=user).order_by("at"), "at", "action", "object_type", "object_id", "data"
    )
    return data
