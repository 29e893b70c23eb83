"""A notification is bounded (notifications.services, rendering, channels): its parameters at most
4,000 bytes (refused above, before anything is written), its subject 150 and its text 2,000
characters when rendered, a push's payload 3,000 bytes (under the 4 KB a push service accepts)."""

from __future__ import annotations

import json

import pytest

from kyoku.principals import SYSTEM
from notifications import channels, services
from notifications.models import Delivery, Notification
from notifications.rendering import render
from tests.actors import make_user


def test_parameters_over_the_bound_are_refused_and_nothing_is_written(db):
    user = make_user("bounded")
    services.notification_send(
        kind="application_decided", recipients=[user], league=None, params={"reason": "x" * 3900}, actor=SYSTEM
    )
    with pytest.raises(ValueError, match="4000 bytes"):
        services.notification_send(
            kind="application_decided", recipients=[user], league=None, params={"reason": "語" * 1400}, actor=SYSTEM
        )  # 1,400 characters, 4,200 bytes
    assert Notification.objects.count() == 1


def test_words_and_payload_are_clipped(db):
    user = make_user("clipped")
    long_name = Notification(kind="promotion_relegation", params={"division": {"en": "D" * 400}, "moved": "up"})
    subject = render(long_name, "en")[0]
    assert len(subject) == 150 and subject.startswith("Promoted to DDD") and subject.endswith("…")
    n = Notification.objects.create(recipient=user, kind="application_decided", params={"reason": "長" * 3500})
    subject, body = render(n, "en")
    assert len(body) == 2000 and body.endswith("…")
    delivery = Delivery.objects.create(notification=n, channel="push:1")
    payload = channels.push_payload(delivery)
    assert len(payload) <= 3000 and json.loads(payload)["title"] == subject
