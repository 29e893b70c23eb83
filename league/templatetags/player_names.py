"""``{% player_name p %}``: a player's one name on this page (league.names.player_display_name),
wrapped in ``<span lang="…">`` when the name is written in another language than the page's (a
Chinese or Japanese name on an English page, a Latin name on a Chinese or Japanese page), so a
screen reader reads it in its own language and a browser picks the right glyphs."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.translation import get_language

from league.names import name_language, player_display_name, player_name_for

register = template.Library()


def _page_language(language: str | None) -> str:
    language = (language or "en").lower()
    if language.startswith("zh"):
        return "zh-Hant"
    return language.split("-")[0]


def name_html(name: str, lang: str, language: str | None = None) -> str:
    """``name`` escaped, in a span carrying ``lang`` when it is not the page's language."""
    if not name or lang == _page_language(language or get_language()):
        return format_html("{}", name)
    return format_html('<span lang="{}">{}</span>', lang, name)


@register.simple_tag
def player_name(player: Any) -> str:
    """A Player (or a row with its name fields) as this page's language names it; a string is
    taken as a name already chosen (league.names) and only marked with its language."""
    if player is None or player == "":
        return ""
    if isinstance(player, str):
        return name_lang(player)
    name = player_name_for(player)
    return name_html(name, name.lang)


@register.filter
def name_lang(name: Any) -> str:
    """A name already chosen (a string, or a league.names.Name that knows its language) marked
    with its language: ``{{ row.name|name_lang }}``."""
    text = str(name or "")
    return name_html(text, getattr(name, "lang", "") or name_language(text))


@register.filter
def player_display(player: Any) -> str:
    """The name as plain text (for a title, an attribute, a blocktrans argument)."""
    return player_display_name(player) if player else ""
