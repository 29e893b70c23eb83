"""The fan-out: a per-process registry of open streams (``Hub``) fed by a broker, in memory on the
embedded default (``MemoryBroker``) or through Redis pub/sub (``RedisBroker``, with ``REDIS_URL``).
See the package docstring (``live``) for the design."""

from __future__ import annotations

import asyncio
import collections
import itertools
import json
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Iterable

from django.conf import settings

logger = logging.getLogger(__name__)

PREFIX = "kyoku:live:"


def setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def seconds_setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


@dataclass(frozen=True)
class Message:
    """One announcement: event ``id`` (monotonic), the ``topic``, its new ``version``, what changed."""

    id: int
    topic: str
    version: Any
    kind: str

    def body(self) -> str:
        return json.dumps({"topic": self.topic, "version": self.version, "kind": self.kind}, separators=(",", ":"))

    def sse(self, data: str | None = None) -> str:
        """As one SSE event; ``data``, the JSON of what the topic shows now (``live.streams``
        attaches it on a stream that asks), goes in as the message's ``data``."""
        body = self.body() if data is None else f'{self.body()[:-1]},"data":{data}}}'
        return f"id: {self.id}\ndata: {body}\n\n"

    def wire(self) -> str:
        """As kept in a Redis ring and sent on its channel: ``<id> <json>``."""
        return f"{self.id} {self.body()}"

    @classmethod
    def from_wire(cls, raw: str | bytes) -> Message:
        text = raw.decode() if isinstance(raw, bytes) else raw
        head, _, body = text.partition(" ")
        data = json.loads(body)
        return cls(int(head), str(data["topic"]), data.get("version"), str(data.get("kind", "")))


def coalesce(messages: Iterable[Message]) -> list[Message]:
    """A burst as it is sent: one message per topic, the latest (highest id), in id order."""
    latest: dict[str, Message] = {}
    for m in messages:
        if m.topic not in latest or m.id > latest[m.topic].id:
            latest[m.topic] = m
    return sorted(latest.values(), key=lambda m: m.id)


def missed(rings: dict[str, list[Message]], last: int, current: int, ring_size: int) -> list[Message] | None:
    """What a client that last saw event ``last`` missed on these topics, coalesced; None when it
    cannot be told (the id is ahead of the counter: another server's, or from before a restart; or a
    full ring starts after it: older messages are gone): the client then refetches everything."""
    if last > current:
        return None
    out: list[Message] = []
    for ring in rings.values():
        newer = [m for m in ring if m.id > last]
        if ring and len(ring) >= ring_size and len(newer) == len(ring):
            return None
        out += newer
    return coalesce(out)


class Subscriber:
    """One open stream: its topics and a bounded queue, read on its event loop."""

    def __init__(self, topics: Iterable[str], loop: asyncio.AbstractEventLoop, size: int, hub: Hub) -> None:
        self.topics = frozenset(topics)
        self.hub = hub
        self.loop = loop
        self.queue: asyncio.Queue[Message] = asyncio.Queue(maxsize=size)
        self.dropped = False
        self.woken = asyncio.Event()
        self.resync = False

    def offer(self, message: Message) -> None:
        """On the subscriber's loop: queue the message; a full queue drops the subscriber (a client
        this slow reconnects and resumes rather than being buffered without limit)."""
        if self.dropped:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped = True
            self.hub.unsubscribe(self)
        self.woken.set()

    def resync_ask(self) -> None:
        self.resync = True
        self.woken.set()

    def drain(self) -> list[Message]:
        """Everything queued now, coalesced (one message per topic: its latest version)."""
        items = []
        while True:
            try:
                items.append(self.queue.get_nowait())
            except asyncio.QueueEmpty:
                break
        self.woken.clear()
        return coalesce(items)


