from django import template
from django.template.context import Context

from kyoku.desk import DeskCall, desk_calls

register = template.Library()


@register.simple_tag(takes_context=True)
def referee_calls(context: Context) -> list[DeskCall]:
    """The calls for a referee that the signed-in user may answer (kyoku.desk)."""
    request = context.get("request")
    return desk_calls(request.user) if request is not None else []
