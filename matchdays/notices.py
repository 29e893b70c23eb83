"""What a match day tells (notifications.kinds): its published seating, to each seated player
(their table, wind, time and table-mates) and, as a public announcement, to the league's channels
(what the season's page shows anyway: tables, no private detail)."""

from __future__ import annotations

from django.urls import reverse

from kyoku.principals import Actor
from league.models import Game, Player
from league.names import names_said
from notifications import services as notify

from .models import SeatingPlan


def seating_published(*, plan: SeatingPlan, games: list[Game], unseated: list[int], actor: Actor) -> None:
    """``games``: the tables published anew (new games, or a new time); their players are told.
    ``unseated``: players whose table was removed and who have none now (told they sit out).
    Nothing to tell (published again unchanged): nothing is sent, nothing announced."""
    if not games and not unseated:
        return
    match_day = plan.match_day
    division = match_day.division
    league = division.season.league
    base = {
        "league": notify.league_words(league),
        "division": {"en": division.name, "cjk": division.name_zh or division.name},
        "match_day": match_day.number,
    }
    for game in games:
        seats = list(game.seats.select_related("player__user").order_by("seat"))
        names = names_said(s.player for s in seats)
        for seat in seats:
            notify.notification_send(
                kind="seating_published",
                recipients=[getattr(seat.player, "user", None)],
                league=league,
                params={
                    **base,
                    "table": game.table,
                    "seat": seat.seat,
                    "when": game.scheduled_at.isoformat() if game.scheduled_at else "",
                    "players": names,
                },
                link=reverse("game", args=[game.pk]),
                # one game, one notice: a table published again unchanged tells nobody twice
                key=f"seating:{plan.pk}:game:{game.pk}:{game.scheduled_at.isoformat() if game.scheduled_at else ''}",
                actor=actor,
            )
    notify.notification_send(
        kind="seating_published",
        recipients=[p.user for p in Player.objects.filter(pk__in=unseated, user__isnull=False).select_related("user")],
        league=league,
        params={**base, "table": None, "bye": True},
        link=reverse("matchday", args=[match_day.pk]),
        key=f"seating:{plan.pk}:{plan.revision}:bye",
        actor=actor,
    )
    tables = Game.objects.filter(division=division, match_day=match_day.number).count()
    when = games[0].scheduled_at if games else None
    notify.announce(
        kind="seating_announced",
        league=league,
        params={**base, "tables": tables, "when": when.isoformat() if when else ""},
        link=reverse("matchday", args=[match_day.pk]),
        key=f"seating:{plan.pk}:{plan.revision}",
        actor=actor,
    )