class Hub:
    """The process's open streams by topic, and how many each client and each event holds."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.by_topic: dict[str, set[Subscriber]] = collections.defaultdict(set)
        self.held: collections.Counter[str] = collections.Counter()
        self.sent_slot: dict[str, int] = {}  # per topic, the pace's slot it was last handed out in
        self.held_back: dict[str, Message] = {}  # per topic, the latest message waiting for the next slot

    def subscribe(self, topics: Iterable[str], loop: asyncio.AbstractEventLoop, size: int) -> Subscriber:
        sub = Subscriber(topics, loop, size, self)
        with self.lock:
            for t in sub.topics:
                self.by_topic[t].add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        with self.lock:
            for t in sub.topics:
                subs = self.by_topic.get(t)
                if subs is not None:
                    subs.discard(sub)
                    if not subs:
                        del self.by_topic[t]

    def subscribers(self, topic: str | None = None) -> list[Subscriber]:
        with self.lock:
            if topic is not None:
                return list(self.by_topic.get(topic, ()))
            return list({s for subs in self.by_topic.values() for s in subs})

    def fanout(self, message: Message) -> None:
        """From any thread: hand the message to each subscriber of its topic, at most once per
        ``LIVE_PACE`` slot of the wall clock (1 s) and topic. The first message of a slot goes at
        once; later ones wait for the next slot and only the latest goes. In the busiest minute a
        board changes several times a second: each screen then gets one board a second, and as the
        slots are the clock's, every web process hands out the same version and builds it once
        (``live.streams.Attached``, the shared cache) instead of once per confirmation."""
        pace = seconds_setting("LIVE_PACE", 1.0)
        if pace <= 0:
            self.deliver(message)
            return
        now = time.time()
        slot, later = int(now // pace), None
        with self.lock:
            waiting = self.held_back.get(message.topic)
            if waiting is None and self.sent_slot.get(message.topic) != slot:
                self.sent_slot[message.topic] = slot
                self._slots_prune(slot)
            elif waiting is None:
                self.held_back[message.topic] = message
                later = (slot + 1) * pace - now + 0.002  # just past the slot's end
            else:
                if message.id > waiting.id:
                    self.held_back[message.topic] = message
                return
        if later is None:
            self.deliver(message)
            return
        timer = threading.Timer(later, self._release, (message.topic, pace))
        timer.daemon = True
        timer.start()

    def _release(self, topic: str, pace: float) -> None:
        """A slot began: hand out the latest message its topic held back."""
        with self.lock:
            message = self.held_back.pop(topic, None)
            self.sent_slot[topic] = int(time.time() // pace)
        if message is not None:
            self.deliver(message)

    def _slots_prune(self, slot: int) -> None:
        """Forget the slots of topics quiet since before this one (the lock held): memory stays
        bounded by the topics that changed in the last second."""
        if len(self.sent_slot) > 1000:
            self.sent_slot = {t: s for t, s in self.sent_slot.items() if s >= slot}

    def pace_forget(self) -> None:
        """Tests: no topic has gone out in this slot, none waits for the next."""
        with self.lock:
            self.sent_slot.clear()
            self.held_back.clear()

    def deliver(self, message: Message) -> None:
        """Hand the message to each subscriber of its topic now, on the subscriber's own loop."""
        for sub in self.subscribers(message.topic):
            try:
                sub.loop.call_soon_threadsafe(sub.offer, message)
            except RuntimeError:  # its loop is closed: the stream is gone
                self.unsubscribe(sub)

    def resync_all(self) -> None:
        """The fan-out lost messages (Redis reconnected): every stream tells its client to refetch."""
        for sub in self.subscribers():
            try:
                sub.loop.call_soon_threadsafe(sub.resync_ask)
            except RuntimeError:
                self.unsubscribe(sub)

    def acquire(self, keys: dict[str, int]) -> bool:
        """Hold one stream for each key (``client:…``, ``event:…``) under its bound; all or none."""
        with self.lock:
            if any(self.held[k] >= bound for k, bound in keys.items()):
                return False
            for k in keys:
                self.held[k] += 1
            return True

    def release(self, keys: Iterable[str]) -> None:
        with self.lock:
            for k in keys:
                self.held[k] -= 1
                if self.held[k] <= 0:
                    del self.held[k]


HUB = Hub()


class MemoryBroker:
    """The embedded default: ids from a process counter (started at the clock's milliseconds, so
    an id from before a restart is older than every new one), rings in memory."""

    def __init__(self, ring_size: int | None = None) -> None:
        self.ring_size = ring_size or setting("LIVE_RING_SIZE", 64)
        self.lock = threading.Lock()
        self.floor = int(time.time() * 1000)  # ids below it are another process's: resync them
        self.counter = itertools.count(self.floor + 1)
        self.last = self.floor
        self.rings: dict[str, collections.deque[Message]] = {}

    def publish(self, topic: str, version: Any, kind: str) -> Message:
        with self.lock:
            self.last = next(self.counter)
            message = Message(self.last, topic, version, kind)
            self.rings.setdefault(topic, collections.deque(maxlen=self.ring_size)).append(message)
        HUB.fanout(message)
        return message

    def current_now(self) -> int:
        with self.lock:
            return self.last

    def since_now(self, topics: Iterable[str], last: int) -> list[Message] | None:
        with self.lock:
            rings = {t: list(self.rings.get(t, ())) for t in topics}
            current = self.last
        if last < self.floor:
            return None
        return missed(rings, last, current, self.ring_size)

    async def current(self) -> int:
        return self.current_now()

    async def since(self, topics: Iterable[str], last: int) -> list[Message] | None:
        return self.since_now(topics, last)

    async def listening(self) -> None:
        """Nothing to start: publishing fans out directly."""


# one Lua call per message: number it, keep it in the topic's ring, publish it
PUBLISH_LUA = """
local id = redis.call('INCR', KEYS[1])
local entry = id .. ' ' .. ARGV[1]
redis.call('LPUSH', KEYS[2], entry)
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[2]) - 1)
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[3]))
redis.call('PUBLISH', KEYS[3], entry)
return id
"""


