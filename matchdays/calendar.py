"""iCalendar feeds (RFC 5545) built with the ``icalendar`` library."""

from datetime import datetime, timedelta

from icalendar import Calendar, Event

from .models import MatchDay

GAME_HOURS = 5  # a league evening: two hanchan and the paperwork


def _calendar(name: str) -> Calendar:
    cal = Calendar()
    cal.add("prodid", "-//Kyoku mahjong league//matchdays//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", name)
    return cal


def _event(day: MatchDay, uid: str, summary: str, description: str = "") -> Event:
    ev = Event()
    ev.add("uid", uid)
    ev.add("summary", summary)
    if day.start_time:
        start = datetime.combine(day.date, day.start_time)
        ev.add("dtstart", start)
        ev.add("dtend", start + timedelta(hours=GAME_HOURS))
    else:
        ev.add("dtstart", day.date)
        ev.add("dtend", day.date + timedelta(days=1))
    ev.add("dtstamp", datetime(2000, 1, 1))
    if day.venue:
        ev.add("location", day.venue)
    if description:
        ev.add("description", description)
    return ev


def season_feed(season, host: str) -> bytes:
    cal = _calendar(f"{season.league.name} {season}")
    for day in MatchDay.objects.filter(season=season).select_related("division"):
        cal.add_component(_event(day, f"matchday-{day.pk}@{host}", f"{day.division.display_name} · {day.number}"))
    return cal.to_ical()


def player_feed(player, games, host: str) -> bytes:
    """One event per published table of the player: the match day, table and seat wind."""
    from .selectors import WIND_NAMES

    cal = _calendar(f"{player.display_name}")
    days = {(d.division_id, d.number): d for d in MatchDay.objects.filter(
        division__in={s.game.division_id for s in games}).select_related("division")}
    for seat in games:
        day = days.get((seat.game.division_id, seat.game.match_day))
        if day is None:
            continue
        summary = f"{day.division.display_name} · {day.number} · table {seat.game.table} · {WIND_NAMES[seat.seat]}"
        cal.add_component(_event(day, f"game-{seat.game_id}-player-{player.pk}@{host}", summary))
    return cal.to_ical()
