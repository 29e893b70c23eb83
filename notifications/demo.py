"""The demo's notifications: the logins' choices (the referee hears calls by email and on the
phone, the player keeps quiet hours and reads in Traditional Chinese), part of the player's inbox
read, and on the Hong Kong league's sends page one email that failed, with its reason. The inbox
itself fills from the demo's facts (seating, rulings, penalties, applications, promotion), told by
the services that made them."""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.utils import timezone

from kyoku.models import League
from kyoku.principals import System

from . import services
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
    # a send that failed, with its reason, for the league's admins to see and send again
    failed = services.notification_send(
        kind="application_decided",
        recipients=[referee],
        league=league,
        params={"league": services.league_words(league), "season": "2026 S2", "approved": True},
        link="/me/",
        key="demo:failed-send",
        actor=SEED,
    )
    Delivery.objects.filter(notification__in=failed).update(
        status=Delivery.Status.FAILED,
        attempts=services.MAX_ATTEMPTS,
        last_error="SMTPRecipientsRefused: 550 5.1.1 <referee@example.org>: mailbox unavailable",
    )
