from django import template

register = template.Library()


@register.filter
def clock_time(seconds) -> str:
    """Seconds as m:ss (h:mm:ss from an hour): the clock's figure before its script takes over."""
    try:
        seconds = max(0, int(seconds))
    except (TypeError, ValueError):
        return ""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.filter
def join_names(people) -> str:
    """[{name: …}, …] as one list of names, with the reader's separator (、 in Chinese and Japanese)."""
    from django.utils.translation import pgettext

    return pgettext("list separator", ", ").join(str(p.get("name", "")) for p in people or [])


@register.inclusion_tag("events/_clock.html")
def event_clock(game) -> dict:
    """The round clock above a tournament game's scorekeeper (nothing for a league game): the
    scorekeeper sees the time left and, when it is up, which hand is the last."""
    from events.models import Event, Round
    from events.selectors import round_clock_state

    try:
        event = game.season.event
    except (Event.DoesNotExist, AttributeError):
        return {"clock": None}
    from events.selectors import table_last_hand

    return {
        "clock": round_clock_state(Round.objects.filter(event=event, number=game.match_day).first()),
        "last_hand": table_last_hand(game),
    }
