"""Locust: the busiest hour of a match day, all at once (issue 49). Driven by bench/busiest_hour.py;
by hand::

    BUSY_MANIFEST=manifest.json .venv/bin/locust -f bench/locustfile_busiest.py --headless \\
        --host http://127.0.0.1:8000 -u 3700 -r 200 -t 3m

The manifest is bench/busiest_data.py's. The users, each kind a fixed count (``BUSY_SCALE``, 0–1,
scales every count; at least one of each):

- **table phones**: four per table of the event (300 players: 75 tables). Each watches the event
  as the table page's script does: the board's JSON every 3 s with ``If-None-Match``, or, when the
  stream exists (``BUSY_STREAM`` names its path, ``{event}`` for the event's id), one stream (its
  board messages carry the board; a fetch only at a bare message). Within the report minute (``BUSY_REPORT_AT`` s after the
  start, ``BUSY_REPORT_WINDOW`` s long) seat East reports the table's final scores and the other
  three seats confirm, each with the table's code in the body, as a phone on the table does;
- **boards**: one per 10 tables, the big screen's poll every second (or the stream);
- **spectators**: 1,000, arriving over the first ``BUSY_SPECTATOR_ARRIVAL`` s (30 by default): the
  board page once, then the board like a big screen;
- **league admins**: one per league (100 × the scale, at most one per league built), signed in with an API token: RESULTS results, then a
  game hand by hand (each hand, then finish), each write with an ``Idempotency-Key``;
- **players**: 2,000, reading standings (page and API), a player's page, statistics, the
  league's leaderboard, a page every ``BUSY_READER_WAIT`` s (random, 20–60 by default), already
  reading when the run starts (the first page at a random point of that wait, not all at once).

Request names start with ``write:`` or ``read:``; bench/busiest_hour.py groups them so.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import time
import uuid
from collections.abc import Iterator

import gevent
from gevent.event import Event
from locust import between, constant, events, task
from locust.contrib.fasthttp import FastHttpUser

MANIFEST = json.load(open(os.environ["BUSY_MANIFEST"])) if os.environ.get("BUSY_MANIFEST") else None
SCALE = float(os.environ.get("BUSY_SCALE", "1"))
REPORT_AT = float(os.environ.get("BUSY_REPORT_AT", "20"))
REPORT_WINDOW = float(os.environ.get("BUSY_REPORT_WINDOW", "60"))
STREAM = os.environ.get("BUSY_STREAM", "")  # e.g. /live/events/{event}/board
READER_WAIT = [float(x) for x in os.environ.get("BUSY_READER_WAIT", "20,60").split(",")]
ARRIVAL = float(os.environ.get("BUSY_SPECTATOR_ARRIVAL", "30"))  # seconds over which spectators arrive
BASE = {"X-Forwarded-Proto": "https", "Host": "127.0.0.1"}
JSON = {**BASE, "Content-Type": "application/json"}


def count(n: int) -> int:
    return max(1, round(n * SCALE))


TABLES = MANIFEST["event"]["tables"] if MANIFEST else []
TABLES = TABLES[: count(len(TABLES))]
ALL_LEAGUES = MANIFEST["leagues"] if MANIFEST else []  # the players read every league
LEAGUES = ALL_LEAGUES[: count(100)]  # an admin each: 100 × the scale, as many as were built
START = time.time()
reported: dict[int, Event] = {}  # a table's report, awaited by the three seats that confirm it
phones = itertools.count()
admins = itertools.count()
ACKS = open(os.environ["BUSY_ACKS"], "a") if os.environ.get("BUSY_ACKS") else None


def write(client, path: str, body: dict, headers: dict, name: str):
    """POST a write with an Idempotency-Key; when the server had already closed the reused
    keep-alive connection (its keep-alive is 5 s; an admin thinks longer), send it again with the
    same key, as an app does. The retry is counted under its own name, not as a failure."""
    headers = {**headers, "Idempotency-Key": uuid.uuid4().hex}
    with client.post(path, data=json.dumps(body), headers=headers, name=name, catch_response=True) as r:
        if r.status_code != 0:
            return r
        r.success()
    events.request.fire(
        request_type="POST",
        name="client: a write sent again (closed keep-alive)",
        response_time=0,
        response_length=0,
        exception=None,
        context={},
    )
    return client.post(path, data=json.dumps(body), headers=headers, name=name)


def sent(**what) -> None:
    """Note a write about to be sent: one the run's end (or a timeout) leaves unanswered may be
    stored, but only if it was sent (bench/busiest_check.py)."""
    if ACKS is not None:
        ACKS.write(json.dumps({**what, "sent": True}) + "\n")
        ACKS.flush()


def acked(response, **what) -> None:
    """Note a write the server acknowledged (bench/busiest_check.py finds each stored once)."""
    if ACKS is not None and 200 <= response.status_code < 300:
        ACKS.write(json.dumps(what) + "\n")
        ACKS.flush()


@events.test_start.add_listener
def _start(**_kw) -> None:
    global START
    START = time.time()


class Watcher(FastHttpUser):
    """Something that keeps the event's board up to date: polls it, or follows the stream."""

    abstract = True
    period = 1.0
    kind = "screen"

    def on_start(self) -> None:
        self.etag = None
        self.board = MANIFEST["event"]["board"]
        self.follower = gevent.spawn(self.follow) if STREAM else None

    def on_stop(self) -> None:
        if self.follower is not None:
            self.follower.kill()

    def board_fetch(self) -> None:
        headers = dict(BASE)
        if self.etag:
            headers["If-None-Match"] = self.etag
        with self.client.get(self.board, headers=headers, name=f"read: board ({self.kind})", catch_response=True) as r:
            if r.status_code == 200:
                self.etag = r.headers.get("ETag")
                r.success()
            elif r.status_code == 304:
                r.success()
            else:
                r.failure(f"status {r.status_code}")

    def watch(self) -> None:
        """One period of watching: a poll (the stream, when there is one, is followed beside)."""
        if not STREAM:
            self.board_fetch()
        gevent.sleep(random.uniform(0.9, 1.1) * self.period)

    def follow(self) -> None:
        """The stream, opened again whenever it ends (as the browser does). A board message carries
        the board (the page shows it); at a bare one (resumed, a resync) the page fetches."""
        path = STREAM.format(event=MANIFEST["event"]["id"])
        while True:
            try:
                response = self.client.request("GET", path, stream=True, headers=BASE, name="stream: board (opening)")
                response.raise_for_status()
                buffer, seen = bytearray(), 0
                for data in arriving(response):
                    buffer += data
                    start = 0
                    while (end := buffer.find(b"\n\n", max(start, seen - 1))) >= 0:
                        event, start = bytes(buffer[start:end]), end + 2
                        # a default message (no "event:" line) without the board: fetch it
                        if b"data:" in event and b"event:" not in event and b'"data":' not in event:
                            self.board_fetch()
                    del buffer[:start]
                    seen = len(buffer)
            except Exception:  # noqa: BLE001 — a dropped stream is resumed
                pass
            gevent.sleep(1)


