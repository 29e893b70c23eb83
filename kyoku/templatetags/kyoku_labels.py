"""``{% load kyoku_labels %}``: ``{{ code|label:"offence" }}`` (see kyoku/labels.py)."""

from django import template

from kyoku.labels import label as _label
from kyoku.labels import offence_label

register = template.Library()


@register.filter
def label(value, kind):
    return _label(value, kind)


@register.filter
def labels(values, kind):
    """A list of codes as their display names, joined with commas."""
    return ", ".join(_label(v, kind) for v in values or [])


@register.filter
def offence_in(code, catalogue):
    """An offence's name, the league catalogue's own name for offences of its own."""
    return offence_label(code, catalogue if isinstance(catalogue, dict) else None)
