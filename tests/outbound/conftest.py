"""A listener on loopback that records any connection it gets: what an internal service would be.
The address rule must keep the server from ever reaching it (no operator exception is set)."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


class _Heard:
    def __init__(self):
        self.requests = []


@pytest.fixture
def internal():
    heard = _Heard()

    class Handler(BaseHTTPRequestHandler):
        def _any(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            heard.requests.append((self.command, self.path, dict(self.headers), body))
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_POST = do_GET = do_PUT = _any

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    heard.port = server.server_address[1]
    yield heard
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def _no_operator_exception(settings):
    settings.OUTBOUND_ALLOWED_NETWORKS = []
