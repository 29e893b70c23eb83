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
