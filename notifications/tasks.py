"""Celery tasks of the outbox (in-process when no broker). Each is safe to run twice: a delivery is
claimed before it is sent (notifications.services.delivery_attempt)."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task

from . import services

logger = logging.getLogger(__name__)


@shared_task
def delivery_send(delivery_id: int) -> str:
    """Send one delivery; on a passing failure queue the next try with exponential backoff (with a
    broker: in-process the sweep retries it when it is due)."""
    outcome, wait = services.delivery_attempt(delivery_id)
    if outcome in ("retry", "delayed") and not delivery_send.app.conf.task_always_eager:
        try:
            delivery_send.apply_async((delivery_id,), countdown=wait, retry=False)
        except Exception as exc:  # the broker went away: the sweep queues it when due
            logger.warning("delivery %s: next try left to the sweep: %s", delivery_id, exc)
    return outcome


@shared_task
def deliveries_sweep() -> dict[str, Any]:
    """Every minute (Celery beat): what a lost task or a dead sender left is sent or shown."""
    from .queue import deliveries_enqueue

    found = services.deliveries_sweep()
    deliveries_enqueue(found["due"])
    return {**found, "due": len(found["due"])}


@shared_task
def reminders_scan() -> dict[str, int]:
    """Every minute (Celery beat): "your round starts in N minutes" to the players of every start due
    within the window, once each (notifications.reminders)."""
    from kyoku.principals import System

    from .reminders import reminders_scan as scan

    return scan(actor=System("task: start reminders"))
