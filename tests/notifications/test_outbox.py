"""The outbox's guarantees, with a real SMTP server (aiosmtpd) receiving the emails: written in the
fact's transaction (rolled back with it), sent after the commit, never twice (a repeated task, the
sweep, a crash after the send), nothing lost with the mail server or the broker down, bounded by a
rate limit per league and channel, quiet hours, and the one-click unsubscribe."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone

from kyoku.principals import SYSTEM
from notifications import services
from notifications.models import Delivery, Notification, Preferences
from tests.actors import make_user

PARAMS = {
    "league": {"en": "Hong Kong Riichi League", "zh": "香港立直麻雀聯賽"},
    "season": "2026 season 2",
    "approved": True,
}


@pytest.fixture
def reader(db):
    user = make_user("reader", email="reader@example.org")
    Preferences.objects.create(user=user, language="zh-hant")
    return user


def _send(user, league, kind="application_decided", key="", params=PARAMS):
    with transaction.atomic():
        return services.notification_send(
            kind=kind, recipients=[user], league=league, params=params, link="/me/", key=key, actor=SYSTEM
        )


def test_an_email_reaches_the_smtp_server_once_in_the_readers_language(
    smtp, reader, league, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        _send(reader, league)
    delivery = Delivery.objects.get()
    assert delivery.status == "pending" and smtp.messages == []  # nothing leaves before the commit
    for callback in queued:
        callback()
    delivery.refresh_from_db()
    assert delivery.status == "sent" and delivery.attempts == 1
    [(to, message)] = smtp.messages
    assert to == ["reader@example.org"]
    assert message["Subject"] == "你的資格申請已獲批准"
    assert message["Message-ID"] == f"<{delivery.idempotency_key}@127.0.0.1>"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "香港立直麻雀聯賽 · 2026 season 2" in message.get_content()
    # the task again, the sweep: the row is sent, nothing goes twice
    assert services.delivery_attempt(delivery.pk) == ("skipped", 0)
    assert services.deliveries_sweep()["due"] == []
    assert len(smtp.messages) == 1


def test_a_rolled_back_fact_tells_nobody(smtp, reader, league, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError):
            with transaction.atomic():
                services.notification_send(
                    kind="application_decided", recipients=[reader], league=league, params=PARAMS, actor=SYSTEM
                )
                raise RuntimeError("the fact failed")
    assert Notification.objects.count() == 0 and smtp.messages == []


def test_mail_server_down_delays_and_loses_nothing(smtp, reader, league, django_capture_on_commit_callbacks):
    smtp.refuse = True
    with django_capture_on_commit_callbacks(execute=True):
        _send(reader, league)
    delivery = Delivery.objects.get()
    assert delivery.status == "pending" and delivery.attempts == 1
    assert "451" in delivery.last_error
    wait = (delivery.next_attempt_at - timezone.now()).total_seconds()
    assert 25 < wait <= 30  # the first backoff
    assert services.deliveries_sweep()["due"] == []  # not due yet
    smtp.refuse = False
    later = timezone.now() + datetime.timedelta(seconds=31)
    assert services.deliveries_sweep(now=later)["due"] == [delivery.pk]
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    assert services.delivery_attempt(delivery.pk)[0] == "sent"
    assert services.delivery_attempt(delivery.pk)[0] == "skipped"
    assert len(smtp.messages) == 1


def test_backoff_doubles_and_gives_up_with_a_reason(smtp, reader, league):
    assert [services.backoff(n) for n in (1, 2, 3, 4, 8, 20)] == [30, 60, 120, 240, 3600, 3600]
    smtp.refuse = True
    _send(reader, league)
    delivery = Delivery.objects.get()
    for _ in range(services.MAX_ATTEMPTS):
        Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
        outcome, _wait = services.delivery_attempt(delivery.pk)
    delivery.refresh_from_db()
    assert outcome == "failed" and delivery.status == "failed" and delivery.attempts == services.MAX_ATTEMPTS
    assert "451" in delivery.last_error


def test_broker_down_leaves_deliveries_for_the_sweep(
    smtp, reader, league, monkeypatch, django_capture_on_commit_callbacks
):
    import types

    from notifications import tasks

    def refused(*args, **kwargs):  # what kombu raises when Redis is down
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    broker_down = types.SimpleNamespace(
        app=types.SimpleNamespace(conf=types.SimpleNamespace(task_always_eager=False)), apply_async=refused
    )
    monkeypatch.setattr(tasks, "delivery_send", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        _send(reader, league)  # the request is not failed by the broker
    delivery = Delivery.objects.get()
    assert delivery.status == "pending" and delivery.attempts == 0 and smtp.messages == []
    monkeypatch.undo()  # the broker is back: beat's sweep queues what is due
    assert tasks.deliveries_sweep.apply().get()["due"] == 1
    delivery.refresh_from_db()
    assert delivery.status == "sent" and len(smtp.messages) == 1


def test_a_crash_after_the_send_is_not_sent_again_by_email_but_shown(smtp, reader, league):
    _send(reader, league)
    delivery = Delivery.objects.get()
    # what a worker killed between the SMTP server's 250 and the "sent" mark leaves
    long_ago = timezone.now() - services.LEASE - datetime.timedelta(seconds=1)
    Delivery.objects.filter(pk=delivery.pk).update(status="sending", attempts=1, claimed_at=long_ago)
    found = services.deliveries_sweep()
    delivery.refresh_from_db()
    assert found["unknown"] == 1 and found["due"] == [] and delivery.status == "unknown"
    assert delivery.last_error == "outcome_unknown" and smtp.messages == []
    # a claim younger than the lease is another sender at work: left alone
    Delivery.objects.filter(pk=delivery.pk).update(status="sending", claimed_at=timezone.now())
    assert services.deliveries_sweep()["unknown"] == 0


def test_rate_limit_per_league_and_channel_delays(smtp, reader, league, settings):
    settings.NOTIFY_RATE_EMAIL = 2
    for key in ("a", "b", "c"):
        _send(reader, league, key=key)
    outcomes = [services.delivery_attempt(d.pk)[0] for d in Delivery.objects.order_by("pk")]
    assert outcomes == ["sent", "sent", "delayed"]
    third = Delivery.objects.order_by("pk").last()
    first_sent = Delivery.objects.order_by("pk").first().sent_at
    assert third.status == "pending" and third.attempts == 0
    assert third.next_attempt_at == first_sent + datetime.timedelta(seconds=60)
    assert len(smtp.messages) == 2


def test_the_same_fact_is_told_once(reader, league):
    _send(reader, league, key="application:7")
    _send(reader, league, key="application:7")
    assert Notification.objects.count() == 1 and Delivery.objects.count() == 1


def test_parameters_are_bounded(reader, league):
    with pytest.raises(ValueError):
        _send(reader, league, params={**PARAMS, "reason": "x" * 5000})


def test_quiet_hours_hold_sends_until_they_end(reader, league, settings):
    now = timezone.localtime()
    prefs = Preferences.objects.get(user=reader)
    prefs.quiet_start = (now - datetime.timedelta(hours=1)).time().replace(second=0, microsecond=0)
    prefs.quiet_end = (now + datetime.timedelta(hours=1)).time().replace(second=0, microsecond=0)
    prefs.save()
    _send(reader, league)
    delivery = Delivery.objects.get()
    assert timezone.localtime(delivery.next_attempt_at).time().replace(second=0) == prefs.quiet_end
    assert services.delivery_attempt(delivery.pk)[0] == "skipped"  # not due


def test_one_click_unsubscribe_from_the_email(smtp, reader, league, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _send(reader, league)
    [(_to, message)] = smtp.messages
    url = re.fullmatch(r"<(.+)>", "".join(str(message["List-Unsubscribe"]).split())).group(1)
    assert url in message.get_content()  # also in the text, for a reader without the header
    path = url.removeprefix("http://127.0.0.1:8000")
    # RFC 8058: the mail service posts "List-Unsubscribe=One-Click", no login, no CSRF token
    client = Client(enforce_csrf_checks=True)
    assert client.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert Preferences.objects.get(user=reader).wants("application_decided", "email") is False
    assert Preferences.objects.get(user=reader).wants("penalty_issued", "email") is True
    _send(reader, league, key="next")
    assert Delivery.objects.count() == 1  # the inbox still gets it, no email is queued
    assert Notification.objects.filter(recipient=reader).count() == 2
    tampered = path[:-3] + ("AAA" if not path.endswith("AAA") else "BBB")
    assert client.post(tampered).status_code == 400
