"""``LIVE_STREAMS``: whether a page links its stream. "auto" follows the server that renders the
page (ASGI: yes; WSGI, the test client: no); "on" links it from WSGI workers too (the production
shape, whose proxy sends /live/ to the ASGI processes); "off" never. A value it does not know
stops the server at start, naming the setting."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.handlers.asgi import ASGIRequest
from django.test import RequestFactory, override_settings

from live.templatetags.live_tags import live_streams_served

ROOT = Path(__file__).resolve().parents[2]


def _asgi_request() -> ASGIRequest:
    scope = {"type": "http", "method": "GET", "path": "/events/1/board/", "query_string": b"", "headers": []}
    return ASGIRequest(scope, None)  # type: ignore[arg-type]  # no body is read


@pytest.mark.parametrize(
    ("mode", "wsgi", "asgi"),
    [("auto", False, True), ("on", True, True), ("off", False, False)],
)
def test_a_page_links_its_stream_as_the_setting_says(mode, wsgi, asgi):
    with override_settings(LIVE_STREAMS=mode):
        assert live_streams_served(RequestFactory().get("/events/1/board/")) is wsgi
        assert live_streams_served(_asgi_request()) is asgi


@pytest.mark.parametrize(("value", "mode"), [("1", "on"), ("TRUE", "on"), ("0", "off"), (" auto ", "auto")])
def test_the_setting_reads_the_usual_spellings(value, mode):
    out = _settings_with(value)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == mode


def test_an_unknown_value_stops_the_server_naming_the_setting():
    out = _settings_with("sometimes")
    assert out.returncode != 0
    assert "LIVE_STREAMS must be auto, on or off, not 'sometimes'" in out.stderr


def _settings_with(value: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "LIVE_STREAMS": value, "KYOKU_ENV_FILE": "/dev/null", "DEBUG": "1"}
    code = "import config.settings as s; print(s.LIVE_STREAMS)"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
