"""Local receivers for the notification channels: an SMTP server (aiosmtpd, the asyncio one) and an
HTTP server that records the posts it gets (a webhook, a push service)."""

from __future__ import annotations

import json
import socket
import threading
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from aiosmtpd.controller import Controller


class _Inbox:
    def __init__(self):
        self.messages = []
        self.refuse = False

    async def handle_DATA(self, server, session, envelope):
        if self.refuse:
            return "451 Requested action aborted: local error in processing"
        self.messages.append((envelope.rcpt_tos, message_from_bytes(envelope.content, policy=policy.default)))
        return "250 OK"


@pytest.fixture
def smtp(settings):
    """A real SMTP server on loopback; Django's SMTP backend sends to it."""
    inbox = _Inbox()
    with socket.socket() as probe:  # a free port (the controller checks its server by connecting)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_TIMEOUT = 5
    inbox.port = settings.EMAIL_PORT
    yield inbox
    controller.stop()


class _Posts:
    def __init__(self):
        self.requests = []
        self.status = 201


@pytest.fixture
def http_receiver(settings):
    """An HTTP server on loopback recording every POST (path, headers, body); the operator's
    exception to the address rule (notifications.outbound) lets the server post to it."""
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    posts = _Posts()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            posts.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(posts.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    posts.url = f"http://127.0.0.1:{server.server_address[1]}"
    posts.json = lambda i=-1: json.loads(posts.requests[i][2])
    yield posts
    server.shutdown()
    server.server_close()
