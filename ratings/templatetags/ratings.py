from decimal import ROUND_HALF_UP, Decimal

from django import template
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from .. import selectors

register = template.Library()

HUNDREDTH = Decimal("0.01")


@register.simple_tag
def player_rating_panels(player) -> list[dict]:
    """For the player page: per league, the current rating, the chart and the rated games (their
    rows already rendered: a busy player has hundreds, and a row's link, words and numbers cost
    more through template tags and filters than the rest of the page together)."""
    return [
        {
            "rating": rating,
            "chart": selectors.chart(events),
            "events": events[::-1],
            "rows": rating_rows_html(events[::-1]),
        }
        for rating, events in selectors.player_rating_history(player=player)
    ]


def floatformat2(value: float, decimal_sep: str = ".") -> str:
    """What ``{{ value|floatformat:2 }}`` prints for a float (half up from its shortest repr, no
    minus on a zero, the language's decimal separator), without the filter's cost per call."""
    d = Decimal(repr(value)).quantize(HUNDREDTH, ROUND_HALF_UP)
    text = f"{abs(d) if not d else d:f}"
    return text.replace(".", decimal_sep) if decimal_sep != "." else text


def rating_rows_html(events) -> str:
    """The rated games' table rows, newest first, as the template printed them one by one."""
    game_url = reverse("game", args=[0])[:-2]
    table, sep = escape(gettext("table")), get_format("DECIMAL_SEPARATOR")
    rows = []
    for e in events:
        g = e.game
        change = e.change
        rows.append(
            f'\n        <tr><td><a href="{game_url}{e.game_id}/">{escape(str(g.season))} · '
            f'{escape(g.division.code)} · {escape(g.round_label)} · {table} {g.table}</a></td>\n'
            f'          <td class="num">{e.place}</td><td class="num">{floatformat2(e.ordinal_before, sep)}</td>'
            f'<td class="num">{floatformat2(e.ordinal, sep)}</td>\n'
            f'          <td class="num">{"+" if change >= 0 else ""}{floatformat2(change, sep)}</td></tr>\n      '
        )
    return mark_safe("".join(rows))


def circles_html(dots) -> str:
    """A chart's dots as ``{% for x, y in dots %}<circle cx="{{ x }}" cy="{{ y }}" r="3"/>{% endfor %}``
    printed them (the coordinates are rounded floats: printed as Python prints them)."""
    sep = get_format("DECIMAL_SEPARATOR")
    text = "".join(f'<circle cx="{x}" cy="{y}" r="3"/>' for x, y in dots)
    return mark_safe(text.replace(".", sep) if sep != "." else text)


@register.filter
def chart_circles(dots) -> str:
    return circles_html(dots or [])
