from django import template

from .. import selectors

register = template.Library()


@register.simple_tag
def player_rating_panels(player) -> list[dict]:
    """For the player page: per league, the current rating, the chart and the rated games."""
    return [{"rating": rating, "chart": selectors.chart(events), "events": events[::-1]}
            for rating, events in selectors.player_rating_history(player=player)]
