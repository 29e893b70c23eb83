"""gunicorn settings for the pages and the API (docker-compose.yml's ``web``, the Dockerfile).

Threads of the WSGI application (gthread): a request is parsed and answered on a worker's thread,
with none of the ASGI handler's hand-offs between an event loop and a thread (measured: 1.5–2.5 ms
of CPU less per request than under uvicorn workers, a third of a cheap API answer). The live
streams (``/live/``) are served apart, by config/gunicorn_live.py's uvicorn workers; the proxy in
front (config/haproxy.cfg) sends them there. Workers default to one per core, each with
``GUNICORN_THREADS`` (8) threads (keep ``DB_POOL_SIZE`` at least that). Fewer processes with more
threads keep each process busier, its memory warm in its core's caches. Against 2 × cores + 1
workers of 4 threads: the whole busiest hour 13.9 ms of web CPU per request (14.5) with its p50s
halved, half of it 11.2–12.9 ms (12.4–13.1), cheaper in each of four alternated pairs of runs
though within this machine's spread; and 306 MB for the web processes instead of 706
(docs/performance.md). gunicorn's ``timeout`` is the worker's
heartbeat. Sync workers (one request each at a time) were measured too, on half of the busiest
hour: longer tails (reads' p95 80–160 ms against 30–130), as a sync worker idles while its
request waits on the database. All overridable by environment.
"""

import multiprocessing
import os

wsgi_app = "config.wsgi:application"
bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
worker_class = "gthread"
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count()))
threads = int(os.environ.get("GUNICORN_THREADS", 8))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 10))
graceful_timeout = 10
# the proxy reuses its connections and lets an idle one go within seconds (haproxy's
# pool-purge-delay, 5 s): keep them longer than that, or the proxy sends a request on one just
# closed and retries it half a second later
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", 75))
# recycle workers now and then (memory held by a rare large export)
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 50000))
max_requests_jitter = max_requests // 10
accesslog = "-"
