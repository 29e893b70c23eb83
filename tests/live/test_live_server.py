"""Issue 49's test: the app under uvicorn in a subprocess (against this test's database; through
Redis pub/sub when ``REDIS_URL`` is set, in-process otherwise), 50 board streams open, a table's
phone confirms a result through the app, and every stream sees it; a reconnect with
``Last-Event-ID`` resumes; a table's private stream refuses another table's phone; and the board
still updates by polling when its stream is blocked (Chromium)."""

import http.client
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from events import services
from league.models import Game

from .conftest import SCORES

pytestmark = pytest.mark.django_db(transaction=True)

STREAMS = 50
ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url(tmp_path: Path) -> str:
    """This test's database for the server: a copy of SQLite's in-memory one in a file, or the
    PostgreSQL test database itself (its rows are committed: a transactional test)."""
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        path = tmp_path / "live.sqlite3"
        connection.ensure_connection()
        copy = sqlite3.connect(path)
        connection.connection.backup(copy)
        copy.close()
        return f"sqlite:///{path}"
    url = urllib.parse.urlsplit(os.environ["DATABASE_URL"])
    return urllib.parse.urlunsplit(url._replace(path="/" + db["NAME"]))


class Server:
    def __init__(self, port: int, process: subprocess.Popen) -> None:
        self.port, self.process = port, process
        self.url = f"http://127.0.0.1:{port}"


def _env(tmp_path: Path, **more: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": _database_url(tmp_path),
        "KYOKU_ENV_FILE": "/dev/null",
        "DEBUG": "1",
        "DB_CONN_MAX_AGE": "0",
        "LIVE_HEARTBEAT": "2",
        "LIVE_MAX_STREAMS_PER_ADDRESS": "200",
        # on PostgreSQL, as the production shape runs: a bounded pool per process (config/settings.py)
        "DB_POOL_SIZE": "4",
        **more,
    }


class Processes:
    """The servers a test starts, each logging to a file of its own, stopped together."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path, self.started = tmp_path, []

    def start(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen:
        log = open(self.tmp_path / f"{name}.log", "wb")
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        self.started.append((name, process, log))
        return process

    def wait(self, url: str) -> None:
        """Until ``url`` answers 200 (every process still running, or its log says why not)."""
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            for name, process, _ in self.started:
                assert process.poll() is None, (self.tmp_path / f"{name}.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.3)

    def stop(self) -> None:
        for _, process, log in reversed(self.started):
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
            log.close()


@pytest.fixture
def server(in_play, tmp_path):
    """The embedded default's server: one uvicorn process, pages and streams alike."""
    port = _free_port()
    processes = Processes(tmp_path)
    try:
        processes.start(
            "uvicorn",
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port", str(port)]
            + ["--lifespan", "off", "--log-level", "warning", "--timeout-graceful-shutdown", "1"],
            _env(tmp_path),
        )
        processes.wait(f"http://127.0.0.1:{port}/events/{in_play.pk}/")
        yield Server(port, processes.started[0][1])
    finally:
        processes.stop()


@pytest.fixture
def split_shape(in_play, tmp_path):
    """The production shape's serving, as docker-compose.yml runs it: the pages and the API on
    gunicorn's WSGI threads (config/gunicorn.py), the streams on uvicorn workers
    (config/gunicorn_live.py), haproxy in front with config/haproxy.cfg. The web process's writes
    reach the live process's streams through Redis."""
    if not os.environ.get("REDIS_URL") or shutil.which("haproxy") is None:
        pytest.skip("the split shape fans out through Redis, behind haproxy (CI's PostgreSQL + Redis pass)")
    web, live, port = _free_port(), _free_port(), _free_port()
    processes = Processes(tmp_path)
    env = _env(tmp_path, LIVE_STREAMS="on", GUNICORN_WORKERS="1", GUNICORN_LIVE_WORKERS="1")
    conf = (ROOT / "config" / "haproxy.cfg").read_text().replace("bind :8000", f"bind 127.0.0.1:{port}")
    (tmp_path / "haproxy.cfg").write_text(conf)
    gunicorn = [sys.executable, "-m", "gunicorn", "--access-logfile", os.devnull, "-c"]
    try:
        web_env = {**env, "GUNICORN_BIND": f"127.0.0.1:{web}", "DB_POOL_SIZE": "8"}  # docker-compose.yml's
        processes.start("web", [*gunicorn, "config/gunicorn.py"], web_env)
        processes.start(
            "live", [*gunicorn, "config/gunicorn_live.py"], {**env, "GUNICORN_LIVE_BIND": f"127.0.0.1:{live}"}
        )
        processes.start(
            "haproxy",
            ["haproxy", "-db", "-f", str(tmp_path / "haproxy.cfg")],
            {**env, "WEB": f"127.0.0.1:{web}", "LIVE": f"127.0.0.1:{live}"},
        )
        processes.wait(f"http://127.0.0.1:{web}/events/{in_play.pk}/")
        processes.wait(f"http://127.0.0.1:{port}/events/{in_play.pk}/")
        yield Server(port, processes.started[-1][1])
    finally:
        processes.stop()


