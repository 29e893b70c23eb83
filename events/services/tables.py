"""A tournament table's own principals: the code on its sign, the phone that holds it, the seats an
actor may act for, and the round in play (the only round whose tables report)."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.principals import Actor, TablePhone, is_user
from league.models import Game

from ..models import Event, Round
from .common import fail

TABLE_CODE_LENGTH = 6
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off paper
CODES_KEY = "event_table_codes"  # the session's table codes: {game id: code}


def table_code(game: Game) -> str:
    """The code printed on a table's sign: it lets that table's phone enter and confirm the table's
    result without a login. Derived from the site's secret, so nothing is stored and nobody can
    work out another table's code."""
    digest = hmac.new(settings.SECRET_KEY.encode(), f"event-table:{game.pk}".encode(), hashlib.sha256).digest()
    return "".join(CODE_ALPHABET[b % len(CODE_ALPHABET)] for b in digest[:TABLE_CODE_LENGTH])


def table_code_normal(code: Any) -> str | None:
    """A code as typed (spaces, lower case) in its printed form, or None when it cannot be one: a
    code is six letters of the sign's alphabet, so anything else (another script, control
    characters, a number) is no code at all rather than a comparison that fails."""
    if not isinstance(code, str):
        return None
    code = code.strip().upper()
    if len(code) != TABLE_CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def table_code_valid(game: Game, code: Any) -> bool:
    normal = table_code_normal(code)
    return normal is not None and hmac.compare_digest(table_code(game).encode(), normal.encode())


def event_of(game: Game) -> Event:
    try:
        return game.season.event
    except Event.DoesNotExist:
        raise fail("game", _("This game is not part of an event."), "not_event_game") from None


def round_of(game: Game) -> Round:
    return Round.objects.get(event=event_of(game), number=game.match_day)


def round_in_play(round_: Round) -> bool:
    """A round is in play from its clock's start until the next round starts or the event ends:
    tables finish their last hand after time and report then; once the next round has started, a
    late result is the desk's to enter."""
    if round_.started_at is None or round_.event.status == Event.Status.FINISHED:
        return False
    return not Round.objects.filter(event=round_.event_id, number__gt=round_.number, started_at__isnull=False).exists()


def round_in_play_require(game: Game) -> Round:
    round_ = round_of(game)
    if round_.started_at is None:
        raise fail(
            "game",
            _("Round %(n)s has not started: a table reports once its round is under way."),
            "round_not_started",
            n=round_.number,
        )
    if not round_in_play(round_):
        raise fail(
            "game",
            _("Round %(n)s is over: ask a referee or the director to enter this table's result."),
            "round_closed",
            n=round_.number,
        )
    return round_


def seat_of(game: Game, actor: Actor) -> int | None:
    player = authz.player_of(actor)
    if player is None:
        return None
    seat: int | None = game.seats.filter(player=player).values_list("seat", flat=True).first()  # type: ignore[misc]
    return seat


def seats_for(game: Game, actor: Actor) -> set[int]:
    """The seats ``actor`` acts for at this table: all four for its phone, their own for a seated
    player; nobody else acts as a seat (a referee or the director enters the result as the desk)."""
    if isinstance(actor, TablePhone):
        return {0, 1, 2, 3} if actor.game_id == game.pk else set()
    seat = seat_of(game, actor) if is_user(actor) else None
    return {seat} if seat is not None else set()


def table_phone_for(request: Any, game: Any) -> TablePhone | None:
    """The phone principal of a browser holding this table's code (kyoku.principals resolver): the
    code this session entered for the game, or one sent with the request's body (an API client).
    Only a game of an event has a phone."""
    if not isinstance(game, Game):
        return None
    cache: dict[int, TablePhone | None] = request.__dict__.setdefault("_kyoku_table_phones", {})
    if game.pk in cache:
        return cache[game.pk]
    phone = None
    held = (getattr(request, "session", None) or {}).get(CODES_KEY) or {}
    session_code = held.get(str(game.pk), "") if isinstance(held, dict) else ""
    data = getattr(request, "data", None)  # a DRF request's parsed body
    if data is None and getattr(request, "method", "") == "POST":
        data = getattr(request, "POST", None)
    sent = (data.get("code") or "") if data is not None and hasattr(data, "get") else ""
    event_id = (
        Event.objects.filter(season__games=game.pk).values_list("pk", flat=True).first()
        if (session_code or sent)
        else None
    )
    if event_id is not None:
        if session_code and table_code_valid(game, session_code):
            phone = TablePhone(game_id=game.pk)
        elif sent:
            # a code sent with the request is a guess like one typed on the code page: counted
            event = Event(pk=event_id)
            table_code_guard(request, event)
            if table_code_valid(game, sent):
                phone = TablePhone(game_id=game.pk)
            else:
                table_code_miss(request, event)
    cache[game.pk] = phone
    return phone


def table_code_guard(request: Any, event: Event) -> None:
    """Refuse a guesser still waiting after its wrong codes, or an address over the site-wide
    bucket (429 with Retry-After), before a code is even compared, so a right guess during the
    wait is no use. The event itself is never locked (events.services.code_guesses)."""
    from .code_guesses import guess_check

    guess_check(request, event)


def table_code_miss(request: Any, event: Event) -> None:
    """A wrong code: the guesser waits longer after each one past the first few; the event's desk
    sees it (events.services.code_guesses)."""
    from .code_guesses import guess_miss

    guess_miss(request, event)
