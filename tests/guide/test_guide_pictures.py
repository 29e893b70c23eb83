"""The guide's pictures (issue 48): each role's steps (tests/guide/steps.py) walked in Debian's
Chromium on the demo data (``seed_demo``, the README's logins), each page checked for the words
the guide relies on. With ``KYOKU_GUIDE_WRITE=1`` (scripts/guide) each step's picture is saved
to docs/guide/img/; without it the walk still runs, so a page that changes past recognition, or
goes away, fails here before the guide shows a picture of something that is no longer there."""

from __future__ import annotations

import os
import zlib
from pathlib import Path

import pytest

from tests.browser import ARGS, CHROMIUM, needs_chromium
from tests.guide.steps import CHAPTERS, DIRECTOR_TOTP_SECRET, LOGINS, Step

pytestmark = [
    pytest.mark.browser,
    needs_chromium,
    pytest.mark.django_db(transaction=True),
    # the guide's pages are the same pages on PostgreSQL: walked in CI's SQLite pass (CI's time)
    pytest.mark.skipif(os.environ.get("KYOKU_TESTS_SERVICES_ONLY") == "1", reason="walked in CI's SQLite pass"),
]

IMG = Path(__file__).resolve().parents[2] / "docs" / "guide" / "img"
WRITE = os.environ.get("KYOKU_GUIDE_WRITE") == "1"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def demo(demo_committed):
    """The demo as seeded and committed (tests/conftest.py): the live server reads it."""


def demo_ids() -> dict[str, int]:
    """The demo's rows each step's page names, looked up by what they are, never by number."""
    from events.models import Event, TableReport
    from kyoku.models import League
    from league.models import Game, Player, Season
    from matchdays.models import MatchDay
    from referee.models import Appeal, Incident

    season = Season.objects.get(league__slug="hkrl", event__isnull=True, status="open")
    player = Player.objects.get(user__username="player")
    running = Event.objects.get(status="running")
    reports = TableReport.objects.filter(game__season=running.season)
    return {
        "league": League.objects.get(slug="hkrl").pk,
        "season": season.pk,
        "krc_done": Season.objects.get(league__slug="krc", status="closed").pk,
        "krc_next": Season.objects.get(league__slug="krc", status="draft").pk,
        "matchday": MatchDay.objects.filter(division__season=season, status="seated").order_by("pk").first().pk,
        "game_open": Game.objects.filter(division__season=season, status="scheduled").order_by("pk").first().pk,
        "game_done": Game.objects.filter(division__season=season, status="finished").order_by("-pk").first().pk,
        "incident_open": Incident.objects.get(status="open").pk,
        "incident_ruled": Incident.objects.get(status="ruled").pk,
        "incident_appealed": Appeal.objects.order_by("pk").first().ruling.incident_id,
        "event": running.pk,
        "event_done": Event.objects.get(status="finished").pk,
        "table_confirm": reports.get(status="pending", game__seats__player=player).game_id,
        "table_disputed": reports.filter(status="disputed").order_by("game_id").first().game_id,
        "player": player.pk,
    }


def sign_in(page, base: str, who: str) -> None:
    if LOGINS[who] is None:
        return
    username, password = LOGINS[who]
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", password)
    page.click("form.card button[type=submit]")
    page.wait_for_load_state()
    if who == "director":  # the director's second factor: a code from the authenticator app
        import pyotp

        page.fill("input[name=code]", pyotp.TOTP(DIRECTOR_TOTP_SECRET).now())
        page.click("main form button[type=submit]")
        page.wait_for_load_state()
    assert "/accounts/" not in page.url, f"{who} did not get past signing in: {page.url}"


def fill_league(page) -> None:
    page.fill("input[name=name]", "Tsuen Wan Riichi Club")


def confirm_promotion(page) -> None:
    page.click("#promotion-confirm")
    page.wait_for_load_state()


def confirm_table(page) -> None:
    """The page posts the confirmation to the API and reloads: the picture is the reloaded page,
    which shows two seats agreeing (the demo's North had already confirmed)."""
    with page.expect_navigation():
        with page.expect_response(lambda r: "/api/events/tables/" in r.url and r.request.method == "POST"):
            page.click("button.confirm")
    page.wait_for_load_state()
    assert page.locator("td", has_text="✓").count() == 2, "the confirmation did not reach the table's page"


ACTIONS = {"fill_league": fill_league, "confirm_promotion": confirm_promotion, "confirm_table": confirm_table}


def optimised(png: bytes) -> bytes:
    """The same picture with its pixel data deflated at the highest level, in one IDAT chunk, and
    no chunk but IHDR, PLTE, IDAT and IEND (Chromium's own compression is a fast one)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, data, pos = [], b"", 8
    while pos < len(png):
        length = int.from_bytes(png[pos : pos + 4], "big")
        kind = png[pos + 4 : pos + 8]
        body = png[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IDAT":
            data += body
        elif kind in (b"IHDR", b"PLTE"):
            chunks.append((kind, body))
    chunks.append((b"IDAT", zlib.compress(zlib.decompress(data), 9)))
    chunks.append((b"IEND", b""))
    out = png[:8]
    for kind, body in chunks:
        out += len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")
    return out


def take(page, base: str, step: Step, ids: dict[str, int]) -> None:
    response = page.goto(base + step.path.format(**ids))
    assert response is not None and response.status < 400, f"{step.image}: {step.path} answered {response.status}"
    page.wait_for_load_state()
    if step.act:
        ACTIONS[step.act](page)
    text = page.inner_text("body")
    for words in (step.expect, *step.says):
        assert words in text, f"{step.image}: {page.url} no longer shows {words!r}"
    if step.show:
        page.locator(step.show).first.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.evaluate("window.scrollBy(0, -16)")
    if WRITE:
        IMG.mkdir(parents=True, exist_ok=True)
        (IMG / step.image).write_bytes(optimised(page.screenshot(animations="disabled", caret="hide")))


@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
def test_walk_the_chapter(live_server, demo, chapter):
    """Every step of one role's chapter, in order, each person in a browser of their own."""
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop here
    from django.conf import settings
    from django.db import connections
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    ids = demo_ids()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages: dict[tuple[str, bool, str], object] = {}
            try:
                failures = []
                for step in CHAPTERS[chapter]:
                    key = (step.who, step.phone, step.lang)
                    if key not in pages:
                        context = browser.new_context(
                            viewport=PHONE if step.phone else DESKTOP, locale="en-GB", timezone_id="Asia/Hong_Kong"
                        )
                        cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": step.lang, "url": live_server.url}
                        context.add_cookies([cookie])
                        page = context.new_page()
                        page.set_default_timeout(15000)
                        sign_in(page, live_server.url, step.who)
                        pages[key] = page
                    try:
                        take(pages[key], live_server.url, step, ids)
                    except (AssertionError, PlaywrightError) as exc:  # every broken step named at once
                        failures.append(f"{step.image}: {exc}".splitlines()[0])
                assert not failures, "\n".join(failures)
            finally:
                browser.close()
                connections.close_all()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous
