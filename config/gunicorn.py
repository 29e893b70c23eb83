"""gunicorn settings for the pages and the API (docker-compose.yml's ``web``, the Dockerfile).

Sync workers of the WSGI application, behind the proxy (config/haproxy.cfg), which reads each
request whole before it passes it on: a worker answers one request at a time, from start to end,
and takes the next connection only when free, so waiting requests queue once, in the kernel's
accept queue, for whichever worker frees first. Measured on the busiest hour's requests
(bench/busiest_hour.py; docs/performance.md): 1.5–2.5 ms of CPU less per request than under
uvicorn workers (the ASGI handler's hand-offs between an event loop and a thread), and shorter
tails than threads, whose requests wait on each other for the interpreter's lock. The live
streams (``/live/``) are served apart, by config/gunicorn_live.py's uvicorn workers; the proxy
sends them there. Workers default to 2 × cores + 1. gunicorn's ``timeout`` ends a request still
running after it (a worker stuck); none needs more than a second. All overridable by environment.
"""

import multiprocessing
import os

wsgi_app = "config.wsgi:application"
bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
worker_class = "sync"
workers = int(os.environ.get("GUNICORN_WORKERS", 2 * multiprocessing.cpu_count() + 1))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 10))
graceful_timeout = 10
# the connections waiting for a free worker (the proxy holds the rest)
backlog = int(os.environ.get("GUNICORN_BACKLOG", 2048))
# recycle workers now and then (memory held by a rare large export)
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 50000))
max_requests_jitter = max_requests // 10
accesslog = "-"
