"""Writing notifications and sending their deliveries.

**Nothing lost.** ``notification_send`` and ``announce`` are called inside the transaction of the
fact they report: the notification and one ``Delivery`` per channel are written with it, or not
at all. After the commit each delivery is queued (``notifications.queue``); a broker that is down
only delays it: the periodic sweep (``deliveries_sweep``, Celery beat every minute) queues every
delivery that is due and was not sent.

**Nothing twice.** A delivery is unique per (notification, channel). A sender first *claims* it
with one conditional UPDATE (pending and due → sending), so two workers, a retry and the sweep
never send the same row at once; after the send it is marked sent. What no outbox can know is a
crash between the channel's acceptance and that mark: the row is left *sending*. The sweep then
treats it by channel: a Web Push is sent again with the same Topic and notification tag, which the
push service and the browser collapse into the one notification already shown; an email or a
public post is **not** sent again (SMTP and the chat services have no idempotency key) but marked
*outcome unknown* and shown to the league's admins, who may send it again by hand. So a send
that succeeded is never repeated by the system; at worst one whose outcome is unknown waits for
a person.

**Bounded.** A league's sends on one channel are rate-limited (``RATE_LIMITS``: over the limit a
delivery waits for the window to pass, nothing is dropped); a notification's parameters are at
most PARAMS_MAX bytes and its words are clipped (notifications.rendering).
"""

from __future__ import annotations

import datetime
import json
import logging
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext

from kyoku.audit import audit_log_write
from kyoku.models import League
from kyoku.principals import Actor, actor_require

from . import channels, outbound
from .kinds import CHANNELS, EMAIL, KINDS, PUSH, kind_get
from .models import Delivery, LeagueChannel, Notification, Preferences, PushSubscription

logger = logging.getLogger(__name__)

PARAMS_MAX = 4000  # bytes of a notification's parameters (JSON)
MAX_ATTEMPTS = 8
BACKOFF_CAP = 3600
LEASE = datetime.timedelta(minutes=10)  # a delivery claimed longer ago than this: its sender died
UNSUBSCRIBE_SALT = "notifications.unsubscribe"


def _rate_limits() -> dict[str, tuple[int, int]]:
    """channel family → (sends, per seconds), per league."""
    return {
        "email": (settings.NOTIFY_RATE_EMAIL, 60),
        "push": (settings.NOTIFY_RATE_PUSH, 60),
        "league": (settings.NOTIFY_RATE_LEAGUE_CHANNEL, 3600),
    }


def family(channel: str) -> str:
    return channel.split(":", 1)[0]


# ---------------------------------------------------------------- preferences


def preferences_of(user: Any) -> Preferences:
    prefs = Preferences.objects.filter(user=user).first()
    return prefs if prefs is not None else Preferences(user=user)


def quiet_until(prefs: Preferences, now: datetime.datetime) -> datetime.datetime:
    """When a send to this user may go: now, or the end of their quiet hours (local time)."""
    if prefs.quiet_start is None or prefs.quiet_end is None or prefs.quiet_start == prefs.quiet_end:
        return now
    local = timezone.localtime(now)
    t, start, end = local.time(), prefs.quiet_start, prefs.quiet_end
    quiet = (start <= t < end) if start < end else (t >= start or t < end)
    if not quiet:
        return now
    until = local.replace(hour=end.hour, minute=end.minute, second=0, microsecond=0)
    if until <= local:
        until += datetime.timedelta(days=1)
    return until


@transaction.atomic
def preferences_set(
    *,
    user: Any,
    choices: dict[str, dict[str, bool]] | None = None,
    language: str | None = None,
    quiet_start: datetime.time | None = None,
    quiet_end: datetime.time | None = None,
    actor: Actor,
) -> Preferences:
    """Save a user's choices (only the user or the system may)."""
    actor_require(actor)
    if getattr(actor, "pk", None) not in (None, user.pk):
        raise ValidationError({"user": [gettext("only the user chooses their notifications")]})
    prefs, _created = Preferences.objects.select_for_update().get_or_create(user=user)
    if choices is not None:
        clean: dict[str, dict[str, bool]] = {}
        for kind, per in choices.items():
            kind_get(kind)
            for channel, on in per.items():
                if channel not in CHANNELS:
                    raise ValidationError(
                        {"choices": [gettext("unknown channel %(channel)s") % {"channel": repr(channel)}]}
                    )
                clean.setdefault(kind, {})[channel] = bool(on)
        prefs.choices = clean
    if language is not None:
        if language not in dict(settings.LANGUAGES):
            raise ValidationError(
                {"language": [gettext("unknown language %(language)s") % {"language": repr(language)}]}
            )
        prefs.language = language
    prefs.quiet_start, prefs.quiet_end = quiet_start, quiet_end
    prefs.save()
    audit_log_write(
        actor=actor,
        action="notifications.preferences",
        obj=prefs,
        data={"choices": prefs.choices, "language": prefs.language, "quiet": [str(quiet_start), str(quiet_end)]},
    )
    return prefs


