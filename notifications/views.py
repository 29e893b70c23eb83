"""Pages: my notifications (the inbox), my choices, the one-click unsubscribe, a league's sends
(failures with their reasons, the league's public channels), the web app manifest and the
service worker. Reads through selectors, writes through services."""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt

from kyoku.access import ADMIN, LOGGED_IN, PUBLIC, access, object_for_request
from kyoku.models import League
from kyoku.principals import SYSTEM, request_user_actor

from . import selectors, services
from .kinds import CHANNEL_LABELS, CHANNELS, KINDS, PERSONAL_KINDS
from .models import Delivery, LeagueChannel


def _ids(values: list[str]) -> list[int]:
    return [int(v) for v in values if v.isdigit()][:500]


@access(GET=LOGGED_IN, POST=LOGGED_IN, actions={"read": LOGGED_IN, "read_all": LOGGED_IN})
def inbox(request: HttpRequest) -> HttpResponse:
    """Every notification I got, newest first, unread marked; read one, or all."""
    services.language_remember(user=request.user, language=get_language() or "en")
    if request.method == "POST":
        actor = request_user_actor(request)
        ids = None if request.POST.get("action") == "read_all" else _ids(request.POST.getlist("id"))
        services.notifications_mark_read(user=request.user, ids=ids, actor=actor)
        return redirect("notifications-inbox")
    with _language_of(request.user) as language:
        page = selectors.inbox_page(user=request.user, offset=_offset(request))
        response = render(request, "notifications/inbox.html", {**page, "vapid_public_key": settings.VAPID_PUBLIC_KEY})
    return _spoken(response, language)


@contextlib.contextmanager
def _language_of(user: Any) -> Iterator[str | None]:
    """The language ``user`` chose in their notification settings, active inside (the browser's
    when they chose none): their inbox and their unsubscribe page speak what their emails speak."""
    chosen = selectors.language_chosen(user)
    if chosen is None:
        yield None
        return
    with translation.override(chosen):
        yield chosen


def _spoken(response: HttpResponse, language: str | None) -> HttpResponse:
    if language:
        response.headers["Content-Language"] = language  # LocaleMiddleware keeps a header already set
    return response


def _offset(request: HttpRequest) -> int:
    value = request.GET.get("offset", "0")
    return min(int(value), 100_000) if value.isdigit() else 0


def _time(value: str) -> datetime.time | None:
    try:
        return datetime.time.fromisoformat(value) if value else None
    except ValueError:
        raise ValidationError({"quiet": [_("A time such as 23:00.")]}) from None


@access(GET=LOGGED_IN, POST=LOGGED_IN)
def preferences(request: HttpRequest) -> HttpResponse:
    """Which kinds reach me on which channel, quiet hours, the language I am written to in."""
    prefs = services.preferences_of(request.user)
    if request.method == "POST":
        choices = {k: {c: f"{k}:{c}" in request.POST for c in CHANNELS} for k in PERSONAL_KINDS}
        try:
            services.preferences_set(
                user=request.user,
                choices=choices,
                language=request.POST.get("language", prefs.language),
                quiet_start=_time(request.POST.get("quiet_start", "")),
                quiet_end=_time(request.POST.get("quiet_end", "")),
                actor=request_user_actor(request),
            )
        except ValidationError as exc:
            for errors in exc.message_dict.values():
                for error in errors:
                    messages.error(request, error)
        else:
            messages.success(request, _("Your choices are saved."))
            return redirect("notifications-preferences")
    rows = [
        {
            "code": code,
            "label": kind.label,
            "cells": [
                {"channel": CHANNEL_LABELS[c], "on": prefs.wants(code, c), "name": f"{code}:{c}"} for c in CHANNELS
            ],
        }
        for code, kind in KINDS.items()
        if code in PERSONAL_KINDS  # an announcement only for the league's channels offers no box
    ]
    return render(
        request,
        "notifications/preferences.html",
        {
            "prefs": prefs,
            "rows": rows,
            "channels": [CHANNEL_LABELS[c] for c in CHANNELS],
            "language_choices": settings.LANGUAGES,
        },
    )


@csrf_exempt  # the signed link is the authority (RFC 8058: a mail service posts it, with no session)
@access(GET=PUBLIC, POST=PUBLIC)
def unsubscribe(request: HttpRequest) -> HttpResponse:
    """A GET shows what the link stops and a button (a link checker must not unsubscribe
    anyone); a POST stops it, no login needed."""
    token = request.GET.get("t", "")
    found = services.unsubscribe_read(token)
    if found is None:
        return render(request, "notifications/unsubscribe.html", {"invalid": True}, status=400)
    user, kind, channel = found
    done = False
    if request.method == "POST":
        services.unsubscribe(token=token, actor=SYSTEM)
        done = True
    with _language_of(user) as language:
        response = render(
            request,
            "notifications/unsubscribe.html",
            {"kind": KINDS[kind].label if kind in KINDS else _("all notifications"), "done": done, "token": token},
        )
    return _spoken(response, language)


@access("league", GET=ADMIN, POST=ADMIN, actions={"retry": ADMIN, "channel_add": ADMIN, "channel_remove": ADMIN})
def league_sends(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's sends for its admins: what failed and why (send again), what waits, and the
    league's public channels."""
    league = object_for_request(request, League, slug=slug)
    if request.method == "POST":
        actor = request_user_actor(request)
        action = request.POST.get("action")
        try:
            if action == "retry":
                for delivery in Delivery.objects.filter(league=league, pk__in=_ids(request.POST.getlist("id"))):
                    services.delivery_retry(delivery=delivery, actor=actor)
                messages.success(request, _("Sent again."))
            elif action == "channel_add":
                services.league_channel_add(
                    league=league,
                    name=request.POST.get("name", ""),
                    url=request.POST.get("url", ""),
                    language=request.POST.get("language", "en"),
                    actor=actor,
                )
                messages.success(request, _("Channel added."))
            else:
                for channel in LeagueChannel.objects.filter(league=league, pk__in=_ids(request.POST.getlist("id"))):
                    services.league_channel_remove(channel=channel, actor=actor)
        except ValidationError as exc:
            for errors in exc.message_dict.values():
                for error in errors:
                    messages.error(request, error)
        return redirect("notifications-league", slug=league.slug)
    return render(
        request,
        "notifications/league.html",
        {"league": league, **selectors.league_sends(league=league), "language_choices": settings.LANGUAGES},
    )


# ---------------------------------------------------------------- the installable app


@access(GET=PUBLIC)
@cache_control(max_age=3600, public=True)
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest, in the request's language (a phone installs the app in its own)."""
    icons = [
        {"src": static(f"icons/{name}.png"), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
        for name, size, purpose in (
            ("kyoku-192", 192, "any"),
            ("kyoku-512", 512, "any"),
            ("kyoku-maskable-512", 512, "maskable"),
        )
    ]
    data: dict[str, Any] = {
        "id": "/",
        "name": _("Kyoku mahjong league"),
        "short_name": _("Kyoku"),
        "description": _("Your table, your results and your rulings, on your phone."),
        "lang": get_language() or "en",
        "start_url": reverse("me") + "?source=app",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#ffffff",
        "theme_color": "#8b1e1e",
        "icons": icons,
        "shortcuts": [
            {"name": _("My notifications"), "url": reverse("notifications-inbox")},
            {"name": _("Tournaments"), "url": reverse("events")},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


@access(GET=PUBLIC)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the site's root so that its scope is every page."""
    response = render(request, "notifications/sw.js", {}, content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
