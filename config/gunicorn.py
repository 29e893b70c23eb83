"""gunicorn settings for the production shape (docker-compose.yml, Dockerfile).

Workers are uvicorn's (ASGI): each serves the pages and API as before (Django runs a sync view
in a thread) and holds the live streams (live/: Server-Sent Events), thousands per worker, idle
ones costing memory and no CPU. gunicorn's ``timeout`` is the worker's heartbeat, not a request's
length, so a stream open for minutes is no fault; a stuck worker is still replaced quickly. Workers
default to 2 × cores + 1. With several workers (or machines) the streams fan out through Redis
(``REDIS_URL``). All overridable by environment.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "uvicorn.workers.UvicornWorker")
workers = int(os.environ.get("GUNICORN_WORKERS", 2 * multiprocessing.cpu_count() + 1))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 10))
# a restart ends every stream of the worker (browsers resume with Last-Event-ID): be patient
graceful_timeout = 10
keepalive = 5
# recycle workers now and then (memory held by a rare large export); each restart makes its open
# streams reconnect, so it stays rare
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 50000))
max_requests_jitter = max_requests // 10
accesslog = "-"
