"""The channels a delivery goes out on, each through a well-kept library:

- ``email``: Django's mail framework (SMTP in production, the console in development). The
  message names its delivery in its Message-ID and carries a one-click unsubscribe link
  (RFC 8058: ``List-Unsubscribe`` and ``List-Unsubscribe-Post``) besides the one in its text.
- ``push:<id>``: Web Push with VAPID (RFC 8030 / 8291 / 8292) through pywebpush; the delivery's key
  is the push's ``Topic`` (a push service replaces an undelivered message of the same topic) and
  the notification's ``tag`` in the service worker (the browser replaces a shown one).
- ``league:<id>``: a league's public channel through Apprise (Telegram, Discord, Slack, Matrix,
  a JSON webhook…), public kinds only.

``send`` raises ``Permanent`` for what a retry cannot mend (no address, a subscription gone), any
other exception for what may pass (a server down)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.urls import reverse
from django.utils import translation

from . import outbound
from .kinds import KINDS
from .models import Delivery, LeagueChannel, Preferences, PushSubscription
from .rendering import absolute, render

PUSH_PAYLOAD_MAX = 3000  # bytes: under the 4 KB a push service accepts, after encryption's overhead


class Permanent(Exception):
    """A send that cannot succeed by trying again; its message is a reason code (kinds.REASONS),
    maybe followed by a detail."""


def _language(user: Any) -> str:
    prefs = Preferences.objects.filter(user=user).first()
    return prefs.language if prefs else settings.LANGUAGE_CODE


def unsubscribe_url(user: Any, kind: str) -> str:
    from .services import unsubscribe_token

    return absolute(reverse("notifications-unsubscribe") + "?t=" + unsubscribe_token(user, kind))


def email_send(delivery: Delivery) -> None:
    n = delivery.notification
    user = n.recipient
    if user is None or not user.email:
        raise Permanent("no_email")
    language = _language(user)
    subject, body = render(n, language)
    link = unsubscribe_url(user, n.kind)
    with translation.override(language):
        footer = "\n\n".join(
            part
            for part in (
                absolute(n.link),
                translation.gettext("Stop these emails (%(kind)s): %(url)s")
                % {"kind": KINDS[n.kind].label, "url": link},
            )
            if part
        )
    domain = settings.SITE_URL.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0] or "kyoku"
    message = EmailMessage(
        subject=subject,
        body=f"{body}\n\n{footer}",
        to=[user.email],
        headers={
            "Message-ID": f"<{delivery.idempotency_key}@{domain}>",
            "List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Content-Language": language,
        },
        connection=get_connection(fail_silently=False),
    )
    message.send(fail_silently=False)


def push_payload(delivery: Delivery) -> bytes:
    n = delivery.notification
    subject, body = render(n, _language(n.recipient))
    data = {"title": subject, "body": body, "url": n.link or "/me/notifications/", "tag": str(delivery.notification_id)}
    raw = json.dumps(data, ensure_ascii=False).encode()
    while len(raw) > PUSH_PAYLOAD_MAX and data["body"]:
        data["body"] = data["body"][: len(data["body"]) // 2] + "…"
        raw = json.dumps(data, ensure_ascii=False).encode()
    return raw


def push_send(delivery: Delivery) -> None:
    from pywebpush import WebPushException, webpush

    sub = PushSubscription.objects.filter(pk=int(delivery.channel.split(":", 1)[1])).first()
    if sub is None:
        raise Permanent("subscription_removed")
    if not settings.VAPID_PRIVATE_KEY:
        raise Permanent("push_not_configured")
    refused: list[outbound.AddressRefused] = []
    try:
        with outbound.outbound_guard() as refused:
            webpush(
                subscription_info={"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                data=push_payload(delivery),
                vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                ttl=24 * 3600,
                headers={"Topic": delivery.idempotency_key.hex[:32], "Urgency": "normal"},
                timeout=10,
            )
    except outbound.AddressRefused as exc:  # nothing was sent: the reason is the address
        raise Permanent(f"address_{exc.reason}") from None
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):  # the browser unsubscribed: forget the device
            sub.delete()
            raise Permanent(f"push_gone ({status})") from None
        if status is not None and 400 <= status < 500 and status not in (408, 429):
            raise Permanent(f"push_refused ({status})") from None
        raise
    except Exception:
        if refused:  # a library that wrapped the refusal in its own exception
            raise Permanent(f"address_{refused[0].reason}") from None
        raise


# The Apprise schemes a league may use (README, Notifications), and how each finds its host:
# "fixed": the service's own public host (Discord, Slack, Telegram); "url": the URL's host (a
# league's own Mattermost, a JSON webhook); "ntfy": ntfy.sh, or the URL's host when self-hosted.
# Dropped: e-mail (mailto://, to any SMTP server: members get e-mail from the site itself), form://
# and xml:// (a JSON webhook does what they do), and every other scheme (more hosts, more headers).
CHANNEL_SCHEMES: dict[str, str] = {
    "discord": "fixed",
    "slack": "fixed",
    "tgram": "fixed",
    "ntfy": "ntfy",
    "ntfys": "ntfy",
    "mmost": "url",
    "mmosts": "url",
    "json": "url",
    "jsons": "url",
}
# query options that change only the message's look; everything else (?method=, ?verify=, ?to=,
# +Header=, -param=, :field=, attachments …) is refused
CHANNEL_QUERY_KEYS = frozenset({"format", "overflow", "avatar", "silent", "priority", "tags", "botname", "footer"})


class ChannelRefused(Exception):
    """A channel address the server will not post to; the message is the reason in words."""


def _charset_restore() -> None:
    """Apprise's e-mail plugin, loaded with its others, switches the process's utf-8 e-mail charset
    to quoted-printable headers (``email.charset.add_charset``): put Python's default back, or
    the site's own e-mails (Django's mail) would change their subjects' encoding after a post."""
    from email import charset

    charset.add_charset("utf-8", charset.SHORTEST, charset.BASE64, "utf-8")


