"""Reads: a user's inbox (rendered in the reader's language), a league's sends for its admins."""

from __future__ import annotations

from typing import Any

from kyoku.models import League

from .kinds import CHANNEL_LABELS, KINDS, reason_words
from .models import Delivery, LeagueChannel, Notification, Preferences
from .rendering import render

PAGE = 50


def language_chosen(user: Any) -> str | None:
    """The language ``user`` is written to (their notification settings), or None when they have
    no settings yet."""
    return Preferences.objects.filter(user=user).values_list("language", flat=True).first()


def notification_row(n: Notification) -> dict[str, Any]:
    subject, body = render(n)
    return {
        "id": n.pk,
        "kind": n.kind,
        "kind_label": str(KINDS[n.kind].label),
        "subject": subject,
        "body": body,
        "link": n.link,
        "created": n.created,
        "read_at": n.read_at,
        "unread": n.read_at is None,
    }


def unread_count(*, user: Any) -> int:
    return Notification.objects.filter(recipient=user, read_at__isnull=True).count()


def inbox_page(*, user: Any, offset: int = 0, unread_only: bool = False, limit: int = PAGE) -> dict[str, Any]:
    rows = Notification.objects.filter(recipient=user)
    if unread_only:
        rows = rows.filter(read_at__isnull=True)
    total = rows.count()
    page = list(rows.order_by("-created", "-pk")[offset : offset + limit])
    return {
        "notifications": [notification_row(n) for n in page],
        "total": total,
        "unread": unread_count(user=user),
        "offset": offset,
        "next_offset": offset + limit if offset + limit < total else None,
        "previous_offset": max(0, offset - limit) if offset else None,
    }


def channel_words(channel: str, names: dict[int, str]) -> str:
    """A delivery's channel in the reader's words: "Email", "Push to my phone", a channel's name."""
    family, _sep, ident = channel.partition(":")
    if family == "league":
        return names.get(int(ident), "") if ident.isdigit() else ""
    return str(CHANNEL_LABELS.get(family, family))


def league_sends(*, league: League) -> dict[str, Any]:
    """What the league's admins see: failed and outcome-unknown sends with their reasons, what
    waits (with the last error of a send being retried), counts by status, the channels."""
    rows = Delivery.objects.filter(league=league).select_related("notification__recipient")
    names = dict(LeagueChannel.objects.filter(league=league).values_list("pk", "name"))
    trouble = [
        {
            "id": d.pk,
            "channel": channel_words(d.channel, names),
            "status": d.get_status_display(),
            "retryable": d.status in (Delivery.Status.FAILED, Delivery.Status.UNKNOWN),
            "kind": KINDS[d.notification.kind].label,
            "recipient": d.notification.recipient.get_username() if d.notification.recipient else "",
            "attempts": d.attempts,
            "error": reason_words(d.last_error),
            "next": d.next_attempt_at,
        }
        for d in rows.exclude(status=Delivery.Status.SENT)
        .exclude(status=Delivery.Status.PENDING, last_error="")
        .order_by("-next_attempt_at")[:200]
    ]
    counts = {s.label: rows.filter(status=s.value).count() for s in Delivery.Status}
    channels = LeagueChannel.objects.filter(league=league, active=True).order_by("name")
    return {"trouble": trouble, "counts": counts, "channels": channels}
