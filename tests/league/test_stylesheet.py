"""The shared stylesheet stays well formed: every block is closed where it was meant to be. A merge
once dropped two closing braces, so everything below them (standings zones, the office, the print
styles) sat inside a phone-only media query: rules nobody on a desktop or on paper ever saw.
A missing brace leaves no parse error (the block just runs on to the end of the file), so the
tests look at the shape: no media query inside another, no rule inside a rule (kyoku.css does not
use CSS nesting)."""

from pathlib import Path

import tinycss2

CSS = Path(__file__).resolve().parents[2] / "static" / "kyoku.css"


def _top_level():
    return tinycss2.parse_stylesheet(CSS.read_text(encoding="utf-8"), skip_comments=True, skip_whitespace=True)


def _declarations_parse(rule) -> None:
    where = f"{tinycss2.serialize(rule.prelude).strip()} (line {rule.source_line})"
    for item in tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True):
        assert item.type == "declaration", (
            f"{where}: {item.type} {getattr(item, 'message', '')}: " "a closing brace is missing"
        )


def test_no_media_query_inside_another_and_no_rule_inside_a_rule():
    prints = 0
    for rule in _top_level():
        assert rule.type != "error", f"line {rule.source_line}: {rule.message}"
        if rule.type == "qualified-rule":
            _declarations_parse(rule)
        elif rule.at_keyword == "media":
            prelude = tinycss2.serialize(rule.prelude).strip()
            prints += prelude == "print"
            for inner in tinycss2.parse_rule_list(rule.content or [], skip_comments=True, skip_whitespace=True):
                assert inner.type == "qualified-rule", (
                    f"@media {prelude} (line {rule.source_line}) holds {inner.type} "
                    f"{getattr(inner, 'at_keyword', '')} (line {inner.source_line}): a closing brace is missing"
                )
                _declarations_parse(inner)
    assert prints >= 2  # the match-day sheets' and the standings/score sheet's, both at the top level
