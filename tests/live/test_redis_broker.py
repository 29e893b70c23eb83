"""The Redis fan-out (``REDIS_URL``, CI's PostgreSQL + Redis pass): messages numbered and kept by
Redis, heard by a process's one pattern listener and handed to its streams; resume and resync as
in memory."""

import asyncio
import json
import os
import threading
import uuid

import pytest
from django.conf import settings

from live.broker import PREFIX, RedisBroker, broker_set
from live.streams import sse_events

pytestmark = [pytest.mark.redis, pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL")]


@pytest.fixture
def redis_broker():
    broker = RedisBroker(settings.REDIS_URL or os.environ["REDIS_URL"], ring_size=4)
    broker_set(broker)
    yield broker
    broker_set(None)


def _topic() -> str:
    return f"event:{uuid.uuid4().hex}:board"


def test_messages_are_numbered_kept_and_resumed(redis_broker):
    topic = _topic()
    first = redis_broker.publish(topic, 1, "board")
    second = redis_broker.publish(topic, 2, "board")
    third = redis_broker.publish(topic, 3, "board")
    assert first.id < second.id < third.id
    assert redis_broker.since_now([topic], first.id) == [third]  # coalesced: the latest
    assert asyncio.run(redis_broker.since([topic], second.id)) == [third]
    assert redis_broker.since_now([topic], third.id) == []
    for v in range(4, 9):  # the ring keeps 4: an id from before them may have missed some
        redis_broker.publish(topic, v, "board")
    assert redis_broker.since_now([topic], first.id) is None
    assert redis_broker.since_now([topic], redis_broker.current_now() + 1000) is None
    assert redis_broker.sync.ttl(PREFIX + "ring:" + topic) > 0  # rings expire


def test_a_stream_hears_a_message_published_by_another_process(redis_broker):
    """Published with the synchronous client (as a request or a worker does), heard through the
    pattern listener by a stream on this process's loop."""
    topic = _topic()
    chunks: list[str] = []

    def patterns() -> int:
        return int(redis_broker.sync.execute_command("PUBSUB", "NUMPAT"))

    before = patterns()

    async def main():
        gen = sse_events([topic], None, {"client:redis-test": 5}, seconds=10)
        chunks.append(await gen.__anext__())  # hello: the listener is starting
        async with asyncio.timeout(10):
            while patterns() <= before:  # its PSUBSCRIBE is registered
                await asyncio.sleep(0.05)

        def publish():
            redis_broker.publish(topic, 7, "board")

        threading.Thread(target=publish).start()
        async with asyncio.timeout(10):
            async for chunk in gen:
                if chunk.startswith("id: "):
                    chunks.append(chunk)
                    break
        await gen.aclose()
        for task in redis_broker.listeners.values():
            task.cancel()

    asyncio.run(main())
    data = json.loads(chunks[1].split("data: ", 1)[1])
    assert data == {"topic": topic, "version": 7, "kind": "board"}
