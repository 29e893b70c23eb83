"""The Content-Security-Policy allows no inline handler: a template with an ``on…=`` attribute
would ship a handler the browser refuses (the undo confirmation once did nothing that way)."""

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
HANDLER = re.compile(r"<[^>]*\s(on[a-z]+)\s*=", re.IGNORECASE | re.DOTALL)
INLINE_URL = re.compile(r"""(href|src|action)\s*=\s*["']\s*javascript:""", re.IGNORECASE)


def test_no_template_has_an_inline_event_handler():
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(TEMPLATES)}: {m[1]}" for m in HANDLER.finditer(text)]
        found += [f"{path.relative_to(TEMPLATES)}: javascript: URL" for m in INLINE_URL.finditer(text)]
    assert found == []


def test_the_detector_sees_a_handler():
    assert HANDLER.search('<form id="x"\n      onsubmit="return confirm(1)">')
    assert not HANDLER.search('<form data-confirm="Delete?" class="on">')
