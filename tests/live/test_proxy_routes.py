"""The proxy of the production shape (config/haproxy.cfg) sends the live streams to the ASGI
processes and everything else to the WSGI ones, and a stream's first bytes through it arrive at
once (haproxy otherwise holds a streamed answer's first bytes up to 200 ms). Run against
Debian's haproxy, with two small servers standing in for the web and the live processes."""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

pytestmark = pytest.mark.skipif(shutil.which("haproxy") is None, reason="needs Debian's haproxy (.ci/run installs it)")


def _server(name: str) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            if self.path.startswith("/live/"):  # a stream: the hello now, the rest later, no length
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                hello = f"event: hello\ndata: {name}\n\n".encode()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(hello), hello))
                self.wfile.flush()
                time.sleep(1.5)
                self.wfile.write(b"0\r\n\r\n")
                return
            body = name.encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.handle_error = lambda *args: None  # type: ignore[method-assign]  # a client gone mid-stream
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def proxy(tmp_path) -> Iterator[int]:
    web, live = _server("web"), _server("live")
    port = _free_port()
    with open(os.path.join(ROOT, "config", "haproxy.cfg")) as f:
        conf = f.read()
    assert "bind :8000" in conf
    path = tmp_path / "haproxy.cfg"
    path.write_text(conf.replace("bind :8000", f"bind 127.0.0.1:{port}"))
    env = {
        **os.environ,
        "WEB": f"127.0.0.1:{web.server_address[1]}",
        "LIVE": f"127.0.0.1:{live.server_address[1]}",
    }
    proc = subprocess.Popen(["haproxy", "-db", "-f", str(path)], env=env, stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
                time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        proc.wait(5)
        web.shutdown()
        live.shutdown()


def _get(port: int, path: str) -> tuple[str, float]:
    """The first bytes of the answer's body and how long they took."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    start = time.monotonic()
    conn.request("GET", path)
    response = conn.getresponse()
    first = response.read1(200) if path.startswith("/live/") else response.read()
    return first.decode(), time.monotonic() - start


def test_the_live_streams_go_to_the_live_processes_and_the_rest_to_the_web(proxy):
    assert _get(proxy, "/live/events/1/board")[0] == "event: hello\ndata: live\n\n"
    assert _get(proxy, "/live/inbox")[0].endswith("data: live\n\n")
    for path in ("/", "/api/events/1/board", "/events/1/board", "/livestock/", "/players/7/"):
        assert _get(proxy, path)[0] == "web", path


def test_a_streams_first_bytes_pass_the_proxy_at_once(proxy):
    # without "option http-no-delay" haproxy held them about 200 ms, waiting for more
    waits = [_get(proxy, "/live/tables/3")[1] for _ in range(3)]
    assert max(waits) < 0.15, waits
