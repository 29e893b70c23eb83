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
        "event": event,
        "clock": round_clock_state(Round.objects.filter(event=event, number=game.match_day).first()),
        "last_hand": table_last_hand(game),
    }


@register.filter
def round_title(round_) -> str:
    """A round as people name it, by its stage: "Round 3", "Semi-final, round 1", "Final"."""
    from events.stages import round_title_of

    return round_title_of(round_)


@register.filter
def event_summary(event) -> list[str]:
    """The event's format in words, every stage named (events.stages.event_summary)."""
    from events.stages import event_summary as summary

    return summary(event)


@register.filter
def board_words(event) -> str:
    """The big screen's words as JSON for its data-words attribute (events.stages.board_words)."""
    import json

    from events.stages import board_words as words

    return json.dumps(words(event), ensure_ascii=False)


@register.filter
def stage_line(stage) -> str:
    """The board's line naming the stage its order is after (events.stages.board_stage_line)."""
    from events.stages import board_stage_line

    return board_stage_line(stage)


@register.filter
def round_named(event, number) -> str:
    """Round ``number`` of ``event`` named by its stage (events.stages.round_title_by_number)."""
    from events.stages import round_title_by_number

    return round_title_by_number(event, int(number))