def language_remember(*, user: Any, language: str) -> None:
    """The language a user reads the site in, kept for what is sent to them (first seen only:
    their preferences page changes it afterwards)."""
    if language in dict(settings.LANGUAGES) and not Preferences.objects.filter(user=user).exists():
        Preferences.objects.get_or_create(user=user, defaults={"language": language})


def unsubscribe_token(user: Any, kind: str, channel: str = EMAIL) -> str:
    return signing.dumps({"u": user.pk, "k": kind, "c": channel}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_read(token: str) -> tuple[Any, str, str] | None:
    """The (user, kind, channel) a signed unsubscribe link names, or None when it is not genuine."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
        user = get_user_model().objects.get(pk=int(data["u"]))
        kind, channel = str(data["k"]), str(data["c"])
    except (signing.BadSignature, KeyError, ValueError, TypeError, get_user_model().DoesNotExist):
        return None
    if (kind != "*" and kind not in KINDS) or channel not in CHANNELS:
        return None
    return user, kind, channel


@transaction.atomic
def unsubscribe(*, token: str, actor: Actor) -> tuple[Any, str, str] | None:
    """One click, no login: the signed link is the authority. ``*`` turns off every kind."""
    found = unsubscribe_read(token)
    if found is None:
        return None
    user, kind, channel = found
    prefs, _created = Preferences.objects.select_for_update().get_or_create(user=user)
    choices = dict(prefs.choices or {})
    for code in KINDS if kind == "*" else [kind]:
        choices[code] = {**choices.get(code, {}), channel: False}
    prefs.choices = choices
    prefs.save(update_fields=["choices"])
    audit_log_write(actor=actor, action="notifications.unsubscribe", obj=prefs, data={"kind": kind, "channel": channel})
    return found


# ---------------------------------------------------------------- writing


def _params_check(params: dict[str, Any]) -> dict[str, Any]:
    encoded = json.dumps(params, ensure_ascii=False, default=str)
    if len(encoded.encode()) > PARAMS_MAX:
        raise ValueError(f"a notification's parameters are at most {PARAMS_MAX} bytes")
    loaded: dict[str, Any] = json.loads(encoded)
    return loaded


def _after_commit(ids: list[int]) -> None:
    if ids:
        from .queue import deliveries_enqueue

        transaction.on_commit(lambda: deliveries_enqueue(ids))


def notification_send(
    *,
    kind: str,
    recipients: Iterable[Any],
    league: League | None,
    params: dict[str, Any],
    link: str = "",
    key: str = "",
    actor: Actor,
) -> list[Notification]:
    """Tell ``recipients`` (users) of a fact, in the transaction that makes the fact: one inbox row
    each, and a delivery per channel each chose (or the kind's default). Sent after the commit.
    The ``actor`` (a user who made the fact) is never among them.
    The same ``key`` for the same kind and recipient is the same fact: not told twice."""
    actor_require(actor)
    if not kind_get(kind).to_people:
        raise ValueError(f"{kind} is only posted to a league's channels, never sent to a person")
    params = _params_check(params)
    users = {u.pk: u for u in recipients if u is not None and getattr(u, "is_active", True)}
    users.pop(getattr(actor, "pk", None), None)  # the one who did it is never told of it
    if not users:
        return []
    now = timezone.now()
    try:
        return _notifications_write(kind, users, league, params, link, key, now)
    except IntegrityError:
        # the same fact told at this very moment by another writer (two sweeps, two scans): its
        # rows stand (unique per recipient, kind and key), this one's are rolled back to the savepoint
        if not key:
            raise
        logger.info("%s %s: already told by a concurrent writer", kind, key)
        return []


def _told(kind: str, key: str, user_ids: Iterable[int]) -> set[int]:
    """The recipients already told of this fact (none when it has no key)."""
    if not key:
        return set()
    rows = Notification.objects.filter(kind=kind, key=key, recipient_id__in=list(user_ids))
    return set(rows.values_list("recipient_id", flat=True))


def _notifications_write(
    kind: str,
    users: dict[int, Any],
    league: League | None,
    params: dict[str, Any],
    link: str,
    key: str,
    now: datetime.datetime,
) -> list[Notification]:
    with transaction.atomic():
        told = _told(kind, key, users)
        prefs = {p.user_id: p for p in Preferences.objects.filter(user_id__in=users)}
        subscriptions: dict[int, list[int]] = {}
        for sub_id, user_id in PushSubscription.objects.filter(user_id__in=users).values_list("pk", "user_id"):
            subscriptions.setdefault(user_id, []).append(sub_id)
        made = Notification.objects.bulk_create(
            [
                Notification(
                    recipient=user, kind=kind, league=league, params=params, link=link[:300], key=key, created=now
                )
                for user_id, user in users.items()
                if user_id not in told
            ]
        )
        rows: list[Delivery] = []
        for n in made:
            uid = int(n.recipient_id or 0)  # every notification here has its recipient
            pref = prefs.get(uid) or Preferences(user_id=uid)
            due = quiet_until(pref, now)
            wanted: list[str] = []
            if pref.wants(kind, EMAIL) and users[uid].email:
                wanted.append(EMAIL)
            if pref.wants(kind, PUSH):
                wanted += [f"{PUSH}:{s}" for s in subscriptions.get(uid, [])]
            rows += [Delivery(notification=n, channel=c, league=league, next_attempt_at=due) for c in wanted]
        delivery_ids = [d.pk for d in Delivery.objects.bulk_create(rows) if d.next_attempt_at <= now]
        _after_commit(delivery_ids)
        _inbox_tell(made)
    return made


def _inbox_tell(made: list[Notification]) -> None:
    """Each recipient's open inbox hears of its new notification once committed (live)."""
    import live

    for n in made:
        live.publish_on_commit(live.inbox_topic(int(n.recipient_id or 0)), n.pk, n.kind)


def announce(
    *, kind: str, league: League, params: dict[str, Any], link: str = "", key: str = "", actor: Actor
) -> Notification | None:
    """Post a public announcement to the league's own channels (none: nothing is written). Only a
    public kind may go there: a private one is refused, whatever the caller."""
    actor_require(actor)
    if not kind_get(kind).public:
        raise ValueError(f"{kind} is private: it is never posted to a public channel")
    params = _params_check(params)
    targets = list(LeagueChannel.objects.filter(league=league, active=True).values_list("pk", flat=True))
    if not targets:
        return None
    with transaction.atomic():
        if key and Notification.objects.filter(recipient=None, kind=kind, key=key, league=league).exists():
            return None
        n = Notification.objects.create(kind=kind, league=league, params=params, link=link[:300], key=key)
        rows = Delivery.objects.bulk_create(
            [Delivery(notification=n, channel=f"league:{pk}", league=league) for pk in targets]
        )
    _after_commit([d.pk for d in rows])
    return n


# ---------------------------------------------------------------- sending


def backoff(attempts: int) -> int:
    """Seconds before the next try after ``attempts`` failed ones: 30, 60, 120 … up to an hour
    (the first, 30 s, is settings.NOTIFY_BACKOFF_FIRST)."""
    return int(min(BACKOFF_CAP, settings.NOTIFY_BACKOFF_FIRST * 2 ** max(0, attempts - 1)))


def _over_rate(delivery: Delivery, now: datetime.datetime) -> datetime.datetime | None:
    """When the league's channel has room again, or None when it has room now."""
    limit, seconds = _rate_limits()[family(delivery.channel)]
    since = now - datetime.timedelta(seconds=seconds)
    same = Delivery.objects.filter(league=delivery.league_id, sent_at__gte=since)
    same = (
        same.filter(channel=delivery.channel)
        if family(delivery.channel) == "league"
        else same.filter(channel__startswith=family(delivery.channel))
    )
    times = [t for t in same.order_by("sent_at").values_list("sent_at", flat=True) if t is not None]
    if len(times) < limit:
        return None
    # room again once all but limit - 1 of them have left the window
    return times[len(times) - limit] + datetime.timedelta(seconds=seconds)


def delivery_attempt(delivery_id: int) -> tuple[str, int]:
    """Send one delivery if it is pending and due. Returns (what happened, seconds until the next
    try): "sent", "retry", "failed", "delayed" (rate limit) or "skipped" (not ours to send: sent,
    claimed by another sender, or not due)."""
    now = timezone.now()
    claimed = Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.PENDING, next_attempt_at__lte=now).update(
        status=Delivery.Status.SENDING, attempts=F("attempts") + 1, claimed_at=now
    )
    if not claimed:
        return "skipped", 0
    delivery = Delivery.objects.select_related("notification__recipient", "notification__league").get(pk=delivery_id)
    mine = Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.SENDING, claimed_at=now)
    room_at = _over_rate(delivery, now)
    if room_at is not None:
        mine.update(
            status=Delivery.Status.PENDING, attempts=F("attempts") - 1, next_attempt_at=room_at, claimed_at=None
        )
        return "delayed", max(1, int((room_at - now).total_seconds()))
    try:
        channels.send(delivery)
    except channels.Permanent as exc:
        mine.update(status=Delivery.Status.FAILED, last_error=str(exc)[:500], claimed_at=None)
        return "failed", 0
    except Exception as exc:  # the channel is down or refused: try again later
        reason = f"{type(exc).__name__}: {exc}"[:500]
        if delivery.attempts >= MAX_ATTEMPTS:
            mine.update(status=Delivery.Status.FAILED, last_error=reason, claimed_at=None)
            return "failed", 0
        wait = backoff(delivery.attempts)
        mine.update(
            status=Delivery.Status.PENDING,
            last_error=reason,
            next_attempt_at=now + datetime.timedelta(seconds=wait),
            claimed_at=None,
        )
        return "retry", wait
    mine.update(status=Delivery.Status.SENT, sent_at=timezone.now(), last_error="", claimed_at=None)
    return "sent", 0


