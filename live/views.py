"""The stream views: each declares its access like the page it follows (kyoku.access) and fetches
its object with ``object_for_request``; the stream itself is ``live.streams.stream_response``."""

from __future__ import annotations

from typing import Any, Callable

from django.http import Http404, HttpRequest, StreamingHttpResponse

from events.models import Event
from kyoku.access import DIRECTOR, LOGGED_IN, PUBLIC, TABLE, access, object_for_request
from league.models import Game

from . import board_topic, board_topic_event, desk_topic, inbox_topic, table_topic
from .broker import Message
from .streams import stream_response


def _board_json(message: Message, shape: Callable[[dict[str, Any]], dict[str, Any]]) -> str | None:
    """``shape`` of the board's JSON as its API answers it now, rendered as the API renders it."""
    from rest_framework.renderers import JSONRenderer

    from events.selectors import board_now

    data = board_now(board_topic_event(message.topic))
    if data is None:
        return None
    rendered: bytes = JSONRenderer().render(shape(data))
    return rendered.decode()


def board_attached(message: Message) -> str | None:
    """What a board message carries to the big screens: the board as the screen draws it now
    (``events.selectors.board_screen``). A result on a thousand screens is then one build per
    process, not a thousand fetches."""
    from events.selectors import board_screen

    return _board_json(message, board_screen)


def _clock_only(data: dict[str, Any]) -> dict[str, Any]:
    return {k: data[k] for k in ("version", "clock", "server_time")}


def clock_attached(message: Message) -> str | None:
    """What a board message carries to a table's phone: only the board's version and the round's
    clock (started, paused, time added, time up), not the whole board a phone does not show."""
    return _board_json(message, _clock_only)


@access("event", GET=PUBLIC)
def board_stream(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    """The big board's changes, each with the board as it is now: public, as the board is."""
    event = object_for_request(request, Event, pk=event_id)
    topic = board_topic(event.pk)
    return stream_response(request, [topic], event.pk, attach={topic: board_attached})


@access("event_table", GET=TABLE)
def table_stream(request: HttpRequest, game_id: int) -> StreamingHttpResponse:
    """One table's changes and its event's board (each board message with the round's clock): the
    table's phone (its code in this session) or a player seated here, as the table's actions are;
    anyone else watches the board's stream."""
    game = object_for_request(request, Game.objects.select_related("season"), pk=game_id)
    event_id = Event.objects.filter(season=game.season).values_list("pk", flat=True).first()
    if event_id is None:
        raise Http404("not a table of an event")
    board = board_topic(event_id)
    return stream_response(request, [table_topic(game.pk), board], event_id, attach={board: clock_attached})


@access("event", GET=DIRECTOR)
def desk_stream(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    """The desk's changes (registrations, check-in, seating) and the board's: as the desk."""
    event = object_for_request(request, Event, pk=event_id)
    return stream_response(request, [desk_topic(event.pk), board_topic(event.pk)], event.pk)


@access(GET=LOGGED_IN)
def inbox_stream(request: HttpRequest) -> StreamingHttpResponse:
    """The signed-in person's inbox: a new notification. Only their own: the topic is theirs."""
    return stream_response(request, [inbox_topic(request.user.pk)])
