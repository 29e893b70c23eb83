"""Django's PostgreSQL backend with one difference: opening a connection is retried for a few
seconds (``DB_CONNECT_RETRY_SECONDS``, 3 by default) before it fails.

A PostgreSQL restart refuses connections for a second or two ("the database system is shutting
down", "connection refused"). Without the retry every request in that window answers with an
error and every phone's outbox has to send again; with it the request waits and goes through.
Only the connect is retried: nothing has been sent yet, so trying again cannot do anything twice.
A query that fails on an open connection is not retried here; the request answers 503
(kyoku.site.server_error) and the client's retry, with its idempotency key, stores it once.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

import psycopg
from django.db.backends.postgresql import base

logger = logging.getLogger(__name__)


def connect_retry_seconds() -> float:
    return float(os.environ.get("DB_CONNECT_RETRY_SECONDS", "3"))


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        deadline = time.monotonic() + connect_retry_seconds()
        delay = 0.1
        while True:
            try:
                return super().get_new_connection(conn_params)
            except psycopg.OperationalError as exc:
                if time.monotonic() + delay > deadline:
                    raise
                logger.warning("database refused a connection, trying again in %.1f s: %s", delay, exc)
                time.sleep(delay)
                delay = min(delay * 2, 1.0)
