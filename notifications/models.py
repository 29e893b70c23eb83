"""Notifications and their outbox.

A ``Notification`` is the fact told to one person (or, with no recipient, a public announcement
of a league); it stores the kind and its parameters, never words: each reader (the inbox, an
email, a phone) renders it in its own language. A ``Delivery`` is one send of it on one channel,
unique per (notification, channel): written in the same transaction as the fact, then sent by a
Celery task (notifications.services.delivery_attempt)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from kyoku.models import League

from .kinds import KINDS


class Notification(models.Model):
    LEAGUE_PATH = "league"

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="notifications"
    )  # none: a public announcement (the league's channels only)
    kind = models.CharField(max_length=32, choices=[(k, v.label) for k, v in KINDS.items()])
    league = models.ForeignKey(League, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    params = models.JSONField(default=dict)
    link = models.CharField(max_length=300, blank=True)
    # the fact's own key (e.g. a seating plan's revision): the same fact told twice is one row
    key = models.CharField(max_length=120, blank=True)
    created = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["recipient", "-created"], name="notif_recipient_created")]
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "kind", "key"], condition=~models.Q(key=""), name="uniq_notification_fact"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} → {self.recipient_id or 'public'}"


class Delivery(models.Model):
    """One send on one channel: ``email``, ``push:<subscription id>`` or ``league:<channel id>``."""

    LEAGUE_PATH = "league"

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        SENDING = "sending", _("Being sent")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")
        UNKNOWN = "unknown", _("Outcome unknown")

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(max_length=40)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # given to the channel where it can use it (an email's Message-ID, a push's Topic and tag)
    idempotency_key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    league = models.ForeignKey(League, on_delete=models.CASCADE, null=True, blank=True, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["notification", "channel"], name="uniq_delivery_channel")]
        indexes = [
            models.Index(fields=["status", "next_attempt_at"], name="delivery_due"),
            models.Index(fields=["league", "channel", "sent_at"], name="delivery_rate"),
        ]

    def __str__(self) -> str:
        return f"{self.notification_id} {self.channel} {self.status}"


class Preferences(models.Model):
    """A user's choices: kinds × channels (``choices``: kind → channel → on/off, what is not there
    follows the kind's default), quiet hours (sends wait until they end) and the language every
    notification is written to them in."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notify_prefs")
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES, default="en")
    choices = models.JSONField(default=dict, blank=True)
    quiet_start = models.TimeField(_("quiet from"), null=True, blank=True)
    quiet_end = models.TimeField(_("quiet until"), null=True, blank=True)

    def wants(self, kind: str, channel: str) -> bool:
        chosen = (self.choices or {}).get(kind, {})
        if channel in chosen:
            return bool(chosen[channel])
        return channel in KINDS[kind].defaults


class PushSubscription(models.Model):
    """A browser's Web Push subscription (the Push API's endpoint and keys)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=600, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created = models.DateTimeField(default=timezone.now)


class LeagueChannel(models.Model):
    """A league's own public channel (Telegram, Discord, Slack, Matrix, a webhook…), an Apprise URL.
    It carries public announcements only (kinds.PUBLIC_KINDS)."""

    LEAGUE_PATH = "league"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="notify_channels")
    name = models.CharField(_("name"), max_length=80)
    url = models.CharField(_("Apprise URL"), max_length=500)  # holds the service's token: admins only
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES, default="en")
    active = models.BooleanField(default=True)
    created = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.name
