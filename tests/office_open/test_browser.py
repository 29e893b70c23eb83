"""In Chromium, phone and desktop: the admin opens a draft season's registration from the office
(confirming the question), then adds a tier on the tiers page with its typed fields; the page
does not overflow a phone's width."""

import pytest
from django.conf import settings as django_settings
from django.test import Client

from league.models import QualificationTier, Season
from tests.browser import chromium_page, needs_chromium

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


def _signed_in(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_open_registration_and_add_a_tier(live_server, draft, admin, viewport, tmp_path):
    with chromium_page() as page:
        page.set_viewport_size(VIEWPORTS[viewport])
        _signed_in(page, live_server, admin)
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{live_server.url}/office/seasons/{draft.pk}/")
        assert _fits(page)
        page.click("#office-open-button")
        page.wait_for_selector("#office-status")
        assert "Open: registration is open" in page.inner_text("#office-status")
        assert Season.objects.get(pk=draft.pk).status == "open"
        page.click("#office-tiers")
        page.wait_for_selector("#tier-form")
        assert _fits(page)
        page.fill("#id_code", "1A")
        page.fill("#id_description", "Tenhou 7-dan")
        page.fill("#id_effective_year", "2026")
        page.select_option("#id_validity", "yearly")
        page.select_option("#id_alt0_platform", "tenhou")
        page.select_option("#id_alt0_min_rank", "7-dan")
        page.fill("#id_alt0_min_games_in_year", "40")
        page.click("#tier-save")
        page.wait_for_selector("#tier-1A")
        assert _fits(page)
        page.screenshot(path=str(tmp_path / f"tiers-{viewport}.png"), full_page=True)
        tier = QualificationTier.objects.get(code="1A")
        assert tier.requirements == {
            "proof_required": False,
            "accounts": [{"platform": "tenhou", "min_rank": "7-dan", "min_games_in_year": 40}],
        }
