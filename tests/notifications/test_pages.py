"""The inbox (page and API), my choices, a league's sends for its admins (a failure and its
reason, sent again), the push subscription API, the manifest and the service worker."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from kyoku.principals import SYSTEM
from notifications import services
from notifications.models import Delivery, Notification, Preferences, PushSubscription
from tests.actors import make_user

PARAMS = {"league": {"en": "Test League", "zh": "測試聯賽"}, "season": "2026 S1", "approved": True}


@pytest.fixture
def reader(db):
    return make_user("reader", email="reader@example.org")


def _client(user=None, language="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    return client


def test_inbox_page_and_api_read_and_unread(reader, league):
    services.notification_send(
        kind="application_decided", recipients=[reader], league=league, params=PARAMS, actor=SYSTEM
    )
    services.notification_send(
        kind="registration_open", recipients=[reader], league=league, params=PARAMS, link="/", actor=SYSTEM
    )
    client = _client(reader, "zh-hant")
    page = client.get("/me/notifications/").content.decode()
    assert "你的資格申請已獲批准" in page and "開始報名：2026 S1" in page and "未讀：2。" in page
    # the reader's language is kept for what is sent later (first seen)
    assert Preferences.objects.get(user=reader).language == "zh-hant"
    api = client.get("/api/me/notifications/?unread=1").json()
    assert api["count"] == 2 and api["unread"] == 2
    assert [r["kind"] for r in api["results"]] == ["registration_open", "application_decided"]
    first = api["results"][1]["id"]
    assert client.post("/me/notifications/", {"action": "read", "id": [first]}).status_code == 302
    assert Notification.objects.get(pk=first).read_at is not None
    answer = client.post("/api/me/notifications/read/", {"all": True}, content_type="application/json").json()
    assert answer == {"marked": 1, "unread": 0}
    assert client.post("/api/me/notifications/read/", {}, content_type="application/json").status_code == 400


def test_choices_page_saves_kinds_channels_language_and_quiet_hours(reader):
    client = _client(reader)
    response = client.post(
        "/me/notifications/settings/",
        {
            "referee_call:email": "on",
            "referee_call:push": "on",
            "language": "ja",
            "quiet_start": "23:00",
            "quiet_end": "07:30",
        },
    )
    assert response.status_code == 302
    prefs = Preferences.objects.get(user=reader)
    assert prefs.language == "ja" and prefs.quiet_start == datetime.time(23) and prefs.quiet_end == datetime.time(7, 30)
    assert prefs.wants("referee_call", "email") and not prefs.wants("seating_published", "email")
    bad = client.post("/me/notifications/settings/", {"quiet_start": "25:99"})
    assert bad.status_code == 200 and Preferences.objects.get(user=reader).quiet_start == datetime.time(23)


def test_a_failure_is_shown_to_the_leagues_admins_with_its_reason(reader, league, admin):
    services.notification_send(
        kind="application_decided", recipients=[reader], league=league, params=PARAMS, actor=SYSTEM
    )
    delivery = Delivery.objects.get()
    Delivery.objects.filter(pk=delivery.pk).update(
        status="failed", attempts=8, last_error="SMTPRecipientsRefused: 550 mailbox unavailable"
    )
    client = _client(admin)
    page = client.get(f"/leagues/{league.slug}/notifications/").content.decode()
    assert "550 mailbox unavailable" in page and "reader" in page
    assert (
        client.post(f"/leagues/{league.slug}/notifications/", {"action": "retry", "id": [delivery.pk]}).status_code
        == 302
    )
    delivery.refresh_from_db()
    # sent again (in-process here: the console backend of the tests takes it)
    assert delivery.status in ("pending", "sent") and delivery.attempts <= 1
    assert _client(reader).get(f"/leagues/{league.slug}/notifications/").status_code == 403


def test_push_subscription_api(reader, monkeypatch):
    from tests.outbound.helpers import fake_dns, push_keys

    fake_dns(monkeypatch, {"push.example.org": ["93.184.215.14"]})
    client = _client(reader)
    body = {"endpoint": "https://push.example.org/send/abc", "keys": push_keys()}
    assert client.post("/api/me/push-subscriptions/", body, content_type="application/json").status_code == 201
    assert PushSubscription.objects.get().user == reader
    services.notification_send(kind="referee_call", recipients=[reader], league=None, params={"table": 1}, actor=SYSTEM)
    assert sorted(Delivery.objects.values_list("channel", flat=True)) == [
        "email",
        f"push:{PushSubscription.objects.get().pk}",
    ]
    missing = client.post(
        "/api/me/push-subscriptions/", {"endpoint": "https://x.example/"}, content_type="application/json"
    )
    assert missing.status_code == 400 and "keys" in str(missing.json())
    assert client.delete("/api/me/push-subscriptions/", body, content_type="application/json").status_code == 204
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "language,name", [("en", "Kyoku mahjong league"), ("zh-hant", "局 麻雀聯賽"), ("ja", "局 麻雀リーグ")]
)
def test_manifest_in_three_languages(db, language, name):
    response = _client(language=language).get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    data = response.json()
    assert data["display"] == "standalone" and data["start_url"].startswith("/me/")
    assert {i["sizes"] for i in data["icons"]} == {"192x192", "512x512"}
    assert data["lang"] == language and data["name"] == name


def test_service_worker_served_for_the_whole_site(db):
    response = _client().get("/sw.js")
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    text = response.content.decode()
    assert 'addEventListener("push"' in text and 'request.method !== "GET"' in text


def test_quiet_hours_across_midnight():
    prefs = Preferences(quiet_start=datetime.time(23), quiet_end=datetime.time(7))
    tz = timezone.get_current_timezone()
    late = datetime.datetime(2026, 11, 27, 23, 30, tzinfo=tz)
    assert timezone.localtime(services.quiet_until(prefs, late)) == datetime.datetime(2026, 11, 28, 7, 0, tzinfo=tz)
    early = datetime.datetime(2026, 11, 28, 6, 59, tzinfo=tz)
    assert timezone.localtime(services.quiet_until(prefs, early)) == datetime.datetime(2026, 11, 28, 7, 0, tzinfo=tz)
    day = datetime.datetime(2026, 11, 28, 12, 0, tzinfo=tz)
    assert services.quiet_until(prefs, day) == day


def test_league_channels_on_the_sends_page_and_a_refused_post_retried(admin, league, http_receiver):
    client = _client(admin)
    url = f"/leagues/{league.slug}/notifications/"
    bad = client.post(url, {"action": "channel_add", "name": "Chat", "url": "nothing://here"}, follow=True)
    assert "Only these channels: Discord (discord://)" in bad.content.decode()
    hook = f"json://{http_receiver.url[7:]}/hook"
    client.post(url, {"action": "channel_add", "name": "Club chat", "url": hook, "language": "ja"})
    http_receiver.status = 500
    announced = services.announce(
        kind="registration_open", league=league, params={**PARAMS, "season": "2026 S2"}, actor=SYSTEM
    )
    delivery = announced.deliveries.get()
    assert services.delivery_attempt(delivery.pk)[0] == "retry"
    page = client.get(url).content.decode()
    assert (
        "Club chat" in page
        and "The server answered with an error: the service did not accept the post" in page
        and "RuntimeError" not in page
    )
    http_receiver.status = 200
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    assert services.delivery_attempt(delivery.pk)[0] == "sent"
    assert [http_receiver.json(i)["title"] for i in range(2)] == ["受付開始：2026 S2"] * 2  # in the channel's language
