"""Live push: what changed on the floor, sent to the screens watching it (issue 49).

Topics. A topic is a string naming what a screen watches:

  ``event:<id>:board``  the event's big board (public, as the board is): results, the clock,
                        seating, the cut; its version is the event's ``board_version``
  ``table:<game id>``   one table (private: that table's phone or a player seated there): its
                        report, confirmations, a dispute and its answer, a hand recorded
  ``event:<id>:desk``   the director's desk: registrations, check-in, seating
  ``inbox:<user id>``   a person's inbox: a new notification (only that person hears it)

Publishing. A service that changes what a topic shows calls :func:`publish_on_commit` (topic,
version, kind) inside its transaction; the message leaves only once the change is committed (a
rolled-back write announces nothing). :func:`publish` sends at once (a task outside a transaction).

Messages say *what* changed and its version: ``{"topic", "version", "kind"}`` with a monotonic
event id. The screen fetches what it shows from the JSON or page it already reads (the board's
``/api/events/<id>/board``, the table's page), so a missed or duplicated message is never a wrong
screen: at worst one fetch too many. The board's stream attaches the board itself as it is now
(``"data"``: what its JSON answers, built once per message, language and process; see
``live.streams.Attached``), so a result on a thousand big screens is one build and a thousand
writes, not a thousand fetches at the same instant. Messages a reconnect resumes, and a resync,
come bare: the screen fetches.

Fan-out (``live.broker``). Every process keeps a registry of its open streams (``Hub``), each with
a bounded queue. Embedded default (no ``REDIS_URL``): published messages go straight to the
process's registry and a short per-topic ring in memory. With ``REDIS_URL``: a publish is one Lua
call that numbers the message (``INCR``), keeps it in the topic's ring (a capped list) and
publishes it on the topic's channel; each process listens with one connection on the pattern
``kyoku:live:*`` and fans out to its own streams. The rings let a reconnect resume from
``Last-Event-ID``; an id older than the ring (or from before a restart) gets a ``resync``.

Streams (``live.views``, ``live.streams``): Server-Sent Events at

  ``GET /live/events/<event id>/board``  board (public)
  ``GET /live/tables/<game id>``         a table and its event's board (the table's phone or a
                                         player seated there, as the table's actions are)
  ``GET /live/events/<event id>/desk``   the desk and the board (the event's director, the league's admins)
  ``GET /live/inbox``                    the signed-in user's inbox

Optional ``?last=<id>`` (or the ``Last-Event-ID`` header the browser sends on reconnect) resumes.
The stream opens with ``retry:`` and an ``event: hello`` (data ``{"id", "heartbeat", "once"}``), sends
``event: ping`` every ``LIVE_HEARTBEAT`` seconds, each change as a default ``message`` event
(``id:`` the event id, ``data:`` ``{"topic", "version", "kind"}``; ``kind`` "resync" means refetch
everything), and ends after ``LIVE_STREAM_SECONDS`` (the browser resumes with ``Last-Event-ID``).
A burst coalesces: each process hands a topic's messages to its streams at most once per
``LIVE_PACE`` slot of the wall clock (1 s; ``Hub.fanout``), the first of a quiet slot at once and
of the others only the latest, at the next slot; and of several messages queued for one stream
only the latest per topic is sent. As the slots are the clock's, every process hands out the same
version in a busy second, and the board is built once for all of them. A client
whose queue overflows (it reads too slowly) is dropped; it reconnects and resumes. Streams are
bounded per client (session or address) and per event (429 with ``Retry-After`` over the bound).
Served by an ASGI server (uvicorn; in production gunicorn with uvicorn workers,
config/gunicorn_live.py, which the proxy sends ``/live/`` to, while the pages and the API run on
WSGI threads and link their streams because ``LIVE_STREAMS=on`` says a proxy routes them);
under WSGI (the test client, runserver, a proxy that sends ``/live/`` to the WSGI
processes) a stream sends its hello with ``"once": true`` and what a resuming
client missed, and ends, so nothing ever hangs: the page then polls (static/live.js).
The stream holds no database connection while idle: the request's checks run first, then the
connection is closed before the stream waits.
"""

from __future__ import annotations

import logging
from typing import Any

logger = logging.getLogger(__name__)


def board_topic(event_id: int) -> str:
    return f"event:{event_id}:board"


def board_topic_event(topic: str) -> int:
    """The event whose board ``topic`` is (the inverse of :func:`board_topic`)."""
    return int(topic.split(":")[1])


def desk_topic(event_id: int) -> str:
    return f"event:{event_id}:desk"


def table_topic(game_id: int) -> str:
    return f"table:{game_id}"


def inbox_topic(user_id: int) -> str:
    return f"inbox:{user_id}"


def publish(topic: str, version: Any, kind: str) -> None:
    """Announce now that ``topic`` changed to ``version`` (what changed: ``kind``; a callable
    ``version`` is read here). Never raises: a
    screen that misses it catches up on its next fetch (or its polling fallback)."""
    from .broker import broker_get

    try:
        broker_get().publish(topic, version() if callable(version) else version, kind)
    except Exception:  # noqa: BLE001  (Redis down: the write stands, screens poll)
        logger.warning("live: could not publish %s", topic, exc_info=True)


def publish_on_commit(topic: str, version: Any, kind: str, *, using: str | None = None) -> None:
    """Announce once the current transaction commits (at once outside one). ``version`` may be a
    callable, read at the commit (the committed version)."""
    from django.db import transaction

    transaction.on_commit(lambda: publish(topic, version, kind), using=using)