def deliveries_sweep(*, now: datetime.datetime | None = None, limit: int = 500) -> dict[str, Any]:
    """What a lost task or a dead sender left: deliveries claimed longer than LEASE ago are sent
    again where the channel collapses a repeat (Web Push), else marked outcome unknown for the
    admins; and the ids of the pending deliveries that are due, to queue."""
    now = now or timezone.now()
    stale = Delivery.objects.filter(status=Delivery.Status.SENDING, claimed_at__lt=now - LEASE)
    again = stale.filter(channel__startswith=f"{PUSH}:").update(status=Delivery.Status.PENDING, claimed_at=None)
    unknown = stale.update(
        status=Delivery.Status.UNKNOWN,
        last_error="outcome_unknown",
        claimed_at=None,
    )
    due = list(
        Delivery.objects.filter(status=Delivery.Status.PENDING, next_attempt_at__lte=now)
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
    return {"due": due, "resent": again, "unknown": unknown}


@transaction.atomic
def delivery_retry(*, delivery: Delivery, actor: Actor) -> Delivery:
    """An admin sends a failed (or outcome-unknown) delivery again."""
    from kyoku.authz import Need, authorize

    authorize(actor, delivery, Need.ADMIN)
    updated = Delivery.objects.filter(
        pk=delivery.pk, status__in=[Delivery.Status.FAILED, Delivery.Status.UNKNOWN]
    ).update(status=Delivery.Status.PENDING, next_attempt_at=timezone.now(), attempts=0)
    delivery.refresh_from_db()
    if updated:
        audit_log_write(actor=actor, action="notifications.retry", obj=delivery, data={"channel": delivery.channel})
        _after_commit([delivery.pk])
    return delivery


# ---------------------------------------------------------------- the inbox and the devices


def notifications_mark_read(*, user: Any, ids: Iterable[int] | None = None, actor: Actor) -> int:
    """Mark the user's notifications read (``ids``: these; None: all). Another user's are not touched."""
    actor_require(actor)
    rows = Notification.objects.filter(recipient=user, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return rows.update(read_at=timezone.now())


def _b64url(value: str) -> bytes | None:
    """The bytes of a base64url string (padding optional), or None when it is not one."""
    import base64
    import binascii
    import re

    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_-]+={0,2}", value):
        return None
    try:
        return base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        return None


def push_keys_check(p256dh: str, auth: str) -> None:
    """A subscription's keys as the Push API makes them (RFC 8291): ``p256dh`` the base64url of an
    uncompressed P-256 point (65 bytes, 0x04 first, on the curve), ``auth`` of 16 bytes."""
    from cryptography.hazmat.primitives.asymmetric import ec

    point = _b64url(p256dh)
    if point is None or len(point) != 65 or point[0] != 4:
        raise ValidationError(
            {"keys": [translation.gettext("p256dh is the base64url of a 65-byte P-256 public key starting 0x04.")]}
        )
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise ValidationError({"keys": [translation.gettext("p256dh is not a point on the P-256 curve.")]}) from None
    secret = _b64url(auth)
    if secret is None or len(secret) != 16:
        raise ValidationError({"keys": [translation.gettext("auth is the base64url of 16 bytes.")]})


def push_endpoint_check(endpoint: str) -> None:
    """An https URL (plain http only where ``PUSH_HTTP_ENDPOINTS``) whose host passes the address
    rule (notifications.outbound); checked again at every send."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise ValidationError({"endpoint": [translation.gettext("A push endpoint is an https URL.")]}) from None
    schemes = ("https", "http") if settings.PUSH_HTTP_ENDPOINTS else ("https",)
    if parts.scheme not in schemes or not parts.hostname or parts.username is not None:
        raise ValidationError({"endpoint": [translation.gettext("A push endpoint is an https URL.")]})
    try:
        outbound.host_check(parts.hostname, port or (443 if parts.scheme == "https" else 80))
    except outbound.AddressRefused as exc:
        raise ValidationError({"endpoint": [exc.words()]}, code="address_refused") from None


@transaction.atomic
def push_subscribe(*, user: Any, endpoint: str, p256dh: str, auth: str, actor: Actor) -> PushSubscription:
    """This browser's subscription, for ``user``. An endpoint belongs to the account that
    registered it: the same account again updates its keys, another account is refused (409)
    and the first keeps it (its browser then subscribes afresh: a new endpoint)."""
    from kyoku.errors import Conflict

    actor_require(actor)
    push_endpoint_check(endpoint)
    push_keys_check(p256dh, auth)
    held = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    if held is not None and held.user_id != user.pk:
        raise Conflict(
            {"endpoint": [translation.gettext("This push endpoint belongs to another account.")]},
            code="endpoint_taken",
        )
    if held is not None:
        held.p256dh, held.auth = p256dh, auth
        held.save(update_fields=["p256dh", "auth"])
        return held
    try:
        with transaction.atomic():
            return PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth)
    except IntegrityError:  # registered at this very moment by another request
        raise Conflict(
            {"endpoint": [translation.gettext("This push endpoint belongs to another account.")]},
            code="endpoint_taken",
        ) from None


def push_unsubscribe(*, user: Any, endpoint: str, actor: Actor) -> int:
    actor_require(actor)
    deleted, _rows = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted


@transaction.atomic
def league_channel_add(*, league: League, name: str, url: str, language: str = "en", actor: Actor) -> LeagueChannel:
    from kyoku.authz import Need, authorize

    authorize(actor, league, Need.ADMIN)
    name, url = (name or "").strip()[:80], (url or "").strip()
    if not name:
        raise ValidationError({"name": [translation.gettext("A name for the channel.")]})
    try:
        channels.channel_url_check(url)
    except channels.ChannelRefused as exc:
        raise ValidationError({"url": [str(exc)]}, code="channel_refused") from None
    except outbound.AddressRefused as exc:
        raise ValidationError({"url": [exc.words()]}, code="address_refused") from None
    if language not in dict(settings.LANGUAGES):
        raise ValidationError({"language": [gettext("unknown language %(language)s") % {"language": repr(language)}]})
    channel = LeagueChannel.objects.create(league=league, name=name, url=url, language=language)
    audit_log_write(actor=actor, action="notifications.channel_add", obj=channel, data={"name": name})
    return channel


@transaction.atomic
def league_channel_remove(*, channel: LeagueChannel, actor: Actor) -> None:
    from kyoku.authz import Need, authorize

    authorize(actor, channel, Need.ADMIN)
    audit_log_write(actor=actor, action="notifications.channel_remove", obj=channel, data={"name": channel.name})
    LeagueChannel.objects.filter(pk=channel.pk).update(active=False)


def in_languages(words: Callable[[], Any]) -> dict[str, str]:
    """``words()`` said in each language, as a notification's parameter (rendering.pick): for what
    the code words (a game's place, an offence's name) rather than a stored name."""
    said = {}
    for code, key in (("en", "en"), ("zh-hant", "zh"), ("ja", "ja")):
        with translation.override(code):
            said[key] = str(words())
    return said


def league_words(league: League | None) -> dict[str, str]:
    """A league's name as a notification's parameter, in each language (rendering.pick)."""
    if league is None:
        return {"en": ""}
    return {"en": league.name, "zh": league.name_zh or league.name}


def recipients_with_role(league: League, *roles: str) -> list[Any]:
    """The league's users holding one of ``roles`` (kyoku.models.LeagueRole)."""
    return list(
        get_user_model().objects.filter(Q(league_roles__league=league) & Q(league_roles__role__in=roles)).distinct()
    )
