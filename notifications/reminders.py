"""Reminders before a start: "your round starts in N minutes", to each player seated for it.

The notifications app knows none of the apps (tests/test_import_direction.py): an app whose games
have a start time registers its scan here (``scan_register`` in its ``AppConfig.ready``), and one
periodic task (``notifications.tasks.reminders_scan``, Celery beat every minute) or one command
(``manage.py notifications_remind``, for the dev server and the in-process mode) runs them all.

A scan tells each seated player of every start due within the window (now, now + N minutes],
N = ``settings.NOTIFY_START_REMINDER_MINUTES`` (15 by default). Each reminder's key names the
round and its start time, so the unique (recipient, kind, key) of a notification makes it once per
player: a scan run twice, or two at once, tells nobody twice (notifications.services
.notification_send). What a scan does when things change is in the README
(Notifications: reminders before a start)."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.conf import settings
from django.utils import timezone

from kyoku.principals import Actor

# (now, window, actor) -> players told
Scan = Callable[[datetime.datetime, datetime.timedelta, Actor], int]
_SCANS: dict[str, Scan] = {}


def scan_register(name: str, scan: Scan) -> None:
    """An app's scan of the starts it knows (idempotent: registered again under its name)."""
    _SCANS[name] = scan


def window() -> datetime.timedelta:
    return datetime.timedelta(minutes=max(1, int(settings.NOTIFY_START_REMINDER_MINUTES)))


def reminders_scan(*, actor: Actor, now: datetime.datetime | None = None) -> dict[str, int]:
    """Run every registered scan once: how many players each told now."""
    now = now or timezone.now()
    return {name: scan(now, window(), actor) for name, scan in sorted(_SCANS.items())}
