"""A notification in words: its kind's template (templates/notifications/kinds/<kind>.txt: the
subject on the first line, the body after it) rendered with its parameters in one language.
Bounded: a subject of at most SUBJECT_MAX characters, a body of at most BODY_MAX."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import formats, timezone, translation

from .kinds import WINDS
from .models import Notification

SUBJECT_MAX = 150
BODY_MAX = 2000


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _moment(value: Any) -> datetime.datetime | None:
    if not value:
        return None
    try:
        moment = datetime.datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return timezone.localtime(moment) if timezone.is_aware(moment) else moment


def _when(value: Any) -> str:
    """The date and time, for a sentence that ends after it: a format ending in a stop ("2 p.m.")
    leaves it to the sentence's own full stop, not "2 p.m.."."""
    moment = _moment(value)
    return formats.date_format(moment, "DATETIME_FORMAT").removesuffix(".") if moment else ""


def _time(value: Any) -> str:
    moment = _moment(value)
    return formats.time_format(moment, "TIME_FORMAT") if moment else ""


def _starts_in(value: Any) -> int:
    """Whole minutes (rounded up) from the moment this is read until ``value``; 0 once it is past:
    a reminder says how long is left when it is sent, not when it was written."""
    moment = _moment(value)
    if moment is None or timezone.is_naive(moment):
        return 0
    seconds = (moment - timezone.now()).total_seconds()
    return max(0, -int(-seconds // 60))


def pick(value: Any, language: str) -> Any:
    """A parameter stored in several languages ({"en": …, "zh": …, "ja": …, "cjk": …}) in
    ``language``: a Chinese reader reads "zh" (else "cjk"), a Japanese one "ja" (else "cjk": a
    name in Chinese script, as the league's pages show it), everyone else "en"."""
    if not isinstance(value, dict) or "en" not in value:
        return value
    lang = language.lower()
    if lang.startswith("zh"):
        return value.get("zh") or value.get("cjk") or value["en"]
    if lang.startswith("ja"):
        return value.get("ja") or value.get("cjk") or value["en"]
    return value["en"]


def _wind(seat: Any) -> str:
    return str(WINDS.get(seat, "")) if isinstance(seat, int) else ""


def absolute(link: str) -> str:
    """A link a notification carries, made absolute for channels outside the site."""
    if not link or link.startswith(("http://", "https://")):
        return link
    return settings.SITE_URL.rstrip("/") + link


def render(notification: Notification, language: str | None = None) -> tuple[str, str]:
    """(subject, body) of ``notification`` in ``language`` (the active one when None)."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    params = dict(notification.params or {})
    with translation.override(language):
        context = {
            **{key: pick(value, language) for key, value in params.items()},
            "league_name": pick(params.get("league", ""), language),
            "when_text": _when(params.get("when")),
            "time_text": _time(params.get("when")),
            "starts_in": _starts_in(params.get("when")),
            "wind_text": _wind(params.get("seat")),
            "disputed_wind": _wind(params.get("disputed_seat")),
        }
        text = render_to_string(f"notifications/kinds/{notification.kind}.txt", context).strip()
    subject, _sep, body = text.partition("\n")
    body = "\n".join(line.strip() for line in body.strip().splitlines() if line.strip())
    return _clip(" ".join(subject.split()), SUBJECT_MAX), _clip(body, BODY_MAX)
