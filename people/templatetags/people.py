"""``{% people_me_block %}``: the person's links on /me/ (link, create, download, close) and the
answers to their link requests."""

from __future__ import annotations

from typing import Any

from django import template

from kyoku import authz
from people.selectors import user_link_requests

register = template.Library()


@register.inclusion_tag("people/me_block.html", takes_context=True)
def people_me_block(context: Any) -> dict[str, Any]:
    user = context["request"].user
    return {
        "has_player": authz.player_of(user) is not None,
        "link_requests": list(user_link_requests(user)[:5]) if user.is_authenticated else [],
    }