class Stream(threading.Thread):
    """One Server-Sent Events client on its own connection: what it received, as (id, event, data)."""

    def __init__(self, port: int, path: str, headers: dict | None = None) -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.headers = port, path, headers or {}
        self.status: int | None = None
        self.events: list[tuple[int | None, str, dict]] = []
        self.started = threading.Event()
        self.conn: http.client.HTTPConnection | None = None

    def run(self) -> None:
        try:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.conn.request("GET", self.path, headers=self.headers)
            response = self.conn.getresponse()
            self.status = response.status
            if response.status != 200:
                return
            block: dict[str, str] = {}
            while True:
                line = response.readline()
                if not line:
                    return
                text = line.decode().rstrip("\r\n")
                if text:
                    name, _, value = text.partition(":")
                    block[name] = value.lstrip(" ")
                    continue
                if "data" in block:
                    ident = int(block["id"]) if block.get("id", "").isdigit() else None
                    self.events.append((ident, block.get("event", "message"), json.loads(block["data"])))
                    if block.get("event") == "hello":
                        self.started.set()
                block = {}
        except (OSError, ValueError, http.client.HTTPException):
            return
        finally:
            self.started.set()

    def messages(self) -> list[dict]:
        return [data for _i, event, data in list(self.events) if event == "message"]

    def close(self) -> None:
        if self.conn is not None and self.conn.sock is not None:
            try:
                self.conn.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class Phone:
    """A table's phone as a browser is one: the code from the table's sign, then the API."""

    def __init__(self, server: Server, event_id: int, game: Game) -> None:
        self.server, self.jar = server, CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.opener.open(f"{server.url}/events/{event_id}/code/").read()
        body = urllib.parse.urlencode({"code": services.table_code(game), "csrfmiddlewaretoken": self.csrf()}).encode()
        self.opener.open(urllib.request.Request(f"{server.url}/events/{event_id}/code/", data=body)).read()
        assert self.cookie().startswith("sessionid=") or "sessionid=" in self.cookie()

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def cookie(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def api(self, game: Game, action: str, body: dict) -> int:
        request = urllib.request.Request(
            f"{self.server.url}/api/events/tables/{game.pk}/{action}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-CSRFToken": self.csrf()},
        )
        with self.opener.open(request) as r:
            return r.status

    def result(self, game: Game) -> None:
        assert self.api(game, "report", {"seat": 0, "scores": SCORES}) == 201
        for seat in (1, 2, 3):
            assert self.api(game, "confirm", {"seat": seat, "version": 1}) == 200


def _board_version(server: Server, event_id: int) -> int:
    with urllib.request.urlopen(f"{server.url}/api/events/{event_id}/board") as r:
        return int(json.loads(r.read())["version"])


