"""Role checks in templates, always against one league: ``{% if user|is_admin_of:season.league %}``."""

from django import template

from kyoku import authz
from kyoku.models import League

register = template.Library()


@register.filter
def is_admin_of(user: authz.Actor, league: League | int | None) -> bool:
    return authz.is_admin(user, league)


@register.filter
def is_referee_of(user: authz.Actor, league: League | int | None) -> bool:
    return authz.is_referee(user, league)
