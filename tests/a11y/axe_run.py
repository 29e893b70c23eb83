"""axe-core (the copy axe-playwright-python ships) run over looks in Debian's Chromium.

Each (principal, language, width) gets a browser context of its own: the principal's session
cookie, the language cookie, the viewport. Every look is loaded, then axe runs its default rules
(WCAG 2.0–2.2 A/AA and best practice). A violation's nodes named in tests/a11y/exceptions.py are
set aside with their reason; what is left is a finding."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import groupby

from django.conf import settings

from tests.a11y.crawl import HEIGHT, Look
from tests.a11y.exceptions import excepted

BLOCKING = ("critical", "serious")


@dataclass(frozen=True)
class Finding:
    look: Look
    rule: str
    impact: str
    help: str
    targets: tuple[str, ...]
    html: str

    def line(self) -> str:
        return f"[{self.impact}] {self.rule} ({self.help}) at {', '.join(self.targets[:4])} — {self.look.label}"


@dataclass
class Outcome:
    findings: list[Finding] = field(default_factory=list)
    excepted: Counter = field(default_factory=Counter)
    runs: int = 0
    failed_loads: list[str] = field(default_factory=list)

    def blocking(self) -> list[Finding]:
        return [f for f in self.findings if f.impact in BLOCKING]

    def moderate(self) -> list[Finding]:
        return [f for f in self.findings if f.impact not in BLOCKING]


def _context(browser, base: str, cookie: str | None, language: str, width: int):
    context = browser.new_context(
        viewport={"width": width, "height": HEIGHT[width]}, extra_http_headers={"Accept-Language": language}
    )
    cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}]
    if cookie:
        cookies.append({"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base})
    context.add_cookies(cookies)
    return context


def _findings(look: Look, response: dict, outcome: Outcome) -> None:
    for violation in response["violations"]:
        kept = []
        for node in violation["nodes"]:
            target = " ".join(str(t) for t in node["target"])
            if excepted(violation["id"], look.visit.template, target):
                outcome.excepted[violation["id"]] += 1
            else:
                kept.append(node)
        if kept:
            outcome.findings.append(
                Finding(
                    look,
                    violation["id"],
                    violation.get("impact") or "minor",
                    violation["help"],
                    tuple(" ".join(str(t) for t in n["target"]) for n in kept),
                    kept[0].get("html", "")[:200],
                )
            )


def axe_looks(base: str, looks: list[Look], cookies: dict[str, str | None]) -> Outcome:
    """Run axe on every look against the live server at ``base``."""
    from axe_playwright_python.sync_playwright import Axe

    from tests.browser import chromium_page

    axe = Axe()
    outcome = Outcome()

    def key(look: Look):
        return (look.visit.principal, look.language, look.width)

    with chromium_page() as first:
        browser = first.context.browser
        for (principal, language, width), group in groupby(sorted(looks, key=key), key=key):
            context = _context(browser, base, cookies.get(principal), language, width)
            page = context.new_page()
            page.set_default_timeout(15000)
            for look in group:
                answer = page.goto(base + look.visit.url, wait_until="load")
                if answer is None or answer.status != look.visit.status:
                    outcome.failed_loads.append(f"{answer.status if answer else '-'} {look.label}")
                    continue
                _findings(look, axe.run(page).response, outcome)
                outcome.runs += 1
            context.close()
    return outcome
