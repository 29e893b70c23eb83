"""What a tournament's tables tell (notifications.kinds), each called in the transaction of its
fact (events.services): a round's seating, a table's report waiting for confirmation, a dispute
(to the table and, as a call, to the league's referees and admins), a recorded result (to the
table, and announced on the league's public channels: results are public, docs/privacy.md)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from kyoku.models import LeagueRole
from kyoku.principals import Actor
from league.models import Game
from league.names import names_said
from notifications import services as notify

from .models import Event, Round, TableReport


def _seats(game: Game) -> list[Any]:
    return list(game.seats.select_related("player__user").order_by("seat"))


def _users(seats: list[Any], skip: set[int] | None = None) -> list[Any]:
    return [getattr(s.player, "user", None) for s in seats if s.seat not in (skip or set())]


def _scores(seats: list[Any], scores: list[int]) -> dict[str, str]:
    """The table's names and scores, in each language the reader may read (league.names.names_said)."""
    return {
        key: " · ".join(f"{name} {score:,}" for name, score in zip(names.split("\n"), scores))
        for key, names in names_said([s.player for s in seats], "\n").items()
    }


def _base(event: Event, game: Game) -> dict[str, Any]:
    return {
        "league": notify.league_words(event.league),
        "event": event.name,
        "round": game.match_day,
        "table": game.table,
    }


def round_seated(*, event: Event, rounds: list[Round], actor: Actor) -> None:
    """The first of the rounds just seated (the next to play): each player's table and wind, and the
    announcement. Later rounds are told when they are seated again or in the app's pages."""
    if not rounds:
        return
    first = min(rounds, key=lambda r: r.number)
    games = list(Game.objects.filter(season=event.season, match_day=first.number).order_by("table"))
    key = f"event-seating:{event.pk}:{first.number}:" + ",".join(str(g.pk) for g in games)
    for game in games:
        seats = _seats(game)
        names = names_said(s.player for s in seats)
        for seat in seats:
            notify.notification_send(
                kind="seating_published",
                recipients=[getattr(seat.player, "user", None)],
                league=event.league,
                params={
                    **_base(event, game),
                    "seat": seat.seat,
                    "when": first.scheduled_at.isoformat() if first.scheduled_at else "",
                    "players": names,
                },
                link=reverse("event-table", args=[game.pk]),
                key=key,
                actor=actor,
            )
    notify.announce(
        kind="seating_announced",
        league=event.league,
        params={
            "league": notify.league_words(event.league),
            "event": event.name,
            "round": first.number,
            "tables": len(games),
            "when": first.scheduled_at.isoformat() if first.scheduled_at else "",
        },
        link=reverse("event", args=[event.pk]),
        key=key,
        actor=actor,
    )


def round_starting(*, round_: Round, games: list[Game], actor: Actor) -> int:
    """The round starts soon (events.services.reminders): each seated player, once per start time."""
    event, when = round_.event, round_.scheduled_at
    if when is None:
        return 0
    key = f"round-starts:{round_.pk}:{when.isoformat()}"
    told = 0
    for game in games:
        seats = _seats(game)
        names = names_said(s.player for s in seats)
        for seat in seats:
            told += len(
                notify.notification_send(
                    kind="round_starts",
                    recipients=[getattr(seat.player, "user", None)],
                    league=event.league,
                    params={**_base(event, game), "seat": seat.seat, "when": when.isoformat(), "players": names},
                    link=reverse("event-table", args=[game.pk]),
                    key=key,
                    actor=actor,
                )
            )
    return told


def time_up(*, round_: Round, hands: dict[int, int], hands_after_time: int, actor: Actor) -> None:
    """Time ran out in ``round_``: each table still playing is told which hand is in play and how
    many more follow (``hands``: game id → the hand in play)."""
    event = round_.event
    for game in Game.objects.filter(pk__in=list(hands)).select_related("season"):
        notify.notification_send(
            kind="time_up",
            recipients=_users(_seats(game)),
            league=event.league,
            params={**_base(event, game), "hand_in_play": hands[game.pk], "hands_after_time": hands_after_time},
            link=reverse("event-table", args=[game.pk]),
            key=f"time-up:{round_.pk}:{game.pk}",
            actor=actor,
        )


def report_waiting(*, report: TableReport, game: Game, seat: int, actor: Actor) -> None:
    """A seat reported the table's scores: the other seats are asked to confirm them."""
    event = game.season.event
    seats = _seats(game)
    notify.notification_send(
        kind="result_to_confirm",
        recipients=_users(seats, skip={seat}),
        league=event.league,
        params={**_base(event, game), "scores": _scores(seats, report.scores)},
        link=reverse("event-table", args=[game.pk]),
        key=f"report:{report.pk}:v{report.version}",
        actor=actor,
    )


def report_disputed(*, report: TableReport, game: Game, actor: Actor) -> None:
    """The table disagrees: its other players are told, and the league's referees and admins are
    called."""
    if report.status != TableReport.Status.DISPUTED:
        return
    event = game.season.event
    seats = _seats(game)
    key = f"dispute:{report.pk}:{report.disputed_at.isoformat() if report.disputed_at else report.version}"
    notify.notification_send(
        kind="result_disputed",
        # the seat that disputed knows
        recipients=_users(seats, skip=set() if report.disputed_seat is None else {report.disputed_seat}),
        league=event.league,
        params={**_base(event, game), "disputed_seat": report.disputed_seat},
        link=reverse("event-table", args=[game.pk]),
        key=key,
        actor=actor,
    )
    notify.notification_send(
        kind="referee_call",
        recipients=notify.recipients_with_role(event.league, LeagueRole.Role.REFEREE, LeagueRole.Role.ADMIN),
        league=event.league,
        params={**_base(event, game), "reason": "dispute"},
        # the table's page: every referee may open it and settle the dispute there (the desk is the
        # directors' and admins' only)
        link=reverse("event-table", args=[game.pk]),
        key=key,
        actor=actor,
    )


def past_last_call(*, game: Game, actor: Actor) -> None:
    """A table plays past its last hand (the dealer repeats after time): the referees are called."""
    event = game.season.event
    notify.notification_send(
        kind="referee_call",
        recipients=notify.recipients_with_role(event.league, LeagueRole.Role.REFEREE, LeagueRole.Role.ADMIN),
        league=event.league,
        params={**_base(event, game), "reason": "after_time"},
        link=reverse("event-table", args=[game.pk]),
        key=f"past-last:{game.pk}",
        actor=actor,
    )


def result_recorded(*, game: Game, scores: list[int], actor: Actor) -> None:
    """The table's result is recorded (all four agreed, or the desk entered it)."""
    event = game.season.event
    seats = _seats(game)
    text = _scores(seats, scores)
    key = f"result:{game.pk}:" + ",".join(str(s) for s in scores)
    notify.notification_send(
        kind="result_recorded",
        recipients=_users(seats),
        league=event.league,
        params={**_base(event, game), "scores": text},
        link=reverse("event-table", args=[game.pk]),
        key=key,
        actor=actor,
    )
    notify.announce(
        kind="results_announced",
        league=event.league,
        params={**_base(event, game), "standing": text},
        link=reverse("event-results", args=[event.pk]),
        key=key,
        actor=actor,
    )