def arriving(response) -> Iterator[bytes]:
    """A streamed answer's body as it arrives, whatever the size. Locust's ``iter_lines`` reads
    1 KB at a time and rescans its whole buffer at each (quadratic in a 55 KB board line: the load
    generator's one event loop spent the report minute on it instead of timing requests), and
    geventhttpclient's ``read(n)`` waits until n bytes came (a short message waits for the next
    ones). So: what the parser holds, else one ``recv`` fed to the parser (it undoes the chunked
    encoding). geventhttpclient's private parts, for a bench only."""
    raw = response._response
    while True:
        if raw._body_buffer:
            data = bytes(raw._body_buffer)
            del raw._body_buffer[:]
            yield data
        elif raw.message_complete or raw._sock is None:
            return
        else:
            got = raw._sock.recv(256 * 1024)
            if not got:
                return
            raw.feed(got)


class TablePhone(Watcher):
    """A phone on a table: watches the board every 3 s; East reports in the minute, the others confirm."""

    fixed_count = 4 * len(TABLES)  # the tables are scaled already
    period = 3.0
    kind = "phone"
    wait_time = constant(0)

    def on_start(self) -> None:
        super().on_start()
        n = next(phones)
        self.table, self.seat = TABLES[(n // 4) % len(TABLES)], n % 4
        if n >= 4 * len(TABLES):
            self.seat = None  # a phone beyond the tables' four: only watches
        offset = random.uniform(0, REPORT_WINDOW * 0.6)
        self.report_at = START + REPORT_AT + offset if self.seat == 0 else None
        self.done = self.seat is None
        reported.setdefault(self.table["game"], Event())

    @task
    def phone(self) -> None:
        if not self.done and self.seat == 0 and time.time() >= self.report_at:
            self.post("report", {"seat": 0, "scores": MANIFEST["scores"][0], "code": self.table["code"]})
            reported[self.table["game"]].set()
            self.done = True
        elif not self.done and self.seat and reported[self.table["game"]].is_set():
            gevent.sleep(random.uniform(1, REPORT_WINDOW * 0.3))  # reading the scores, then tapping
            self.post("confirm", {"seat": self.seat, "version": 1, "code": self.table["code"]})
            self.done = True
        self.watch()

    def post(self, action: str, body: dict) -> None:
        what = {"kind": f"table {action}", "game": self.table["game"], "seat": self.seat}
        sent(**what)
        r = write(
            self.client, f"/api/events/tables/{self.table['game']}/{action}", body, JSON, f"write: table {action}"
        )
        acked(r, **what)


class Board(Watcher):
    """A big screen at the venue: one per 10 tables."""

    fixed_count = count(max(1, len(MANIFEST["event"]["tables"]) // 10)) if MANIFEST else 0
    wait_time = constant(0)

    @task
    def screen(self) -> None:
        self.watch()


class Spectator(Watcher):
    """A spectator's phone on the board page."""

    fixed_count = count(1000) if MANIFEST else 0
    kind = "spectator"
    wait_time = constant(0)

    def on_start(self) -> None:
        gevent.sleep(random.uniform(0, ARRIVAL))  # spectators come in over the first ARRIVAL s
        super().on_start()
        self.client.get(MANIFEST["event"]["board_page"], headers=BASE, name="read: board page")

    @task
    def screen(self) -> None:
        self.watch()


class LeagueAdmin(FastHttpUser):
    """A league's admin entering the evening's results, then a game hand by hand."""

    fixed_count = len(LEAGUES)
    wait_time = between(2, 8)

    def on_start(self) -> None:
        self.league = LEAGUES[next(admins) % len(LEAGUES)]
        self.auth = {**JSON, "Authorization": f"Token {self.league['token']}"}
        self.steps = iter(self.plan())

    def plan(self) -> list[tuple[str, str, dict, int]]:
        steps = [
            (f"/api/games/{g}/result/", "write: result", {"scores": MANIFEST["scores"][i % len(MANIFEST["scores"])]}, g)
            for i, g in enumerate(self.league["results"])
        ]
        game = self.league["by_hand"]
        steps += [(f"/api/games/{game}/hands/", "write: hand", {"record": r}, game) for r in MANIFEST["hands"]]
        steps.append((f"/api/games/{game}/hands/finish/", "write: hand-game finish", {}, game))
        return steps

    @task
    def enter(self) -> None:
        step = next(self.steps, None)
        if step is None:  # the evening's entries done: the league's standings now and then
            self.client.get(
                f"/api/divisions/{self.league['divisions'][0]}/standings/", headers=BASE, name="read: standings API"
            )
            gevent.sleep(20)
            return
        path, name, body, game = step
        what = {"kind": name.removeprefix("write: "), "game": game, "league": self.league["slug"]}
        sent(**what)
        r = write(self.client, path, body, self.auth, name)
        acked(r, **what)


class Reader(FastHttpUser):
    """A player reading standings, statistics and pages."""

    fixed_count = count(2000) if MANIFEST else 0
    wait_time = between(*READER_WAIT)

    def on_start(self) -> None:
        self.league = random.choice(ALL_LEAGUES)
        self.player = random.choice(self.league["players"])
        # already reading when the hour is measured: the first page at a random point of the
        # wait, so the readers' pages come at their steady rate from the start, not all at once
        gevent.sleep(random.uniform(0, READER_WAIT[1]))

    @task(3)
    def standings_page(self) -> None:
        self.client.get(f"/seasons/{self.league['season']}/divisions/A/", headers=BASE, name="read: standings page")

    @task(2)
    def standings_api(self) -> None:
        division = random.choice(self.league["divisions"])
        self.client.get(f"/api/divisions/{division}/standings/", headers=BASE, name="read: standings API")

    @task(3)
    def player_page(self) -> None:
        self.client.get(f"/players/{self.player}/", headers=BASE, name="read: player page")

    @task(2)
    def statistics(self) -> None:
        self.client.get(
            f"/players/{self.player}/statistics/?league={self.league['slug']}",
            headers=BASE,
            name="read: statistics page",
        )

    @task(1)
    def leaderboard(self) -> None:
        self.client.get(
            f"/leagues/{self.league['slug']}/statistics/?rate=win_rate&min=0", headers=BASE, name="read: leaderboard"
        )
