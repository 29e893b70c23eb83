"""Queueing deliveries after the commit. The queueing never fails the request that made the fact
(it has committed): with no broker (the embedded default) the send runs here; with a broker that
is down the deliveries stay pending and the periodic sweep queues them when it is back."""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)


def deliveries_enqueue(ids: list[int]) -> None:
    from .tasks import delivery_send

    eager = bool(delivery_send.app.conf.task_always_eager)
    for pk in ids:
        try:
            if eager:
                delivery_send.apply((pk,), throw=True)
            else:
                delivery_send.apply_async((pk,), retry=False)
        except Exception as exc:  # a broker down, or (in-process) a database error: the sweep retries
            logger.warning("delivery %s left to the sweep: %s", pk, exc)
