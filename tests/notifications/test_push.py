"""Web Push end to end: a local HTTP server stands for the push service. The subscription is a
browser's (a P-256 key pair and an auth secret made here, as the Push API makes them); the post it
receives carries a VAPID authorization signed by the server's key and the delivery's Topic, and
its body, decrypted with the subscription's private key (RFC 8291, aes128gcm), is the
notification in the recipient's language. A subscription the push service no longer knows (410)
is forgotten and the delivery fails with that reason, not retried."""

from __future__ import annotations

import base64
import json
import os

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.db import transaction

from kyoku.principals import SYSTEM
from notifications import services
from notifications.models import Delivery, Preferences, PushSubscription
from notifications.vapid import vapid_keys_generate
from tests.actors import make_user


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


@pytest.fixture
def phone(db, http_receiver, settings):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = vapid_keys_generate()
    settings.PUSH_HTTP_ENDPOINTS = True
    user = make_user("walker")
    Preferences.objects.create(user=user, language="ja")
    key = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    # the local push service is plain HTTP on loopback (DEBUG allows it; a real one is https)
    sub = services.push_subscribe(
        user=user, endpoint=f"{http_receiver.url}/push/device-1", p256dh=_b64(public), auth=_b64(auth), actor=user
    )
    return user, key, auth, sub


def test_a_push_reaches_the_push_service_encrypted_signed_and_in_the_users_language(
    phone, http_receiver, league, settings, django_capture_on_commit_callbacks
):
    user, key, auth, sub = phone
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            services.notification_send(
                kind="referee_call",
                recipients=[user],
                league=league,
                params={"event": "Autumn Open", "round": 2, "table": 7, "reason": "dispute"},
                link="/events/1/desk/",
                actor=SYSTEM,
            )
    delivery = Delivery.objects.get(channel=f"push:{sub.pk}")
    assert delivery.status == "sent"
    [(path, headers, body)] = http_receiver.requests
    assert path == "/push/device-1"
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["topic"] == delivery.idempotency_key.hex  # a repeat replaces, never adds
    # VAPID (RFC 8292): "vapid t=<JWT>, k=<the server's public key>", the JWT signed by its key
    scheme, _, rest = headers["authorization"].partition(" ")
    parts = dict(p.strip().split("=", 1) for p in rest.split(","))
    assert scheme == "vapid" and parts["k"] == settings.VAPID_PUBLIC_KEY
    head, claims, signature = parts["t"].split(".")
    raw = base64.urlsafe_b64decode(signature + "==")
    server_key = ec.EllipticCurvePublicKey.from_encoded_point(
        ec.SECP256R1(), base64.urlsafe_b64decode(parts["k"] + "==")
    )
    server_key.verify(  # ES256: raises unless the server's key signed it
        encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
        f"{head}.{claims}".encode(),
        ec.ECDSA(hashes.SHA256()),
    )
    jwt_payload = json.loads(base64.urlsafe_b64decode(claims + "=="))
    assert jwt_payload["aud"] == http_receiver.url and jwt_payload["sub"] == settings.VAPID_SUBJECT
    payload = json.loads(http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm"))
    assert payload == {
        "title": "7卓に審判が必要です",
        "body": "Autumn Open\n卓の対局者が最終持ち点に合意していません。",
        "url": "/events/1/desk/",
        "tag": str(delivery.notification_id),
    }


def test_a_subscription_gone_is_forgotten_not_retried(phone, http_receiver, league):
    user, _key, _auth, sub = phone
    http_receiver.status = 410
    services.notification_send(kind="referee_call", recipients=[user], league=league, params={"table": 1}, actor=SYSTEM)
    delivery = Delivery.objects.get()
    assert services.delivery_attempt(delivery.pk)[0] == "failed"
    delivery.refresh_from_db()
    assert delivery.status == "failed" and delivery.last_error == "push_gone (410)"
    assert not PushSubscription.objects.filter(pk=sub.pk).exists()


def test_a_push_service_down_is_retried_and_a_stale_claim_sent_again(phone, http_receiver, league):
    user, _key, _auth, _sub = phone
    http_receiver.status = 503
    services.notification_send(kind="referee_call", recipients=[user], league=league, params={"table": 1}, actor=SYSTEM)
    delivery = Delivery.objects.get()
    assert services.delivery_attempt(delivery.pk)[0] == "retry"
    # a worker that died after handing a push over: the same Topic is sent again (it collapses)
    import datetime

    from django.utils import timezone

    long_ago = timezone.now() - services.LEASE - datetime.timedelta(seconds=5)
    Delivery.objects.filter(pk=delivery.pk).update(status="sending", claimed_at=long_ago, next_attempt_at=long_ago)
    http_receiver.status = 201
    assert services.deliveries_sweep()["due"] == [delivery.pk]
    assert services.delivery_attempt(delivery.pk)[0] == "sent"
    topics = {h["topic"] for _p, h, _b in http_receiver.requests}
    assert topics == {delivery.idempotency_key.hex}
