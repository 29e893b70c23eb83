"""The ASGI application: what uvicorn serves (``scripts/serve``) and gunicorn's uvicorn workers run
(``config/gunicorn.py``). Static files come through WhiteNoise's middleware, as under WSGI; the live
streams (live/) need an ASGI server to stay open."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()
