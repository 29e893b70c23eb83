"""``{% live_url "live-board" event.pk %}``: a page's stream address, or "" where this server does
not stream (WSGI: the test client, runserver), so the page polls as before without asking."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.urls import reverse

register = template.Library()


@register.simple_tag(takes_context=True)
def live_url(context: Any, name: str, *args: Any) -> str:
    request = context.get("request")
    if not isinstance(request, ASGIRequest) or getattr(settings, "LIVE_STREAM_ONCE", False):
        return ""
    return reverse(name, args=args)
