"""In Chromium, on a phone and on a desktop: the demo's admin opens the Kowloon Riichi Club's
finished season, previews its promotion and confirms it (issue 11: a season ready for promotion)."""

import pytest

from league.models import Entry, Season
from tests.browser import chromium_page, login, needs_chromium

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(demo_committed):
    """The demo as seeded and committed (tests/conftest.py): the live server reads it."""


@pytest.mark.parametrize(
    "viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 900}], ids=["phone", "desktop"]
)
def test_the_admin_confirms_the_demo_promotion(live_server, demo, viewport):
    finished = Season.objects.get(league__slug="krc", number=1)
    following = Season.objects.get(league__slug="krc", number=2)
    with chromium_page() as page:
        page.set_viewport_size(viewport)
        login(page, live_server, "admin", "kyoku-admin")
        page.goto(f"{live_server.url}/seasons/{finished.pk}/")
        page.click("text=Season office")
        page.click(f"a[href='/office/seasons/{finished.pk}/promotion/']")
        assert page.locator("#promotion tr.move-promoted").count() == 2
        assert page.locator("#promotion tr.move-relegated").count() == 2
        assert "Promoted" in page.inner_text("#promotion tr.move-promoted >> nth=0")
        # nothing wider than the screen: the table scrolls inside its box if at all
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.click("#promotion-confirm")
        page.wait_for_load_state()
        assert "16 entries created in the next season." in page.inner_text("main")
        assert "already has 16 entries" in page.inner_text("main")
    assert Entry.objects.filter(season=following).count() == 16
