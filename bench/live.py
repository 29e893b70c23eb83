"""Benchmark: a confirmed result on N open screens, pushed (Server-Sent Events) and polled (issue 49).

    .venv/bin/python bench/live.py [--clients 1000,3000] [--mode stream,poll] [--shape sqlite,postgres]
                                   [--results 5] [--gap 4] [--processes 8] [--workers N] [--no-fetch]
                                   [--event-players 300]

For each shape, number of clients and mode, on a fresh copy of a running EVENT_PLAYERS-player event
(bench/busiest_data.py's event; bench/prodshape.py starts the servers):

- ``sqlite``: the embedded default, SQLite and tasks in-process, one ASGI process (gunicorn with
  config/gunicorn_live.py, one uvicorn worker: the fan-out is in-process, as ``scripts/serve``);
- ``postgres``: the production shape, PostgreSQL + Redis (the fan-out through Redis pub/sub), a
  Celery worker and beat, the pages and API on config/gunicorn.py's threads and the streams on
  config/gunicorn_live.py's uvicorn workers (WORKERS of each; their defaults otherwise), haproxy
  in front.

N clients, spread over PROCESSES processes, each process holding its clients as asyncio
connections (real HTTP/1.1 over TCP, one connection each):

- ``stream``: each opens the board's stream (``/live/events/<id>/board``). A board message
  carries the board's JSON (``data``); the client shows it, as the page does, and fetches
  (``/api/events/<id>/board``, If-None-Match) only at a message without it (a resumed one, a
  resync). A client *saw* a result when the message arrived (``message``) and when the board it
  has carried the result's version (``shown``); ``--no-fetch`` ignores the data and never fetches;
- ``poll``: each polls the board's JSON every second (random phase) with If-None-Match, as the
  board page's fallback does; it saw a result when a poll returned its version.

Once every client is connected, RESULTS times a table reports its result and its three other
seats confirm it through the API (the table's code in the body, as a phone on the table does);
the clock starts when the last confirmation is acknowledged. Printed per result: the time until
half, 95 % and all clients saw it, and over all results the p99; the server's CPU (% of one core,
web and the other roles) and memory while idle (all clients connected, nothing happening) and in
the GAP seconds after each result; memory per open stream (the web processes' growth from before
the clients connected, divided by N). The clients run on the same machine: their CPU is in the
figures.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from prodshape import HEADERS, Sampler, Shape, app_role  # noqa: E402

SCORES = [48000, 32000, 12000, 8000]
REQUEST = "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Proto: https\r\n{extra}\r\n"


# ---------------------------------------------------------------- clients (in the client processes)
async def _response(reader: asyncio.StreamReader) -> tuple[int, dict, bytes]:
    """One HTTP/1.1 response: status, headers, body (Content-Length or chunked)."""
    status = int((await reader.readline()).split()[1])
    headers = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        k, _, v = line.decode("latin-1").partition(":")
        headers[k.strip().lower()] = v.strip()
    if "content-length" in headers:
        return status, headers, await reader.readexactly(int(headers["content-length"]))
    if headers.get("transfer-encoding") == "chunked":
        body = b""
        while size := int((await reader.readline()).strip() or b"0", 16):
            body += (await reader.readexactly(size + 2))[:-2]
        await reader.readline()
        return status, headers, body
    return status, headers, b""


class Client:
    """One screen: its connection(s) and what it saw: ``[(version, when)]`` per way of seeing."""

    def __init__(self, port: int, board: str, stream: str) -> None:
        self.port, self.board, self.stream = port, board, stream
        self.etag = None
        self.messages: list[tuple[int, float]] = []
        self.shown: list[tuple[int, float]] = []
        self.latencies: list[float] = []
        self.codes: dict = {}
        self.conn = None
        self.last = None  # the last event id: a new stream resumes from it
        self.fetching = self.again = False

    async def fetch_latest(self) -> None:
        """A fetch at a message: one at a time on the client's connection; a message that comes
        during a fetch asks for one more after it (as the page does: never two at once)."""
        if self.fetching:
            self.again = True
            return
        self.fetching = True
        try:
            while True:
                self.again = False
                await self.fetch()
                if not self.again:
                    break
        finally:
            self.fetching = False

    async def fetch(self) -> None:
        """The board's JSON on a keep-alive connection, conditional on what it has."""
        for _ in range(2):
            try:
                if self.conn is None:
                    self.conn = await asyncio.open_connection("127.0.0.1", self.port)
                reader, writer = self.conn
                extra = f"If-None-Match: {self.etag}\r\n" if self.etag else ""
                t = time.perf_counter()
                writer.write(REQUEST.format(path=self.board, extra=extra).encode())
                status, headers, body = await _response(reader)
                self.latencies.append((time.perf_counter() - t) * 1000)
                self.codes[status] = self.codes.get(status, 0) + 1
                if status == 200:
                    self.etag = headers.get("etag")
                    self.shown.append((json.loads(body)["version"], time.time()))
                if headers.get("connection", "").lower() == "close":
                    writer.close()
                    self.conn = None
                return
            except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
                self.codes["error"] = self.codes.get("error", 0) + 1
                self.conn = None

    async def poll(self, until: float, period: float = 1.0) -> None:
        await asyncio.sleep(random.uniform(0, period))
        next_at = time.time()
        while time.time() < until:
            await self.fetch()
            next_at += period
            await asyncio.sleep(max(0.0, next_at - time.time()))

    async def follow(self, until: float, fetch: bool, connected) -> None:
        """The stream, resumed with Last-Event-ID when it ends; at each message a fetch."""
        first = True
        while time.time() < until:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                extra = f"Last-Event-ID: {self.last}\r\n" if self.last else ""
                writer.write(REQUEST.format(path=self.stream, extra=extra).encode())
                status = int((await reader.readline()).split()[1])
                self.codes[f"stream {status}"] = self.codes.get(f"stream {status}", 0) + 1
                while await reader.readline() not in (b"\r\n", b""):
                    pass
                if status != 200:
                    writer.close()
                    await asyncio.sleep(1)
                    continue
                if first:
                    connected()
                    first = False
                await self._messages(reader, until, fetch)
                writer.close()
            except (OSError, ValueError, IndexError, asyncio.IncompleteReadError, TimeoutError):
                if time.time() < until:  # (the run's end is no error)
                    self.codes["stream error"] = self.codes.get("stream error", 0) + 1
                    await asyncio.sleep(0.5)

    async def _messages(self, reader: asyncio.StreamReader, until: float, fetch: bool) -> None:
        buffer = b""
        while time.time() < until:
            size_line = await asyncio.wait_for(reader.readline(), timeout=max(0.1, until - time.time()))
            size = int(size_line.strip() or b"0", 16)
            if size == 0:
                return
            buffer += (await reader.readexactly(size + 2))[:-2]
            while b"\n\n" in buffer:
                message, buffer = buffer.split(b"\n\n", 1)
                fields = dict(
                    line.split(": ", 1) for line in message.decode().split("\n") if ": " in line and line[0] != ":"
                )
                self.last = fields.get("id", self.last)
                if "data" in fields and fields.get("event", "message") == "message":
                    data = json.loads(fields["data"])
                    if data.get("version") is not None:
                        self.messages.append((int(data["version"]), time.time()))
                    if fetch and isinstance(data.get("data"), dict):
                        self.shown.append((int(data["data"]["version"]), time.time()))  # carried: no fetch
                    elif fetch:
                        asyncio.get_running_loop().create_task(self.fetch_latest())


