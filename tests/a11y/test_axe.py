"""Issue 48: axe-core (axe-playwright-python's copy) on the pages the crawl reaches, in Debian's
Chromium against a live server.

Pages: every route of the endpoint matrix (tests/routes.py, objects from tests/security/kinds.py in
the matrix world) read by anonymous, the owning player, the referee, the admin and the event
director, plus the 404 page (tests/a11y/crawl.py). The CI slice checks each template once: the
templates are taken in turn through the languages (en, zh-Hant, ja), widths (390, 1366) and
principals. ``bench/a11y_all.py`` sets ``KYOKU_A11Y_ALL`` and runs the two whole-matrix tests
below: every page read × principal × language × width, on the matrix world and on the demo league
crawled by links, and writes the moderate findings to docs/accessibility-report.md.

A violation of impact serious or critical fails; the exceptions are named one by one in
tests/a11y/exceptions.py. The slice runs in CI's SQLite pass only (the markup is the same on
PostgreSQL)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.a11y.axe_run import Outcome, axe_looks
from tests.a11y.crawl import (
    LANGUAGES,
    PRINCIPALS,
    WIDTHS,
    demo_session_cookie,
    demo_visits,
    every_look,
    one_per_template,
    routes_pages,
    session_cookie,
    visits,
)
from tests.browser import needs_chromium
from tests.security.world import world_build

ALL = os.environ.get("KYOKU_A11Y_ALL") == "1"
# bench/a11y_all.py --quick: each template once (as the CI slice), on the world and the demo alike
QUICK = os.environ.get("KYOKU_A11Y_QUICK") == "1"
OUT = Path(os.environ.get("KYOKU_A11Y_OUT", "/tmp/kyoku-a11y"))

pytestmark = [
    pytest.mark.browser,
    needs_chromium,
    pytest.mark.skipif(
        os.environ.get("KYOKU_TESTS_SERVICES_ONLY") == "1",
        reason="the pages' markup is the same on PostgreSQL: checked in CI's SQLite pass",
    ),
]
whole_matrix = pytest.mark.skipif(not ALL, reason="the whole matrix runs from bench/a11y_all.py")


def _dump(name: str, looks: int, outcome: Outcome) -> None:
    """What a whole-matrix run found, for bench/a11y_all.py to count and report."""
    OUT.mkdir(parents=True, exist_ok=True)
    rows = [
        {
            "impact": f.impact,
            "rule": f.rule,
            "help": f.help,
            "template": f.look.visit.template,
            "page": f.look.visit.url,
            "principal": f.look.visit.principal,
            "language": f.look.language,
            "width": f.look.width,
            "targets": list(f.targets),
        }
        for f in outcome.findings
    ]
    summary = {"looks": looks, "runs": outcome.runs, "excepted": dict(outcome.excepted), "findings": rows}
    summary["failed_loads"] = outcome.failed_loads
    (OUT / f"{name}.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1), encoding="utf-8")


def _verdict(outcome: Outcome) -> None:
    assert not outcome.failed_loads, "\n".join(outcome.failed_loads)
    blocking = outcome.blocking()
    assert not blocking, "\n" + "\n".join(f.line() for f in blocking)


@pytest.mark.django_db(transaction=True)
def test_every_template_passes_axe(live_server):
    world = world_build()
    looks = one_per_template(visits(world, routes_pages(world)))
    # each language and width is seen, by every principal, on the templates of the site
    assert {look.language for look in looks} == set(LANGUAGES)
    assert {look.width for look in looks} == set(WIDTHS)
    assert {look.visit.principal for look in looks} == set(PRINCIPALS)
    assert len(looks) > 60, f"only {len(looks)} templates reached: the crawl is broken"
    outcome = axe_looks(live_server.url, looks, {p: session_cookie(world, p) for p in PRINCIPALS})
    assert outcome.runs == len(looks)
    _verdict(outcome)


@whole_matrix
@pytest.mark.django_db(transaction=True)
def test_every_page_of_the_matrix_world_passes_axe(live_server):
    world = world_build()
    looks = (one_per_template if QUICK else every_look)(visits(world, routes_pages(world)))
    outcome = axe_looks(live_server.url, looks, {p: session_cookie(world, p) for p in PRINCIPALS})
    _dump("world", len(looks), outcome)
    _verdict(outcome)


@whole_matrix
@pytest.mark.django_db(transaction=True)
def test_every_page_of_the_demo_passes_axe(live_server, demo_committed):
    looks = (one_per_template if QUICK else every_look)(demo_visits())
    outcome = axe_looks(live_server.url, looks, {p: demo_session_cookie(p) for p in PRINCIPALS})
    _dump("demo", len(looks), outcome)
    _verdict(outcome)


def test_an_exception_names_its_rule_template_and_element():
    from tests.a11y.exceptions import EXCEPTIONS, excepted

    for e in EXCEPTIONS:
        assert e.rule and e.template and e.target and len(e.reason) > 20, e
        assert excepted(e.rule, e.template, e.target)
        assert not excepted(e.rule, "no/such/template.html", e.target)
