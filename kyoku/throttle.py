"""One throttle for the whole site: counters in the Django cache (local memory in development and
the tests, Redis in production, ``config/settings.py`` ``CACHES``), a sliding window per bucket and
key, and the limits in one table, :data:`LIMITS`.

A bucket is a kind of action (``settle_client``, ``login_client``, ``table_code_client`` …) and a
key says whose (a client address from :func:`client_address`, ``user:<pk>``, ``event:<pk>``).
:func:`throttle_hit` counts one and raises :class:`Throttled` when the count goes over the limit;
:func:`throttle_check` raises when the limit is already reached, without counting; :func:`throttle_note`
counts without raising. ``Throttled`` is answered 429 with a ``Retry-After`` header and words in
the request's language: as JSON by the API's exception handler (``kyoku.errors``) and anywhere
under ``/api/``, as the ``429.html`` page elsewhere (:class:`ThrottleMiddleware`).

Two ways to use it:

- a rate (every request counts)::

      throttle_hit("settle_client", client_address(request))

- guesses (only the failures count, and a refused client learns nothing more)::

      throttle_check("table_code_client", client_address(request))   # before comparing
      throttle_check("table_code_event", f"event:{event.pk}")
      if code != expected:
          throttle_hit("table_code_client", client_address(request))
          throttle_hit("table_code_event", f"event:{event.pk}")
          ...  # answer "wrong code"

The window is the sliding-window estimate (the previous fixed window's count weighted by how much
of it still overlaps, plus the current one's), so a burst at a window's edge gets no double
allowance. Tests and deployments may change a bucket's numbers with the setting
``THROTTLE_LIMITS = {"bucket": (limit, window_seconds)}``. A cache that is down (Redis restarting)
throttles nothing rather than refusing everyone (``kyoku.cache``)."""

from __future__ import annotations

import ipaddress

import hashlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from .cache import UNAVAILABLE, cache_unavailable_log

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    limit: int  # events allowed …
    window: int  # … per this many seconds


# The one table of limits: bucket → Limit. Keys are documented where each bucket is used.
LIMITS: dict[str, Limit] = {
    # wrong table codes (events: a table's phone), per client address (an IPv6 /64) and per event;
    # the event's count only informs its desk and refuses nobody (events.services.code_guesses)
    "table_code_client": Limit(20, 600),
    "table_code_event": Limit(200, 600),
    # POST /api/settle (stateless, public): per client address when anonymous, per user when logged in
    "settle_client": Limit(60, 60),
    "settle_user": Limit(600, 60),
    # failed logins per client address, whatever the usernames (django-axes limits each username
    # and address pair on top of this)
    "login_client": Limit(50, 900),
    # leagues a person starts in the app (league.services.leagues), per "user:<pk>": 3 a day
    "league_start_user": Limit(3, 86400),
    # role invitations (and resends) a league sends (kyoku.roles), per "league:<pk>": 30 a day
    "role_invite_league": Limit(30, 86400),
    # people: claim invitations a league sends per day; link requests (asks by membership number)
    # per user and per client address; a director's unknown numbers at an event's desk, per user
    "claim_invite_league": Limit(100, 86400),
    "link_request_user": Limit(5, 3600),
    "link_request_client": Limit(20, 3600),
    "desk_number_user": Limit(10, 600),
    # season invitations a league sends (league.services.memberships.invitation_create), per
    # "league:<pk>": a roster's worth a day, no more (a player may also block a league's)
    "invitation_league": Limit(300, 86400),
    # roster sheets read and previewed (league.views_roster: seconds of work for 10,000 rows), per
    # "league:<pk>"
    "roster_import_league": Limit(60, 3600),
}


class Throttled(Exception):
    """Over a bucket's limit: answered 429 with ``Retry-After: retry_after`` (whole seconds)."""

    def __init__(self, retry_after: int, bucket: str = "") -> None:
        self.retry_after = max(1, int(retry_after))
        self.bucket = bucket
        super().__init__(f"{bucket or 'throttle'}: retry after {self.retry_after} s")


def throttle_limit(bucket: str) -> Limit:
    """The bucket's limit: ``settings.THROTTLE_LIMITS`` first, then :data:`LIMITS`."""
    override = getattr(settings, "THROTTLE_LIMITS", {}).get(bucket)
    if override is not None:
        limit, window = override
        return Limit(int(limit), int(window))
    try:
        return LIMITS[bucket]
    except KeyError:
        raise KeyError(f"no throttle bucket {bucket!r}: add it to kyoku.throttle.LIMITS") from None


def _cache_key(bucket: str, key: str, slot: int) -> str:
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"throttle:{bucket}:{digest}:{slot}"


