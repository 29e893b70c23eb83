"""Push subscriptions (issue 47 §2): the address rule for the endpoint (at saving and at sending),
keys of the form the Push API makes, and an endpoint that stays with the account that registered
it."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client

from kyoku.principals import SYSTEM
from notifications import services
from notifications.models import Delivery, PushSubscription
from notifications.vapid import vapid_keys_generate
from tests.actors import make_user
from tests.outbound.helpers import b64, fake_dns, push_keys

API = "/api/me/push-subscriptions/"


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def _post(client, endpoint, keys=None):
    return client.post(API, {"endpoint": endpoint, "keys": keys or push_keys()}, content_type="application/json")


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://127.0.0.1:8443/push/1",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::1]:8443/push/1",
        "https://[::ffff:127.0.0.1]/push/1",
        "https://10.0.0.3/push/1",
        "https://[fd00::3]/push/1",
        "https://localhost/push/1",
        "https://0.0.0.0/push/1",
    ],
)
def test_internal_endpoints_are_refused(db, endpoint):
    user = make_user("walker")
    answer = _post(_client(user), endpoint)
    assert answer.status_code == 400
    assert "The server posts only to public internet addresses." in answer.json()["errors"]["endpoint"][0]
    assert not PushSubscription.objects.exists()


def test_an_endpoint_name_resolving_to_loopback_is_refused(db, monkeypatch):
    fake_dns(monkeypatch, {"push.example.net": ["::1"]})
    answer = _post(_client(make_user("walker")), "https://push.example.net/send/1")
    assert answer.status_code == 400 and "loopback" in answer.json()["errors"]["endpoint"][0]


def test_plain_http_is_refused_outside_development(db, monkeypatch, settings):
    settings.PUSH_HTTP_ENDPOINTS = False
    fake_dns(monkeypatch, {"push.example.net": ["93.184.215.14"]})
    answer = _post(_client(make_user("walker")), "http://push.example.net/send/1")
    assert answer.status_code == 400 and answer.json()["errors"]["endpoint"] == ["A push endpoint is an https URL."]


def _point_off_the_curve() -> str:
    return b64(b"\x04" + b"\x01" * 64)


@pytest.mark.parametrize(
    "keys,words",
    [
        ({"p256dh": "BExample", "auth": "secret"}, "65-byte P-256"),
        ({"p256dh": b64(b"\x04" + b"\x02" * 63), "auth": b64(b"a" * 16)}, "65-byte P-256"),  # 64 bytes
        ({"p256dh": b64(b"\x03" + b"\x02" * 64), "auth": b64(b"a" * 16)}, "65-byte P-256"),  # not 0x04
        ({"p256dh": "not base64!" * 8, "auth": b64(b"a" * 16)}, "65-byte P-256"),
        ({"p256dh": _point_off_the_curve(), "auth": b64(b"a" * 16)}, "not a point on the P-256 curve"),
        ({"auth": b64(b"a" * 15)}, "16 bytes"),
        ({"auth": b64(b"a" * 17)}, "16 bytes"),
        ({"auth": "%%%"}, "16 bytes"),
    ],
)
def test_garbage_keys_are_refused(db, monkeypatch, keys, words):
    fake_dns(monkeypatch, {"push.example.net": ["93.184.215.14"]})
    answer = _post(_client(make_user("walker")), "https://push.example.net/send/1", {**push_keys(), **keys})
    assert answer.status_code == 400 and words in answer.json()["errors"]["keys"][0]
    assert not PushSubscription.objects.exists()


def test_an_endpoint_is_never_moved_to_another_account(db, monkeypatch):
    fake_dns(monkeypatch, {"push.example.net": ["93.184.215.14"]})
    walker, mallory = make_user("walker"), make_user("mallory")
    endpoint = "https://push.example.net/send/walkers-phone"
    first = _post(_client(walker), endpoint)
    assert first.status_code == 201
    taken = _post(_client(mallory), endpoint)
    assert taken.status_code == 409
    assert taken.json()["errors"]["endpoint"] == ["This push endpoint belongs to another account."]
    sub = PushSubscription.objects.get()
    assert sub.user == walker and sub.pk == first.json()["id"]
    # the owner's browser sends it again (new keys): the same row, its keys updated
    keys = push_keys()
    again = _post(_client(walker), endpoint, keys)
    assert again.status_code == 201 and again.json()["id"] == sub.pk
    sub.refresh_from_db()
    assert (sub.user, sub.p256dh, sub.auth) == (walker, keys["p256dh"], keys["auth"])
    # and the other account's own delete leaves it alone
    assert _client(mallory).delete(API, {"endpoint": endpoint}, content_type="application/json").status_code == 204
    assert PushSubscription.objects.filter(user=walker).count() == 1


def test_dns_rebinding_at_send_time_reaches_nothing(
    db, monkeypatch, settings, internal, django_capture_on_commit_callbacks
):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = vapid_keys_generate()
    settings.PUSH_HTTP_ENDPOINTS = True
    user = make_user("walker")
    fake_dns(monkeypatch, {"push.example.net": ["93.184.215.14"]})
    sub = services.push_subscribe(
        user=user, endpoint=f"http://push.example.net:{internal.port}/send/1", actor=user, **push_keys()
    )
    fake_dns(monkeypatch, {"push.example.net": ["127.0.0.1"]})
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            services.notification_send(
                kind="referee_call", recipients=[user], league=None, params={"table": 7}, actor=SYSTEM
            )
    delivery = Delivery.objects.get(channel=f"push:{sub.pk}")
    assert (delivery.status, delivery.last_error) == ("failed", "address_loopback")
    assert internal.requests == []
