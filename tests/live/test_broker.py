"""The fan-out on its own: coalescing, a slow subscriber dropped, resuming from Last-Event-ID and
the resync when the id is too old, and the stream generator's own messages."""

import asyncio
import json
import threading


from live.broker import HUB, Hub, Message, coalesce, missed
from live.streams import sse_events


def _text(chunk: str | bytes) -> str:
    """A chunk as the client reads it (a message with its board attached comes encoded once)."""
    return chunk.decode() if isinstance(chunk, bytes) else chunk


def _data(chunk: str | bytes) -> dict:
    chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
    line = next(x for x in chunk.splitlines() if x.startswith("data: "))
    return json.loads(line[len("data: ") :])


def _id(chunk: str) -> int:
    return int(next(x for x in chunk.splitlines() if x.startswith("id: "))[4:])


def test_a_burst_coalesces_to_the_latest_version_per_topic():
    burst = [
        Message(1, "a", 1, "board"),
        Message(2, "b", 7, "hand"),
        Message(3, "a", 2, "board"),
        Message(4, "a", 3, "board"),
    ]
    assert coalesce(burst) == [Message(2, "b", 7, "hand"), Message(4, "a", 3, "board")]


def test_resume_sends_what_was_missed_and_resyncs_when_too_old(memory_broker):
    sent = [memory_broker.publish("event:1:board", v, "board") for v in range(1, 4)]
    memory_broker.publish("event:2:board", 1, "board")  # another event: never sent to this client
    # saw the first: the two after it coalesce into the latest
    assert memory_broker.since_now(["event:1:board"], sent[0].id) == [sent[2]]
    assert memory_broker.since_now(["event:1:board"], sent[2].id) == []
    # the ring holds 8: after 10 more, an id from before them may have missed some → resync (None)
    for v in range(4, 14):
        memory_broker.publish("event:1:board", v, "board")
    assert memory_broker.since_now(["event:1:board"], sent[0].id) is None
    # an id ahead of the counter (another server's, or from before a restart): resync
    assert memory_broker.since_now(["event:1:board"], 10**15) is None
    # an id from before this process began (a restart lost its ring): resync
    assert memory_broker.since_now(["event:1:board"], memory_broker.floor - 1) is None
    # a ring not yet full holds everything since the topic began: nothing lost
    assert missed({"t": [Message(5, "t", 1, "x")]}, 1, 5, 8) == [Message(5, "t", 1, "x")]


def test_a_slow_subscriber_is_dropped_when_its_queue_overflows():
    hub = Hub()

    async def main():
        sub = hub.subscribe(["t"], asyncio.get_running_loop(), 3)
        other = hub.subscribe(["t"], asyncio.get_running_loop(), 3)
        for i in range(1, 5):
            sub.offer(Message(i, "t", i, "board"))
            if i < 4:
                other.offer(Message(i, "t", i, "board"))
        assert sub.dropped and sub not in hub.subscribers("t")
        assert not other.dropped and other in hub.subscribers("t")
        assert other.drain() == [Message(3, "t", 3, "board")]  # three queued, one sent

    asyncio.run(main())


def test_bounds_hold_per_client_and_per_event():
    hub = Hub()
    keys = {"client:a:1.2.3.4": 2, "event:9": 3}
    assert hub.acquire(keys) and hub.acquire(keys)
    assert not hub.acquire(keys)  # the client holds its two
    assert hub.acquire({"client:a:5.6.7.8": 2, "event:9": 3})
    assert not hub.acquire({"client:a:9.9.9.9": 2, "event:9": 3})  # the event holds its three
    hub.release(keys)
    assert hub.acquire({"client:a:9.9.9.9": 2, "event:9": 3})


def _run_stream(topics, last, publish, *, seconds=3.0, want=3):
    """Run one stream on a fresh loop, publishing from another thread once it has said hello;
    return the chunks it sent."""
    chunks: list[str] = []

    async def main():
        gen = sse_events(topics, last, {"client:test": 5}, seconds=seconds)
        chunks.append(await gen.__anext__())  # hello
        if last is not None:
            chunks.append(await gen.__anext__())
        worker = threading.Thread(target=publish)
        worker.start()
        worker.join()
        async for chunk in gen:
            chunks.append(chunk)
            if len(chunks) >= want:
                break
        await gen.aclose()

    asyncio.run(main())
    return chunks


def test_the_stream_says_hello_then_one_message_per_burst(memory_broker):
    memory_broker.publish("event:1:board", 1, "board")

    def burst():
        for v in range(2, 7):
            memory_broker.publish("event:1:board", v, "board")
        memory_broker.publish("event:1:desk", None, "checkin")  # not this stream's topic

    chunks = _run_stream(["event:1:board"], None, burst, want=2)
    assert chunks[0].startswith("retry: ") and "event: hello" in chunks[0]
    assert _data(chunks[1]) == {"topic": "event:1:board", "version": 6, "kind": "board"}
    assert _id(chunks[1]) > _id(chunks[0])
    assert not HUB.subscribers("event:1:board")  # closed: unsubscribed, its bound released
    assert not HUB.held