def _counts(bucket: str, key: str, window: int, now: float) -> tuple[int, int, float]:
    """(previous window's count, current window's count, seconds into the current window)."""
    slot = int(now // window)
    values = cache.get_many([_cache_key(bucket, key, slot - 1), _cache_key(bucket, key, slot)])
    previous = int(values.get(_cache_key(bucket, key, slot - 1)) or 0)
    current = int(values.get(_cache_key(bucket, key, slot)) or 0)
    return previous, current, now - slot * window


def _estimate(previous: int, current: int, elapsed: float, window: int) -> float:
    return previous * (1 - elapsed / window) + current


def _retry_after(previous: int, current: int, elapsed: float, limit: Limit) -> int:
    """Seconds until one more event fits again (the estimate plus one is within the limit)."""
    w, room = limit.window, limit.limit - 1
    if current > room:
        # after this window ends the current count becomes the previous one and fades out
        return math.ceil((w - elapsed) + w * (1 - room / current))
    # the previous count must fade until previous * (1 - e / w) + current <= limit - 1
    needed = w * (1 - (room - current) / previous) if previous > 0 else elapsed
    return math.ceil(max(1.0, needed - elapsed))


def _over(bucket: str, key: str, limit: Limit, now: float, extra: int) -> Throttled | None:
    previous, current, elapsed = _counts(bucket, key, limit.window, now)
    if _estimate(previous, current, elapsed, limit.window) + extra > limit.limit:
        return Throttled(_retry_after(previous, current, elapsed, limit), bucket)
    return None


def throttle_note(bucket: str, key: str, *, window: int | None = None) -> None:
    """Count one event for ``key`` in ``bucket``; never raises (a cache that is down counts nothing)."""
    window = window or throttle_limit(bucket).window
    slot_key = _cache_key(bucket, key, int(time.time() // window))
    try:
        # kept two windows: the next window reads this one as its previous
        if not cache.add(slot_key, 1, timeout=2 * window + 1):
            try:
                cache.incr(slot_key)
            except ValueError:  # expired between add and incr
                cache.set(slot_key, 1, timeout=2 * window + 1)
    except UNAVAILABLE as exc:
        cache_unavailable_log("throttle count", exc)


def throttle_check(bucket: str, key: str, *, limit: int | None = None, window: int | None = None) -> None:
    """Raise :class:`Throttled` if one more event for ``key`` would go over the limit; counts nothing."""
    table = throttle_limit(bucket)
    chosen = Limit(limit or table.limit, window or table.window)
    try:
        over = _over(bucket, key, chosen, time.time(), 1)
    except UNAVAILABLE as exc:
        cache_unavailable_log("throttle check", exc)
        return
    if over is not None:
        raise over


def throttle_hit(bucket: str, key: str, *, limit: int | None = None, window: int | None = None) -> None:
    """Count one event for ``key`` in ``bucket`` and raise :class:`Throttled` when that goes over
    the limit (``limit`` events per ``window`` seconds; both default to :data:`LIMITS`)."""
    table = throttle_limit(bucket)
    chosen = Limit(limit or table.limit, window or table.window)
    throttle_note(bucket, key, window=chosen.window)
    try:
        over = _over(bucket, key, chosen, time.time(), 0)
    except UNAVAILABLE as exc:
        cache_unavailable_log("throttle check", exc)
        return
    if over is not None:
        raise over


def throttle_reset(bucket: str, key: str) -> None:
    """Forget ``key``'s counts in ``bucket`` (an admin's unlock, a test)."""
    window = throttle_limit(bucket).window
    slot = int(time.time() // window)
    try:
        cache.delete_many([_cache_key(bucket, key, slot - 1), _cache_key(bucket, key, slot)])
    except UNAVAILABLE as exc:
        cache_unavailable_log("throttle reset", exc)


def client_address(request: Any) -> str:
    """The client's address: ``REMOTE_ADDR``; behind a TLS proxy (setting ``BEHIND_PROXY``) the
    ``X-Forwarded-For`` entry that proxy appended, ``PROXY_COUNT`` (1) from the right, never the
    leftmost, which the client writes itself. Django-axes reads it too (``AXES_CLIENT_IP_CALLABLE``),
    so its lock and this throttle count the same address. Takes a Django request or a DRF one."""
    meta = request.META
    if getattr(settings, "BEHIND_PROXY", False):
        hops = [h.strip() for h in str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",") if h.strip()]
        count = max(1, int(getattr(settings, "PROXY_COUNT", 1)))
        if hops:
            return hops[-count] if len(hops) >= count else hops[0]
    return str(meta.get("REMOTE_ADDR") or "unknown")


def client_ip(request: Any) -> str | None:
    """``client_address`` when it is an IP address, else None: what django-axes stores
    (``AXES_CLIENT_IP_CALLABLE``) in a column PostgreSQL types as an address. A request made in
    code (a test client's ``login``) has no REMOTE_ADDR; a proxy's header may hold anything."""
    address = client_address(request)
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


# ---------------------------------------------------------------- answers


def throttled_words(exc: Throttled) -> str:
    """What a refused client is told, in the active language."""
    if exc.retry_after >= 90:
        return _("Too many requests from here: try again in %(n)s minutes.") % {"n": math.ceil(exc.retry_after / 60)}
    return _("Too many requests from here: try again in %(n)s seconds.") % {"n": exc.retry_after}


def throttled_response(request: HttpRequest, exc: Throttled) -> HttpResponse:
    """429 with ``Retry-After``: JSON under ``/api/``, the 429 page elsewhere."""
    words = throttled_words(exc)
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": words, "code": "throttled"}, status=429)
    else:
        response = render(request, "429.html", {"words": words}, status=429)
    response["Retry-After"] = str(exc.retry_after)
    return response


class ThrottleMiddleware:
    """Turns a :class:`Throttled` raised by a view (or by a login backend inside it) into a 429."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, Throttled):
            return throttled_response(request, exception)
        return None


# ---------------------------------------------------------------- failed logins per address


class LoginAddressThrottleBackend:
    """First of ``AUTHENTICATION_BACKENDS``: refuses any login from an address that has failed
    ``login_client`` times within its window, whatever the usernames (django-axes then limits each
    username and address pair). Authenticates no one itself."""

    def authenticate(self, request: Any, **credentials: Any) -> None:
        if request is not None:
            throttle_check("login_client", client_address(request))
        return None

    # no get_user: it logs no one in, and so Django's force_login never picks it as the backend


@receiver(user_login_failed, dispatch_uid="kyoku.throttle.login_failed")
def _login_failed(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    if request is not None:
        throttle_note("login_client", client_address(request))