class RedisBroker:
    """With ``REDIS_URL``: messages numbered, kept and published by Redis; each process listens on
    one connection to the pattern and fans out to its own streams (``Hub``)."""

    def __init__(self, url: str, ring_size: int | None = None) -> None:
        import redis

        self.url = url
        self.ring_size = ring_size or setting("LIVE_RING_SIZE", 64)
        self.ttl = setting("LIVE_RING_SECONDS", 3600)
        self.sync = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self.script = self.sync.register_script(PUBLISH_LUA)
        self.clients: dict[asyncio.AbstractEventLoop, Any] = {}
        self.listeners: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}

    def publish(self, topic: str, version: Any, kind: str) -> Message:
        body = Message(0, topic, version, kind).body()
        keys = [PREFIX + "seq", PREFIX + "ring:" + topic, PREFIX + "topic:" + topic]
        new_id = int(self.script(keys=keys, args=[body, self.ring_size, self.ttl]))
        return Message(new_id, topic, version, kind)

    def client(self) -> Any:
        """This event loop's asyncio connection pool (one per loop: a pool is bound to its loop)."""
        import redis.asyncio

        loop = asyncio.get_running_loop()
        if loop not in self.clients:
            # a burst of streams opening at once waits for one of a few connections, never opens
            # hundreds (or fails with "too many connections")
            pool = redis.asyncio.BlockingConnectionPool.from_url(
                self.url, max_connections=setting("LIVE_REDIS_CONNECTIONS", 16), timeout=10, socket_connect_timeout=2
            )
            self.clients[loop] = redis.asyncio.Redis(connection_pool=pool)
        return self.clients[loop]

    def current_now(self) -> int:
        return int(self.sync.get(PREFIX + "seq") or 0)

    def since_now(self, topics: Iterable[str], last: int) -> list[Message] | None:
        topics = list(topics)
        pipe = self.sync.pipeline(transaction=False)
        for t in topics:
            pipe.lrange(PREFIX + "ring:" + t, 0, -1)
        pipe.get(PREFIX + "seq")
        return self._missed(topics, pipe.execute(), last)

    def _missed(self, topics: list[str], answers: list[Any], last: int) -> list[Message] | None:
        rings = {t: [Message.from_wire(raw) for raw in reversed(answers[i])] for i, t in enumerate(topics)}
        return missed(rings, last, int(answers[-1] or 0), self.ring_size)

    async def current(self) -> int:
        value = await self.client().get(PREFIX + "seq")
        return int(value or 0)

    async def since(self, topics: Iterable[str], last: int) -> list[Message] | None:
        client = self.client()
        async with client.pipeline(transaction=False) as pipe:
            topics = list(topics)
            for t in topics:
                pipe.lrange(PREFIX + "ring:" + t, 0, -1)
            pipe.get(PREFIX + "seq")
            answers = await pipe.execute()
        return self._missed(topics, answers, last)

    async def listening(self) -> None:
        """Start this loop's listener once (the first stream opened in the process starts it)."""
        loop = asyncio.get_running_loop()
        task = self.listeners.get(loop)
        if task is None or task.done():
            self.listeners[loop] = loop.create_task(self.listen())

    async def listen(self) -> None:
        import redis.asyncio

        first = True
        while True:
            try:
                conn = redis.asyncio.Redis.from_url(self.url, socket_connect_timeout=2)
                pubsub = conn.pubsub(ignore_subscribe_messages=True)
                await pubsub.psubscribe(PREFIX + "topic:*")
                if not first:
                    HUB.resync_all()  # messages may have gone by while disconnected
                first = False
                async for item in pubsub.listen():
                    if item.get("type") == "pmessage":
                        HUB.fanout(Message.from_wire(item["data"]))
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001  (Redis restarting: listen again shortly)
                logger.warning("live: Redis listener lost its connection; retrying", exc_info=True)
                await asyncio.sleep(1)


_BROKER: MemoryBroker | RedisBroker | None = None
_BROKER_LOCK = threading.Lock()


def broker_get() -> MemoryBroker | RedisBroker:
    """The process's broker: Redis when ``REDIS_URL`` is set (and ``LIVE_BROKER`` is not "memory")."""
    global _BROKER
    with _BROKER_LOCK:
        if _BROKER is None:
            url = getattr(settings, "REDIS_URL", "")
            use_redis = url and getattr(settings, "LIVE_BROKER", "") != "memory"
            _BROKER = RedisBroker(url) if use_redis else MemoryBroker()
        return _BROKER


def broker_set(broker: MemoryBroker | RedisBroker | None) -> None:
    """Tests: use this broker (None: choose again from the settings)."""
    global _BROKER
    with _BROKER_LOCK:
        _BROKER = broker
