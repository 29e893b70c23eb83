"""The ASGI application: what uvicorn serves (``scripts/serve``: everything, in one process) and, in
production, gunicorn's uvicorn workers run for the live streams (``config/gunicorn_live.py``; the
pages and the API run on WSGI threads, ``config/gunicorn.py``). Static files come through
WhiteNoise's middleware, as under WSGI; the live streams (live/) need an ASGI server to stay open."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()
