"""``{% load kyoku_labels %}``: ``{{ code|label:"offence" }}`` (see kyoku/labels.py). A filter takes
whatever value a template holds, hence the Any."""

from typing import Any

from django import template

from kyoku.labels import label as _label
from kyoku.labels import audit_action_label, offence_label, rank_label, rule_set_notes_words

register = template.Library()


@register.filter
def label(value: Any, kind: str) -> str:
    return _label(value, kind)


@register.filter
def labels(values: Any, kind: str) -> str:
    """A list of codes as their display names, joined with commas."""
    return ", ".join(_label(v, kind) for v in values or [])


@register.filter
def offence_in(code: str, catalogue: object) -> str:
    """An offence's name, the league catalogue's own name for offences of its own."""
    return offence_label(code, catalogue if isinstance(catalogue, dict) else None)


MINUS = "\u2212"  # a real minus sign: the same width as the plus it stands against in a column


@register.filter
def score(value: Any) -> str:
    """A raw score as every page shows it: thousands separated, a real minus sign (35,200; −1,400)."""
    if value is None or value == "":
        return ""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    text = f"{abs(number):,}"
    return f"{MINUS}{text}" if number < 0 else text


@register.filter
def league_points(value: Any) -> str:
    """League points as every page shows them: one decimal, a real minus sign (63.0; −20.0)."""
    if value is None or value == "":
        return ""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    text = f"{abs(number):.1f}"
    return f"{MINUS}{text}" if number < 0 and text != "0.0" else text


@register.filter
def audit_action(code: object) -> str:
    """An audit log action in words (``season.rules_revise`` → "Rules revised")."""
    return audit_action_label(str(code or ""))


@register.filter
def rule_set_notes(rule_set: Any) -> str:
    """A rule set version's notes in the reader's language (the note a copy writes, translated)."""
    return rule_set_notes_words(rule_set)


@register.filter
def rank(value: object) -> str:
    """A platform rank in the reader's words (``7-dan`` → 7段)."""
    return rank_label(str(value or ""))
