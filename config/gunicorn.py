"""gunicorn settings for the production shape (docker-compose.yml, Dockerfile).

Every page answers in well under a second (bench/league_scale.py), so a request that takes 30 s
is a fault, not load: the timeout stays short so a stuck worker is replaced quickly. Workers
default to 2 × cores + 1 (sync workers; the app does no long I/O in requests), each with a few
threads so that a slow client does not hold a whole worker. All overridable by environment.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", 2 * multiprocessing.cpu_count() + 1))
threads = int(os.environ.get("GUNICORN_THREADS", 2))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 10))
graceful_timeout = 10
keepalive = 5
# recycle workers now and then (memory held by a rare large export); tournament screens poll once a
# second, so 300 of them make 300 requests a second: a worker restart every few seconds would cost
# more than it saves
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 50000))
max_requests_jitter = max_requests // 10
accesslog = "-"
