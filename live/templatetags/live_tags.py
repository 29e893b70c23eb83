"""``{% live_url "live-board" event.pk %}``: a page's stream address, or "" where no stream is
served (``LIVE_STREAMS``: "auto", a page rendered under WSGI, as by the test client or runserver;
"off"), so the page polls as before without asking. In the production shape the pages come from
WSGI workers and the proxy sends ``/live/`` to the ASGI ones: ``LIVE_STREAMS=on``."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.urls import reverse

register = template.Library()


@register.simple_tag(takes_context=True)
def live_url(context: Any, name: str, *args: Any) -> str:
    if not live_streams_served(context.get("request")):
        return ""
    return reverse(name, args=args)


def live_streams_served(request: Any) -> bool:
    """Whether a stream opened from this page is held open by an ASGI server."""
    mode = getattr(settings, "LIVE_STREAMS", "auto")
    if mode == "off" or getattr(settings, "LIVE_STREAM_ONCE", False):
        return False
    return mode == "on" or isinstance(request, ASGIRequest)