def _apprise() -> Any:
    import apprise

    # sequential: the send runs in this thread, inside outbound.outbound_guard
    return apprise.Apprise(asset=apprise.AppriseAsset(async_mode=False))


def _plugin(url: str) -> Any:
    import apprise

    try:
        return apprise.Apprise.instantiate(url, asset=apprise.AppriseAsset(async_mode=False), suppress_exceptions=True)
    finally:
        _charset_restore()


def channel_url_check(url: str, *, resolve: bool = True) -> None:
    """Raise :class:`ChannelRefused` (words) unless ``url`` is an allowed Apprise URL with no
    method, header or parameter override whose host (``resolve``) passes the address rule."""
    from urllib.parse import parse_qsl, urlsplit

    from django.utils.translation import gettext as _

    url = (url or "").strip()
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if scheme not in CHANNEL_SCHEMES:
        raise ChannelRefused(
            _(
                "Only these channels: Discord (discord://), Slack (slack://), Telegram (tgram://), "
                "ntfy (ntfy://, ntfys://), Mattermost (mmost://, mmosts://) and a JSON webhook (json://, jsons://)."
            )
        )
    try:
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError:
        raise ChannelRefused(_("Not an address Apprise can post to.")) from None
    for key, _value in query:
        if key[:1] in "+-:" or key.lower() not in CHANNEL_QUERY_KEYS:
            raise ChannelRefused(
                _("The option %(option)s is not allowed: a channel's method, headers and fields are the server's.")
                % {"option": f"?{key}="}
            )
    plugin = _plugin(url)
    if plugin is None:
        raise ChannelRefused(_("Not an address Apprise can post to."))
    if getattr(plugin, "headers", None) or getattr(plugin, "params", None) or getattr(plugin, "payload_extras", None):
        raise ChannelRefused(_("A channel's method, headers and fields are the server's."))
    if str(getattr(plugin, "method", "POST")).upper() != "POST":
        raise ChannelRefused(_("A channel's method, headers and fields are the server's."))
    if resolve:
        host = _channel_host(scheme, plugin, parts)
        if host is not None:
            outbound.host_check(host, parts.port or (443 if scheme.endswith("s") else 80))


def _channel_host(scheme: str, plugin: Any, parts: Any) -> str | None:
    """The host a channel posts to when the URL names it (None: the service's fixed host)."""
    how = CHANNEL_SCHEMES[scheme]
    if how == "fixed":
        return None
    if how == "ntfy" and str(getattr(plugin, "mode", "")) != "private":
        return None
    return str(parts.hostname or getattr(plugin, "host", "") or "")


def league_send(delivery: Delivery) -> None:
    n = delivery.notification
    if not KINDS[n.kind].public or n.recipient_id is not None:  # never a private fact in public
        raise Permanent("not_public")
    channel = LeagueChannel.objects.filter(pk=int(delivery.channel.split(":", 1)[1]), active=True).first()
    if channel is None:
        raise Permanent("channel_removed")
    try:
        channel_url_check(channel.url, resolve=False)  # the rules as they are now, not at saving
    except ChannelRefused as exc:
        raise Permanent(f"channel_address {exc}") from None
    subject, body = render(n, channel.language)
    post = _apprise()
    added = post.add(channel.url)
    _charset_restore()
    if not added:
        raise Permanent("channel_address")
    with outbound.outbound_guard() as refused:
        accepted = post.notify(title=subject, body="\n".join(p for p in (body, absolute(n.link)) if p))
    if refused:  # nothing was sent: the reason is the address, never an answer
        raise Permanent(f"address_{refused[0].reason}")
    if not accepted:
        raise RuntimeError("the service did not accept the post")


def send(delivery: Delivery) -> None:
    kind = delivery.channel.split(":", 1)[0]
    if kind == "email":
        email_send(delivery)
    elif kind == "push":
        push_send(delivery)
    elif kind == "league":
        league_send(delivery)
    else:
        raise Permanent(f"unknown_channel {delivery.channel}")
