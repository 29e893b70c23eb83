"""Nothing private stays on a shared phone (issue 47 §3).

- **Private pages are never kept.** Every answer to a signed-in request says
  ``Cache-Control: private, no-store`` (:class:`SharedPhoneMiddleware`), and the service worker
  (``/sw.js``) keeps a page for offline use only when its answer allows it: a page that depends on
  who is signed in is never cached, by the browser or by the worker.
- **Logout**, whatever view does it (django.contrib.auth's ``user_logged_out`` signal): the
  answer says ``Clear-Site-Data: "cache"`` and sets the one-shot cookie ``kyoku_signed_out``; the
  next page (``static/app.js``) then empties the service worker's caches, forgets the account's
  own outbox (an admin's scorekeeper hands) and this browser's push subscription. The push
  subscriptions this session registered are deleted on the server at once.
- **What belongs to the table stays.** ``"storage"`` is not in Clear-Site-Data: it would also
  wipe the table phone's unsent reports in local storage, which belong to the table, not to the
  account that signed out. The table codes this phone entered (kept in the session, which logout
  flushes) are carried into the new session, so those reports still go when the phone is back
  online."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase

PUSH_SESSION_KEY = "notifications_push_subscriptions"
# session keys that belong to the phone, not to the account: kept across a logout
# ("event_table_codes" is events.services.tables.CODES_KEY, the table codes this phone entered)
KEPT_AT_LOGOUT = ("event_table_codes",)
SIGNED_OUT_COOKIE = "kyoku_signed_out"
PRIVATE = "private, no-store"
CLEAR_SITE_DATA = '"cache"'
NOT_PRIVATE_PATHS = ("/static/", "/sw.js", "/manifest.webmanifest")


@receiver(user_logged_out, dispatch_uid="notifications.shared_phone.logged_out")
def _logged_out(sender: Any, request: HttpRequest | None = None, user: Any = None, **kwargs: Any) -> None:
    """Runs before the session is flushed: note what the phone keeps, forget this browser's push
    subscriptions (another person may hold the phone next)."""
    from .models import PushSubscription

    if request is None:
        return
    session = getattr(request, "session", None)
    kept = {key: session[key] for key in KEPT_AT_LOGOUT if session is not None and key in session}
    ids = [int(i) for i in (session.get(PUSH_SESSION_KEY) or []) if str(i).isdigit()] if session is not None else []
    if user is not None and getattr(user, "pk", None) and ids:
        PushSubscription.objects.filter(user=user.pk, pk__in=ids).delete()
    request._kyoku_signed_out = kept  # type: ignore[attr-defined]


def _signed_out(request: HttpRequest, response: HttpResponseBase, kept: dict[str, Any]) -> None:
    session = getattr(request, "session", None)
    if session is not None:
        for key, value in kept.items():
            session[key] = value
    response["Clear-Site-Data"] = CLEAR_SITE_DATA
    response["Cache-Control"] = PRIVATE
    response.set_cookie(
        SIGNED_OUT_COOKIE,
        "1",
        max_age=3600,
        samesite="Lax",
        secure=bool(settings.SESSION_COOKIE_SECURE),
        httponly=False,  # read by the page's script, which deletes it
    )


class SharedPhoneMiddleware:
    """``Cache-Control: private, no-store`` on every answer to a signed-in request (static files,
    the service worker and the manifest excepted); on a logout's answer, Clear-Site-Data and the
    page's signal to clear what the account left. Placed after the session and authentication
    middleware, so the session it adds to is saved after it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        kept = getattr(request, "_kyoku_signed_out", None)
        if kept is not None:
            _signed_out(request, response, kept)
        elif request.path.startswith(NOT_PRIVATE_PATHS):
            pass
        elif getattr(getattr(request, "user", None), "is_authenticated", False):
            response["Cache-Control"] = PRIVATE
        return response