def _wait(condition, seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.fixture
def tables(in_play):
    return list(Game.objects.filter(season=in_play.season, match_day=1).order_by("table")[:2])


def test_fifty_streams_see_a_confirmed_result_resume_and_refuse_another_table(server, in_play, tables):
    here, there = tables
    board = f"/live/events/{in_play.pk}/board"
    streams = [Stream(server.port, board) for _ in range(STREAMS)]
    for s in streams:
        s.start()
    phone, other_phone = Phone(server, in_play.pk, here), Phone(server, in_play.pk, there)
    own = Stream(server.port, f"/live/tables/{here.pk}", {"Cookie": phone.cookie()})
    own.start()
    try:
        assert all(s.started.wait(30) for s in [*streams, own])
        assert [s.status for s in streams] == [200] * STREAMS and own.status == 200
        hello = streams[0].events[0][0]
        if connection.vendor == "postgresql":  # idle streams hold no database connection
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                assert cursor.fetchone()[0] < 5
        # a private stream: another table's phone is refused this table's
        refused = Stream(server.port, f"/live/tables/{here.pk}", {"Cookie": other_phone.cookie()})
        refused.run()
        assert refused.status in (403, 404) and refused.events == []

        phone.result(here)
        version = _board_version(server, in_play.pk)
        seen = lambda s: any(m["kind"] == "board" and m["version"] == version for m in s.messages())  # noqa: E731
        assert _wait(lambda: all(seen(s) for s in streams)), [len(s.messages()) for s in streams if not seen(s)]
        assert all(m["topic"] == f"event:{in_play.pk}:board" for s in streams for m in s.messages())
        # each message carries the board as its API answers it, so no screen has to fetch it
        with urllib.request.urlopen(f"{server.url}/api/events/{in_play.pk}/board") as r:
            api = json.loads(r.read())
        # (each standings row as the screen draws it: rank, name, games, points and the stage's split)
        from events.selectors import BOARD_SCREEN_ROW

        carried = [next(m["data"] for m in s.messages() if m["version"] == version) for s in streams]
        assert all(d["version"] == version and d["tables"] == api["tables"] for d in carried)
        drawn = [{k: row[k] for k in BOARD_SCREEN_ROW} for row in api["standings"]]
        assert all(d["standings"] == drawn for d in carried)
        assert any(row["games"] for row in drawn)  # the result is in what they carry
        # the table's phone hears the board's change with only the round's clock, not the board
        mine = lambda: [m for m in own.messages() if m["topic"] == f"event:{in_play.pk}:board"]  # noqa: E731
        assert _wait(lambda: any(m["version"] == version for m in mine()))
        assert all(set(m["data"]) == {"version", "clock", "server_time"} for m in mine())
        assert mine()[-1]["data"]["clock"]["round"] == here.match_day
        # the table's own stream heard each seat's confirmation (the last: seat 3's, of version 1)
        assert _wait(
            lambda: any(m == {"topic": f"table:{here.pk}", "version": 1, "kind": "confirm"} for m in own.messages())
        )

        # a screen that was away since the hello resumes: what it missed, coalesced to the latest
        back = Stream(server.port, board, {"Last-Event-ID": str(hello)})
        back.start()
        assert _wait(lambda: len(back.messages()) >= 1)
        assert back.messages()[0] == {"topic": f"event:{in_play.pk}:board", "version": version, "kind": "board"}
        assert back.events[1][0] > hello
        back.close()
        # an id the server cannot account for (before a restart): resync
        lost = Stream(server.port, board, {"Last-Event-ID": str(10**15)})
        lost.start()
        assert _wait(lambda: len(lost.messages()) >= 1) and lost.messages()[0]["kind"] == "resync"
        lost.close()
    finally:
        for s in [*streams, own]:
            s.close()


@pytest.mark.browser
def test_the_board_polls_when_its_stream_is_blocked(server, in_play, tables):
    from tests.browser import CHROMIUM, chromium_page

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")
    blocked: list[str] = []
    with chromium_page() as page:

        def abort(route):
            blocked.append(route.request.url)
            route.abort()

        page.route("**/live/**", abort)
        page.goto(f"{server.url}/events/{in_play.pk}/board/")
        before = int(page.get_attribute("#board", "data-version"))
        Phone(server, in_play.pk, tables[1]).result(tables[1])
        version = _board_version(server, in_play.pk)
        assert version > before
        page.wait_for_selector(f"#board[data-version='{version}']", state="attached", timeout=10000)
        assert blocked and all("/live/events/" in u for u in blocked)
        assert page.get_attribute("html", "data-live") == "polling"
        # the same page with its stream: updated by the stream's message
        page.unroute("**/live/**")
        _board_follows_its_stream(page, server, in_play.pk, tables[0])


def _board_follows_its_stream(page, server: Server, event_id: int, table: Game) -> None:
    """The board page opens its stream, a phone confirms a result, and the screen shows it from
    the stream's message: no fallback to polling, no fetch of the board."""
    page.goto(f"{server.url}/events/{event_id}/board/")
    assert page.get_attribute("#board", "data-stream") == f"/live/events/{event_id}/board"
    page.wait_for_selector("html[data-live='stream']", state="attached")  # the stream said hello
    page.wait_for_timeout(1500)  # the fetch the hello asks for (what changed since the page loaded)
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if "/api/events/" in r.url else None)
    Phone(server, event_id, table).result(table)
    version = _board_version(server, event_id)
    page.wait_for_selector(f"#board[data-version='{version}']", state="attached", timeout=10000)
    assert page.get_attribute("html", "data-live") == "stream"  # no fallback was needed
    assert fetched == []  # the message carried the board: the screen did not fetch it


@pytest.mark.browser
def test_the_split_shape_streams_the_board_through_the_proxy(split_shape, in_play, tables):
    """Rendered by a WSGI worker, the board page still links its stream (LIVE_STREAMS=on); the
    proxy sends it to the ASGI process, and a result a phone confirms through the web process
    reaches the screen by the stream's message, without a fetch or the polling fallback."""
    from tests.browser import CHROMIUM, chromium_page

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")
    with chromium_page() as page:
        _board_follows_its_stream(page, split_shape, in_play.pk, tables[0])
