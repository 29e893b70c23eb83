import pytest

from live.broker import HUB, MemoryBroker, broker_set
from tests.events.conftest import SCORES, event, field, in_play, rules, running  # noqa: F401  (fixtures)


@pytest.fixture
def memory_broker():
    """A broker of the test's own (in memory), so no test sees another's messages."""
    broker = MemoryBroker(ring_size=8)
    broker_set(broker)
    HUB.pace_forget()
    yield broker
    HUB.pace_forget()  # a message held back for the next slot is not handed to another test's streams
    broker_set(None)
