"""A shared phone in Debian's Chromium (issue 47 §3): user A signs in and reads private pages
online, signs out; the next person, offline, finds nothing of A (no page, no cached copy). And a
table's phone keeps the table's unsent report through a logout on it and sends it when back."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from events import services
from events.models import TableReport
from kyoku.principals import SYSTEM
from notifications.services import notification_send
from league.models import Game
from tests.actors import make_player_user, make_user
from tests.browser import back_online, chromium_page, needs_chromium
from tests.events.conftest import event, field, in_play, rules, running  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

SCORES = [48000, 32000, 12000, 8000]
SECRET = "Alice-Secret-Open"
CACHED_TEXTS = """() => Promise.race([(async () => {
  const out = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      out.push(request.url + "\\n" + (await response.text()));
    }
  }
  return out;
})(), new Promise((_, no) => setTimeout(() => no(new Error("caches did not answer")), 10000))])"""
CONTROLLED = "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"


def _sign_in(page, live_server, user) -> None:
    """A's browser holds A's session (what the login form leaves), whatever the login view."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])


def _log_out(page) -> None:
    """The navigation's own logout button, whatever view it posts to."""
    with page.expect_navigation():
        page.click("form[action*='logout'] button")
    page.wait_for_load_state()
    page.wait_for_function("() => window.kyokuSignedOutDone === true", timeout=15000)  # app.js cleared


def _content(page) -> str:
    """The page's HTML once it has settled (a failed offline navigation swaps in the error page)."""
    from playwright.sync_api import Error as PlaywrightError

    for _ in range(20):
        try:
            page.wait_for_load_state()
            return page.content()
        except PlaywrightError as exc:
            if "navigating" not in str(exc):
                raise
            page.wait_for_timeout(100)
    return page.content()


def _private(texts: list[str]) -> list[str]:
    """What of A is in these texts: A's notification, or a page signed in as A."""
    return [t[:200] for t in texts if SECRET in t or "Log out" in t]


def test_the_next_person_offline_sees_nothing_of_the_last(live_server):
    alice = make_user("alice", email="alice@example.org")
    notification_send(
        kind="referee_call",
        recipients=[alice],
        league=None,
        params={"event": SECRET, "round": 2, "table": 7, "reason": "dispute"},
        actor=SYSTEM,
    )
    with chromium_page() as page:
        _sign_in(page, live_server, alice)
        page.goto(f"{live_server.url}/me/notifications/")
        page.wait_for_function(CONTROLLED, timeout=15000)
        for path in ("/me/notifications/", "/me/", "/events/", "/"):  # through the service worker now
            page.goto(f"{live_server.url}{path}")
            assert "Log out" in page.content()
        assert SECRET in page.goto(f"{live_server.url}/me/notifications/").text()
        assert _private(page.evaluate(CACHED_TEXTS)) == []  # private pages are never kept
        _log_out(page)
        assert _private([_content(page)]) == []
        assert "kyoku_signed_out" not in page.evaluate("document.cookie")  # read once, then gone

        # the next person picks up the phone, with no network
        page.context.set_offline(True)
        for path in ("/me/notifications/", "/me/"):
            try:
                page.goto(f"{live_server.url}{path}")
            except Exception as exc:  # nothing kept: the browser's own offline error
                assert "ERR_" in str(exc)
            assert _private([_content(page)]) == []
        page.context.set_offline(False)
        page.goto(f"{live_server.url}/events/")  # an error page has no caches to look into
        assert _private([_content(page)]) == [] and _private(page.evaluate(CACHED_TEXTS)) == []


def test_a_tables_unsent_report_survives_a_logout_on_its_phone(live_server, in_play):  # noqa: F811
    game = Game.objects.filter(season=in_play.season, match_day=1).order_by("table").first()
    player = game.seats.get(seat=0).player
    user = player.user or make_player_user("seat-zero", player)
    with chromium_page() as page:
        _sign_in(page, live_server, user)
        page.goto(f"{live_server.url}/events/{in_play.pk}/code/")
        page.fill("input[name=code]", services.table_code(game))
        page.click("main form button")
        page.wait_for_selector("#report-form")
        # the report cannot get through (the venue's network drops the API): kept on the phone
        page.route("**/api/events/tables/**", lambda route: route.abort())
        for i, value in enumerate(SCORES):
            page.fill(f"#report-form input[name=score_{i}]", str(value))
        page.click("#report-form button")
        page.wait_for_selector("#table-outbox:not([hidden])")
        assert len(page.evaluate("JSON.parse(localStorage.getItem('kyoku-event-outbox') || '[]')")) == 1

        _log_out(page)  # the signed-in player leaves; the phone stays at the table
        kept = page.evaluate("JSON.parse(localStorage.getItem('kyoku-event-outbox') || '[]')")
        assert len(kept) == 1 and kept[0]["body"]["scores"] == SCORES
        assert not TableReport.objects.filter(game=game).exists()

        page.unroute("**/api/events/tables/**")
        page.goto(f"{live_server.url}/events/tables/{game.pk}/")
        back_online(page)
        page.wait_for_function("() => (localStorage.getItem('kyoku-event-outbox') || '[]') === '[]'", timeout=30000)
        assert TableReport.objects.get(game=game).scores == SCORES
