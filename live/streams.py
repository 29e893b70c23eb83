"""One stream, as Server-Sent Events: the response a stream view returns (``stream_response``) and
the async generator behind it (``sse_events``). See the package docstring (``live``)."""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import random
from typing import Any, AsyncIterator, Callable, Iterator

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, StreamingHttpResponse

from kyoku.throttle import Throttled, client_address

from .broker import HUB, Message, broker_get, seconds_setting, setting

logger = logging.getLogger(__name__)

# What a stream may attach to a topic's messages: the JSON text of what the topic shows now (built
# in a worker thread with the stream's language active), or None to send the message bare. The
# board's stream attaches the board itself, so a thousand screens do not fetch it at once.
Attach = Callable[[Message], "str | None"]
AttachedKey = tuple[int, int, str, Attach]  # (event loop, message id, language, attach)


def last_event_id(request: HttpRequest) -> int | None:
    """Where the client resumes: the ``Last-Event-ID`` header (a browser reconnecting), else the
    ``last`` parameter (a page opening a new stream after falling back to polling)."""
    raw = request.headers.get("Last-Event-ID") or request.GET.get("last") or ""
    raw = raw.strip()
    return int(raw) if raw.isdigit() and len(raw) < 19 else None


def client_key(request: HttpRequest) -> tuple[str, int]:
    """Whom a stream counts against, and that client's bound: a session (a browser's tabs), else
    the address (spectators behind one venue's Wi-Fi share it: a larger bound)."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if key:
        return f"client:s:{key}", setting("LIVE_MAX_STREAMS_PER_CLIENT", 10)
    return f"client:a:{client_address(request)}", setting("LIVE_MAX_STREAMS_PER_ADDRESS", 500)


def bounds(request: HttpRequest, event_id: int | None) -> dict[str, int]:
    key, bound = client_key(request)
    keys = {key: bound}
    if event_id is not None:
        keys[f"event:{event_id}"] = setting("LIVE_MAX_STREAMS_PER_EVENT", 5000)
    return keys


def hello(ident: int, retry_ms: int, once: bool = False) -> str:
    """The stream's first event; ``once``: this server does not stream (WSGI), the page polls."""
    data = json.dumps({"id": ident, "heartbeat": seconds_setting("LIVE_HEARTBEAT", 15), "once": once})
    return f"retry: {retry_ms}\nid: {ident}\nevent: hello\ndata: {data}\n\n"


def resync(ident: int, topics: list[str]) -> str:
    data = json.dumps({"topic": topics[0], "version": None, "kind": "resync"}, separators=(",", ":"))
    return f"id: {ident}\ndata: {data}\n\n"


PING = "event: ping\ndata: 1\n\n"


