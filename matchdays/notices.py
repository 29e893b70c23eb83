"""What a match day tells (notifications.kinds): its published seating, to each seated player
(their table, wind, time and table-mates) and, as a public announcement, to the league's channels
(what the season's page shows anyway: tables, no private detail)."""

from __future__ import annotations

from django.urls import reverse

from kyoku.principals import Actor
from league.models import Game
from notifications import services as notify

from .models import SeatingPlan


def seating_published(*, plan: SeatingPlan, games: list[Game], actor: Actor) -> None:
    match_day = plan.match_day
    division = match_day.division
    league = division.season.league
    base = {
        "league": notify.league_words(league),
        "division": {"en": division.name, "cjk": division.name_zh or division.name},
        "match_day": match_day.number,
    }
    key = f"seating:{plan.pk}:{plan.revision}"
    for game in games:
        seats = list(game.seats.select_related("player__user").order_by("seat"))
        names = " · ".join(s.player.display_name for s in seats)
        for seat in seats:
            user = getattr(seat.player, "user", None)
            notify.notification_send(
                kind="seating_published",
                recipients=[user],
                league=league,
                params={
                    **base,
                    "table": game.table,
                    "seat": seat.seat,
                    "when": game.scheduled_at.isoformat() if game.scheduled_at else "",
                    "players": names,
                },
                link=reverse("game", args=[game.pk]),
                key=key,
                actor=actor,
            )
    when = games[0].scheduled_at if games else None
    notify.announce(
        kind="seating_announced",
        league=league,
        params={**base, "tables": len(games), "when": when.isoformat() if when else ""},
        link=reverse("matchday", args=[match_day.pk]),
        key=key,
        actor=actor,
    )
