"""iCalendar feeds (RFC 5545) built with the ``icalendar`` library."""

from datetime import datetime, timedelta, timezone as dt_timezone

from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from .models import MatchDay
from league.names import player_display_name

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
        # the league's local time made absolute (UTC, "…Z"): a calendar in another zone shows the
        # right hour, where a floating time would be read as the reader's own
        start = timezone.make_aware(datetime.combine(day.date, day.start_time)).astimezone(dt_timezone.utc)
        ev.add("dtstart", start)
        ev.add("dtend", start + timedelta(hours=GAME_HOURS))
    else:
        ev.add("dtstart", day.date)
        ev.add("dtend", day.date + timedelta(days=1))
    ev.add("dtstamp", timezone.now().astimezone(dt_timezone.utc))  # when this feed was made (RFC 5545)
    if day.venue:
        ev.add("location", day.venue)
    if description:
        ev.add("description", description)
    return ev


def season_feed(season, host: str) -> bytes:
    cal = _calendar(f"{season.league.name} {season}")
    for day in MatchDay.objects.filter(season=season).select_related("division"):
        title = _("%(league)s %(season)s · %(division)s · match day %(n)s") % {
            "league": season.league.name,
            "season": season,
            "division": day.division.display_name,
            "n": day.number,
        }
        cal.add_component(_event(day, f"matchday-{day.pk}@{host}", title))
    return cal.to_ical()


def player_feed(player, games, host: str) -> bytes:
    """One event per published table of the player: the match day, table and seat wind."""
    from .selectors import WIND_NAMES

    cal = _calendar(f"{player_display_name(player)}")
    days = {
        (d.division_id, d.number): d
        for d in MatchDay.objects.filter(division__in={s.game.division_id for s in games}).select_related(
            "division", "season__league"
        )
    }
    for seat in games:
        day = days.get((seat.game.division_id, seat.game.match_day))
        if day is None:
            continue
        summary = _("%(league)s %(season)s · %(division)s · match day %(n)s · table %(table)s · %(wind)s seat") % {
            "league": day.season.league.name,
            "season": day.season,
            "division": day.division.display_name,
            "n": day.number,
            "table": seat.game.table,
            "wind": _(WIND_NAMES[seat.seat]),
        }
        cal.add_component(_event(day, f"game-{seat.game_id}-player-{player.pk}@{host}", summary))
    return cal.to_ical()
