"""axe findings set aside, one by one, each with its reason (never a rule switched off for the site).

An exception names the axe rule, the template the page was rendered from, and the element (a part of
axe's CSS selector for the node); only a node matching all three is set aside. The list is printed
in docs/accessibility.md."""

from __future__ import annotations

from typing import NamedTuple


class Exception_(NamedTuple):
    rule: str
    template: str
    target: str
    reason: str


EXCEPTIONS: tuple[Exception_, ...] = ()


def excepted(rule: str, template: str, target: str) -> bool:
    """Whether axe's finding of ``rule`` at ``target`` on a page of ``template`` is a named exception."""
    return any(e.rule == rule and e.template == template and e.target in target for e in EXCEPTIONS)
