"""The demo's notifications: the logins' choices (the referee hears calls by email and on the
phone, the player keeps quiet hours and reads in Traditional Chinese), part of the player's inbox
read, and on the Hong Kong league's sends page one email that failed, with its reason. The inbox
itself fills from the demo's facts (seating, rulings, penalties, applications, promotion), told by
the services that made them."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from kyoku.models import League
from kyoku.principals import System

from . import services
from .kinds import EMAIL
from .models import Delivery, Notification

SEED = System("command:seed_demo")


def notifications_seed(*, league: League) -> None:
    users = get_user_model().objects
    player, referee, admin = (users.get(username=u) for u in ("player", "referee", "admin"))
    for user, address in ((player, "player@example.org"), (referee, "referee@example.org")):
        if not user.email:
            user.email = address
            user.save(update_fields=["email"])
    services.preferences_set(
        user=player,
        choices={"result_to_confirm": {"email": False, "push": True}, "registration_open": {"email": False}},
        language="zh-hant",
        quiet_start=datetime.time(23, 0),
        quiet_end=datetime.time(7, 30),
        actor=SEED,
    )
    services.preferences_set(
        user=referee,
        choices={"referee_call": {"email": True, "push": True}, "ruling_appealed": {"email": True, "push": True}},
        language="en",
        actor=SEED,
    )
    services.preferences_set(user=admin, language="ja", actor=SEED)
    # the older half of the player's inbox read
    mine = list(Notification.objects.filter(recipient=player).order_by("created", "pk").values_list("pk", flat=True))
    Notification.objects.filter(pk__in=mine[: len(mine) // 2]).update(read_at=timezone.now())
    _one_send_failed(league, referee)


def _one_send_failed(league: League, referee: Any) -> None:
    """A send that failed, with its reason, for the league's admins to see and send again: one
    email the demo really sent (preferably the referee's), marked failed; never a made-up fact
    told to someone it does not concern (the referee applied for nothing)."""
    emails = Delivery.objects.filter(
        notification__league=league, notification__recipient__isnull=False, channel=EMAIL
    ).order_by("-pk")
    delivery = emails.filter(notification__recipient=referee).first() or emails.first()
    if delivery is None:
        return
    recipient = delivery.notification.recipient
    address = (recipient.email if recipient is not None else "") or "referee@example.org"
    Delivery.objects.filter(pk=delivery.pk).update(
        status=Delivery.Status.FAILED,
        attempts=services.MAX_ATTEMPTS,
        last_error=f"SMTPRecipientsRefused: 550 5.1.1 <{address}>: mailbox unavailable",
    )
