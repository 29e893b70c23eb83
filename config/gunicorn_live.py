"""gunicorn settings for the live streams (``/live/``: Server-Sent Events; docker-compose.yml's
``live``), the ASGI application under uvicorn workers.

A stream waits on the event loop, not on a thread: thousands per worker, idle ones costing memory
and no CPU. Pages and the API go to config/gunicorn.py's threads (the proxy, config/haproxy.cfg,
routes by path). Across workers and machines a stream hears the writes of the web processes
through Redis (``REDIS_URL``: ``live.broker``). gunicorn's ``timeout`` is the worker's heartbeat,
not a request's length, so a stream open for minutes is no fault. Workers default to the cores.
All overridable by environment.
"""

import multiprocessing
import os

wsgi_app = "config.asgi:application"
bind = os.environ.get("GUNICORN_LIVE_BIND", "0.0.0.0:8001")
worker_class = "uvicorn.workers.UvicornWorker"
workers = int(os.environ.get("GUNICORN_LIVE_WORKERS", multiprocessing.cpu_count()))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 10))
# a restart ends every stream of the worker (browsers resume with Last-Event-ID): be patient
graceful_timeout = 10
# longer than the proxy keeps an idle connection (config/gunicorn.py)
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", 75))
# each restart makes its open streams reconnect: rare
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 50000))
max_requests_jitter = max_requests // 10
accesslog = "-"
