"""A figure as the page prints it: a rate in per cent, an average to two places, an absent one
as "—" (the reason beside it, in the template)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def figure(value: Any, percent: bool = False) -> str:
    if value is None:
        return "—"
    if percent:
        return f"{number_format(round(float(value) * 100, 1), 1)}%"
    return number_format(round(float(value), 2), 2)


@register.filter
def bar_width(count: int, top: int) -> int:
    """Width in pixels of a frequency bar, the largest 160."""
    return int(round(160 * count / top)) if top else 0
