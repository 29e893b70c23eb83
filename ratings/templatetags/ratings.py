from django import template

from .. import selectors

register = template.Library()


@register.simple_tag
def player_rating_panels(player) -> list[dict]:
    """For the player page: per league, the current rating, the chart and the rated games."""
    panels = []
    for rating in selectors.player_ratings(player=player):
        events = list(selectors.player_rating_events(player=player, league=rating.league))
        panels.append({"rating": rating, "chart": selectors.chart(events), "events": events[::-1]})
    return panels