def _client_process(port: int, board: str, stream: str, mode: str, n: int, until: float, fetch: bool, ready, out):
    async def run() -> list[Client]:
        clients = [Client(port, board, stream) for _ in range(n)]
        opened = [0]

        def connected() -> None:
            opened[0] += 1
            ready.put(1)

        tasks = []
        for c in clients:
            if mode == "stream":
                tasks.append(asyncio.create_task(c.follow(until, fetch, connected)))
            else:
                tasks.append(asyncio.create_task(c.poll(until)))
                connected()
            await asyncio.sleep(0.002)  # a ramp, not one SYN flood
        await asyncio.wait(tasks, timeout=max(1.0, until - time.time() + 5))
        return clients

    clients = asyncio.run(run())
    out.put([(c.messages, c.shown, c.latencies, c.codes) for c in clients])


# ---------------------------------------------------------------- the run (the main process)
def _post(port: int, path: str, body: dict) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", path, body=json.dumps(body), headers={**HEADERS, "Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    if response.status >= 400:  # the result is left out of the figures, the run goes on
        raise OSError(f"{path}: {response.status} {data[:300]!r}")


def _version(port: int, path: str) -> int:
    """The board's version now (asked again while the server answers something else, e.g. 503)."""
    for _ in range(10):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", path, headers=HEADERS)
        response = conn.getresponse()
        body = response.read()
        if response.status == 200:
            return json.loads(body)["version"]
        time.sleep(0.5)
    raise OSError(f"the board answered {response.status}: {body[:200]!r}")


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q / 100 * (len(xs) - 1)))] if xs else float("nan")