def test_a_topic_goes_out_at_most_once_a_pace_and_what_came_meanwhile_coalesces(memory_broker, settings):
    """The busiest minute: results every 0.08 s reach a screen as one message per slot of the pace
    (the clock's: every process hands out the same version), the latest; the first change of a
    quiet slot goes at once."""
    import time

    settings.LIVE_PACE = 0.5

    async def main():
        gen = sse_events(["event:9:board"], None, {"client:pace": 1}, seconds=10.0)
        await gen.__anext__()  # hello
        got: list[tuple[float, int]] = []

        async def read(n):
            async for chunk in gen:
                if not chunk.startswith("event: ping"):
                    got.append((time.time(), _data(chunk)["version"]))
                    if len(got) >= n:
                        return

        async def burst(versions, gap):
            for v in versions:
                sent.append(time.time())
                await asyncio.to_thread(memory_broker.publish, "event:9:board", v, "board")
                await asyncio.sleep(gap)

        while time.time() % 0.5 > 0.1:  # start early in a slot: the burst spans the next one
            await asyncio.sleep(0.01)
        await asyncio.gather(read(2), burst(range(1, 6), 0.08))
        await asyncio.sleep(1.2)  # quiet for longer than the pace
        await asyncio.gather(read(3), burst([6], 0))
        await gen.aclose()
        return got

    sent: list[float] = []
    got = asyncio.run(main())
    assert [v for _, v in got] == [1, 5, 6]
    assert got[0][0] - sent[0] < 0.2  # the first at once
    assert int(got[1][0] // 0.5) == int(got[0][0] // 0.5) + 1  # the burst went as one, in the next slot
    assert got[2][0] - sent[-1] < 0.2  # in a quiet slot: at once
    assert not HUB.held


def test_the_stream_resumes_from_last_event_id(memory_broker):
    seen = memory_broker.publish("table:5", 1, "report")
    memory_broker.publish("table:5", 1, "confirm")
    chunks = _run_stream(["table:5"], seen.id, lambda: memory_broker.publish("table:5", 2, "dispute"), want=3)
    assert _data(chunks[1]) == {"topic": "table:5", "version": 1, "kind": "confirm"}  # missed while away
    assert _data(chunks[2]) == {"topic": "table:5", "version": 2, "kind": "dispute"}  # then live


def test_the_stream_resyncs_an_id_from_before_a_restart(memory_broker):
    chunks = _run_stream(["table:5"], 10**15, lambda: None, seconds=0.5, want=3)
    assert _data(chunks[1])["kind"] == "resync"
    assert chunks[-1].startswith("retry: ")  # the stream ended after its time: the browser resumes


def test_the_stream_pings_while_idle(memory_broker, settings):
    settings.LIVE_HEARTBEAT = 0.2
    chunks = _run_stream(["event:3:board"], None, lambda: None, seconds=1.0, want=3)
    assert chunks[1] == "event: ping\ndata: 1\n\n"


def _run_streams(n, attach, publish, language="en"):
    """``n`` streams on one loop with ``attach`` on their topic; each one's first message."""

    async def one(gen):
        await gen.__anext__()  # hello
        async for chunk in gen:
            if not _text(chunk).startswith("event: ping"):
                await gen.aclose()
                return chunk
        return None

    async def main():
        gens = [
            sse_events(["event:4:board"], None, {f"client:{k}": 1}, seconds=5.0, attach=attach, language=language)
            for k in range(n)
        ]
        tasks = [asyncio.ensure_future(one(g)) for g in gens]
        while len(HUB.subscribers("event:4:board")) < n:
            await asyncio.sleep(0.01)
        await asyncio.to_thread(publish)
        return await asyncio.gather(*tasks)

    return asyncio.run(main())


def test_a_board_message_carries_the_board_built_once_for_every_stream(memory_broker):
    """What the board's stream attaches is built once per message and language, however many
    streams send it, in the stream's language; an attachment that fails leaves the message bare."""
    from django.utils.translation import get_language

    built: list[tuple[int, str]] = []

    def attach(message):
        built.append((message.version, get_language()))
        return json.dumps({"version": message.version, "standings": [{"rank": 1}]})

    chunks = _run_streams(
        30, {"event:4:board": attach}, lambda: memory_broker.publish("event:4:board", 7, "board"), "ja"
    )
    assert built == [(7, "ja")]
    assert all(
        _data(c)
        == {"topic": "event:4:board", "version": 7, "kind": "board", "data": {"version": 7, "standings": [{"rank": 1}]}}
        for c in chunks
    )

    def broken(message):
        raise RuntimeError("the database went away")

    chunks = _run_streams(3, {"event:4:board": broken}, lambda: memory_broker.publish("event:4:board", 8, "board"))
    assert [_data(c) for c in chunks] == [{"topic": "event:4:board", "version": 8, "kind": "board"}] * 3
    assert not HUB.held