def _db_close() -> None:
    """Close this thread's database connections: an idle stream holds none (outside a test's
    transaction, which must stay open)."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


def _opening_chunks(
    topics: list[str], current: int, last: int | None, missed: list[Message] | None, once: bool = False
) -> list[str]:
    """The hello (with the id to resume from), then what a resuming client missed, or a resync."""
    chunks = [hello(current, setting("LIVE_RETRY_MS", 3000), once)]
    if last is not None:
        chunks += [resync(current, topics)] if missed is None else [m.sse() for m in missed]
    return chunks


def _thread_release() -> None:
    """Let the request's own thread go while the stream waits. Django's ASGI handler runs each
    request's sync parts (middleware, the view) on a thread of the request's own, kept until the
    response ends: for a stream, minutes of an idle thread (about 100 KB each). The executor is
    shut down now; the few sync calls at the end (closing the response) get a fresh one (asgiref's
    per-context executors; if asgiref changes them, the stream keeps its thread and works the same)."""
    from asgiref.sync import SyncToAsync

    try:
        context = SyncToAsync.thread_sensitive_context.get(None)
        if context is None or getattr(context, "_executor", None) is not None:
            return  # no per-request thread, or one its owner manages
        executor = SyncToAsync.context_to_thread_executor.pop(context, None)
    except (AttributeError, TypeError):
        return
    if executor is not None:
        executor.shutdown(wait=False)


class Attached:
    """Per process: each message as sent with its attachment, built once per message and language
    however many streams send it (the first stream starts the build, the others wait for it; a
    stream that closes meanwhile does not cancel it)."""

    def __init__(self, keep: int = 64) -> None:
        self.keep = keep
        # encoded once: a board written to a thousand streams is not encoded a thousand times
        self.done: collections.OrderedDict[AttachedKey, bytes] = collections.OrderedDict()
        self.building: dict[AttachedKey, asyncio.Task[bytes]] = {}

    async def sse(self, message: Message, attach: Attach, language: str) -> bytes:
        key: AttachedKey = (id(asyncio.get_running_loop()), message.id, language, attach)
        if key in self.done:
            return self.done[key]
        task = self.building.get(key)
        if task is None:
            task = asyncio.ensure_future(self._build(key, message, attach, language))
            self.building[key] = task
        return await asyncio.shield(task)

    async def _build(self, key: AttachedKey, message: Message, attach: Attach, language: str) -> bytes:
        from asgiref.sync import sync_to_async

        try:
            data = await sync_to_async(_attachment, thread_sensitive=False)(message, attach, language)
            text = message.sse(data).encode()
        except Exception:  # noqa: BLE001  (the bare message still says what changed: the screen fetches)
            logger.warning("live: could not attach to %s", message.topic, exc_info=True)
            text = message.sse().encode()
        finally:
            self.building.pop(key, None)
        self.done[key] = text
        while len(self.done) > self.keep:
            self.done.popitem(last=False)
        return text


ATTACHED = Attached()


def _attachment(message: Message, attach: Attach, language: str) -> str | None:
    from django.utils import translation

    try:
        with translation.override(language):
            return attach(message)
    finally:
        _db_close()  # a worker thread of the stream's: it keeps no connection


async def _sent(message: Message, attach: dict[str, Attach], language: str) -> str | bytes:
    fn = attach.get(message.topic)
    return message.sse() if fn is None else await ATTACHED.sse(message, fn, language)


async def _opening(topics: list[str], last: int | None) -> list[str]:
    broker = broker_get()
    current = await broker.current()
    missed = await broker.since(topics, last) if last is not None else []
    return _opening_chunks(topics, current, last, missed)


async def sse_events(
    topics: list[str],
    last: int | None,
    keys: dict[str, int],
    *,
    seconds: float | None = None,
    attach: dict[str, Attach] | None = None,
    language: str = "en",
) -> AsyncIterator[str | bytes]:
    """The stream: hello, the missed messages, then each change as it comes (coalesced per topic,
    and paced by the hub: ``Hub.fanout``; with what the topic shows now where ``attach`` says so),
    a ping every heartbeat, until
    ``seconds`` have gone by (then a ``retry:`` and the end: the browser comes back with
    ``Last-Event-ID``). A client too slow to keep up is dropped."""
    from asgiref.sync import sync_to_async

    await sync_to_async(_db_close)()  # the request's checks are done: hold no connection while idle
    _thread_release()
    if not HUB.acquire(keys):
        yield resync(0, topics)  # raced past the bound since the check: tell the client to poll
        return
    broker = broker_get()
    loop = asyncio.get_running_loop()
    sub = HUB.subscribe(topics, loop, setting("LIVE_QUEUE_SIZE", 32))
    try:
        await broker.listening()
        for chunk in await _opening(topics, last):
            yield chunk
        length = seconds if seconds is not None else seconds_setting("LIVE_STREAM_SECONDS", 600)
        deadline = loop.time() + length * random.uniform(0.9, 1.0)  # not all at once after a restart
        heartbeat = max(0.05, seconds_setting("LIVE_HEARTBEAT", 15))
        while not sub.dropped:
            left = deadline - loop.time()
            if left <= 0:
                break
            try:
                async with asyncio.timeout(min(heartbeat, left)):
                    await sub.woken.wait()
            except TimeoutError:
                if loop.time() < deadline:
                    yield PING
                continue
            if sub.resync:
                sub.resync = False
                sub.drain()
                yield resync(await broker.current(), topics)
                continue
            for message in sub.drain():
                yield await _sent(message, attach or {}, language)
        yield f"retry: {random.randint(500, 3000)}\n\n"
    finally:
        HUB.unsubscribe(sub)
        HUB.release(keys)


def sse_once(topics: list[str], last: int | None) -> Iterator[str]:
    """Under WSGI (the test client; a deployment without an ASGI server): what there is now, then
    the end, so no worker thread waits on a stream; the browser comes back after ``retry``."""
    broker = broker_get()
    current = broker.current_now()
    missed = broker.since_now(topics, last) if last is not None else []
    yield from _opening_chunks(topics, current, last, missed, once=True)
    yield "retry: 5000\n\n"


def stream_response(
    request: HttpRequest,
    topics: list[str],
    event_id: int | None = None,
    attach: dict[str, Attach] | None = None,
) -> StreamingHttpResponse:
    """The SSE response for ``topics`` (the view has authorized the request): streaming under ASGI,
    one shot under WSGI; 429 with ``Retry-After`` when the client or the event holds its bound.
    ``attach``: per topic, what its live messages carry (in the request's language)."""
    from django.utils.translation import get_language

    last = last_event_id(request)
    content: Any
    if isinstance(request, ASGIRequest) and not getattr(settings, "LIVE_STREAM_ONCE", False):
        keys = bounds(request, event_id)
        if any(HUB.held[k] >= bound for k, bound in keys.items()):
            raise Throttled(30, "live_streams")
        content = sse_events(topics, last, keys, attach=attach, language=get_language() or settings.LANGUAGE_CODE)
    else:
        content = sse_once(topics, last)
    response = StreamingHttpResponse(content, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each message on as it comes
    return response