def one_run(shape: Shape, n: int, mode: str, args: argparse.Namespace) -> dict:
    """N clients in one mode against a fresh copy of the event; the figures."""
    shape.database_fresh()
    url = shape.app_start()
    port = int(url.rsplit(":", 1)[1])
    event = shape.manifest["event"]
    board, stream = event["board"], f"/live/events/{event['id']}/board"
    sampler = Sampler(shape.roles(), every=0.5)
    sampler.start()
    time.sleep(2)
    before = sampler.snapshot()
    connect_for = 10 + n / 200
    until = time.time() + connect_for + 4 + args.results * args.gap + 8  # (8 s for the last result's fan-out)
    ready, out = multiprocessing.Queue(), multiprocessing.Queue()
    per = [n // args.processes + (1 if i < n % args.processes else 0) for i in range(args.processes)]
    procs = [
        multiprocessing.Process(
            target=_client_process, args=(port, board, stream, mode, k, until, not args.no_fetch, ready, out)
        )
        for k in per
        if k
    ]
    for p in procs:
        p.start()
    connected, deadline = 0, time.time() + connect_for
    while connected < n and time.time() < deadline:
        try:
            connected += ready.get(timeout=max(0.1, deadline - time.time()))
        except Exception:  # noqa: BLE001 — queue.Empty: the time to connect is up
            break
    time.sleep(3)
    idle_from = time.time()
    time.sleep(2)
    idle = sampler.between(idle_from, time.time())
    acks = []
    first_at = time.time()
    for k in range(args.results):
        # results at a fixed pace: a phone's requests slowed by the last fan-out do not push the
        # later results past the clients' window
        time.sleep(max(0.0, first_at + k * args.gap - time.time()))
        table = event["tables"][k % len(event["tables"])]
        base, code = f"/api/events/tables/{table['game']}/", table["code"]
        try:
            _post(port, base + "report", {"seat": 0, "scores": SCORES, "code": code})
            for seat in (1, 2, 3):
                _post(port, base + "confirm", {"seat": seat, "code": code, "version": 1})
            acked = time.time()
            acks.append((_version(port, board), acked))
        except (OSError, TimeoutError) as e:  # a server too busy to answer the phone in 30 s
            print(f"result {k + 1}: the phone's request failed ({e!r})", flush=True)
    time.sleep(args.gap)
    results = [c for _ in procs for c in out.get()]
    for p in procs:
        p.join()
    sampler.stop()
    whole = sampler.between(idle_from, time.time())  # the web's CPU per board request, over the run
    seconds = time.time() - idle_from
    busy = [sampler.between(t, t + args.gap) for _, t in acks]
    shape.app_stop()
    figures = _figures(n, mode, connected, results, acks, before, idle, busy)
    web_cpu = sum(c for role, (c, _) in whole.items() if app_role(role)) / 100 * seconds
    figures["cpu_ms_per_request"] = 1000 * web_cpu / max(1, figures["requests"])
    return figures


def _figures(n, mode, connected, results, acks, before, idle, busy) -> dict:
    rows, all_delays, all_messages = [], [], []
    for version, acked in acks:
        shown = [next((t for v, t in r[1] if v >= version), float("inf")) - acked for r in results]
        message = [next((t for v, t in r[0] if v >= version), float("inf")) - acked for r in results]
        all_delays += shown
        all_messages += message if mode == "stream" else []
        rows.append(
            {
                "half": statistics.median(shown),
                "p95": pct(shown, 95),
                "all": max(shown),
                "saw": sum(1 for d in shown if d != float("inf")),
                "message_p95": pct(message, 95) if mode == "stream" else None,
            }
        )
    codes: dict = {}
    for r in results:
        for k, v in r[3].items():
            codes[k] = codes.get(k, 0) + v
    latencies = [x for r in results for x in r[2]]
    web = lambda s: sum(c for role, (c, _) in s.items() if app_role(role))  # noqa: E731
    web_mb = lambda s: sum(m for role, (_, m) in s.items() if app_role(role))  # noqa: E731
    return {
        "clients": n,
        "mode": mode,
        "connected": connected,
        "rows": rows,
        "p99": pct(all_delays, 99),
        "message_p99": pct(all_messages, 99) if all_messages else None,
        "codes": codes,
        "fetch_p95": pct(latencies, 95),
        "requests": len(latencies),
        "idle_cpu": web(idle),
        "busy_cpu": max((web(b) for b in busy), default=0.0),
        "other_cpu": {r: c for r, (c, _) in (busy[0] if busy else {}).items() if not app_role(r)},
        "idle_mb": web_mb(idle),
        "kb_per_client": (web_mb(idle) - web_mb(before)) * 1024 / max(1, n),
    }


def report(label: str, f: dict) -> None:
    print(
        f"\n{label}: {f['clients']} clients, {f['mode']}ing ({f['connected']} connected); "
        + (f"board fetches {f['requests']}, p95 {f['fetch_p95']:.0f} ms" if f["requests"] else "no board fetch")
        + "; answers "
        + ", ".join(f"{k}: {v}" for k, v in sorted(f["codes"].items(), key=str))
    )
    print(f"{'result':>6} {'half saw it':>12} {'95 % saw it':>12} {'all saw it':>11} {'saw':>10}")
    for k, r in enumerate(f["rows"], 1):
        extra = f"  (message alone p95 {r['message_p95']:.2f} s)" if r["message_p95"] is not None else ""
        print(f"{k:6} {r['half']:11.2f}s {r['p95']:11.2f}s {r['all']:10.2f}s {r['saw']:5}/{f['clients']}{extra}")
    message = f", the message alone {f['message_p99']:.2f} s" if f["message_p99"] is not None else ""
    others = ", ".join(f"{r} {c:.0f} %" for r, c in sorted(f["other_cpu"].items()))
    print(
        f"p99 over all results: {f['p99']:.2f} s{message} (goal ≤ 1 s on 1,000 screens); web CPU idle "
        f"{f['idle_cpu']:.0f} %, at a result up to {f['busy_cpu']:.0f} % (of one core; {others}); "
        f"web memory {f['idle_mb']:.0f} MB with every client connected, {f['kb_per_client']:.0f} KB per client"
        + (
            f"; web CPU {f['cpu_ms_per_request']:.1f} ms per board request (the machine's load aside)"
            if f["requests"]
            else ""
        )
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", default="1000,3000")
    ap.add_argument("--mode", default="stream,poll")
    ap.add_argument("--shape", default="sqlite,postgres")
    ap.add_argument("--results", type=int, default=5)
    ap.add_argument("--gap", type=float, default=4.0, help="seconds between results")
    ap.add_argument("--processes", type=int, default=8, help="client processes")
    ap.add_argument(
        "--workers",
        type=int,
        help="workers of the web and of the live process on PostgreSQL (default: their configurations')",
    )
    ap.add_argument("--no-fetch", action="store_true", help="stream clients do not fetch the board")
    ap.add_argument("--event-players", type=int, default=300, help="the event's size (its board's size)")
    args = ap.parse_args()
    summary = []
    for shape_name in args.shape.split(","):
        sqlite = shape_name == "sqlite"
        with Shape(workers=1 if sqlite else args.workers, sqlite=sqlite) as shape:
            shape.data_build([f"--event-players={args.event_players}", "--leagues=0"])
            label = "SQLite, tasks in-process, 1 web process" if sqlite else "PostgreSQL + Redis"
            print(f"{label}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
            for n in [int(x) for x in args.clients.split(",")]:
                for mode in args.mode.split(","):
                    f = one_run(shape, n, mode, args)
                    report(label, f)
                    summary.append({"shape": shape_name, **{k: v for k, v in f.items() if k != "other_cpu"}})
    print(json.dumps(summary, default=str))


if __name__ == "__main__":
    main()
