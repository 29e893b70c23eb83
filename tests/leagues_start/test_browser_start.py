"""Starting a league in a browser on a phone's width: choose a preset, fill the form, land on the
league's page as its admin; nothing sticks out sideways (the wide tables scroll in their box)."""

import pytest
from django.conf import settings as django_settings
from django.test import Client

from kyoku.models import League
from tests.browser import chromium_page, needs_chromium

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def _wider_than_the_screen(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_start_a_league_on_a_phone(live_server, founder, settings, tmp_path):
    settings.LEAGUE_START = "open"
    client = Client()
    client.force_login(founder)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    with chromium_page() as page:
        page.set_viewport_size({"width": 390, "height": 844})
        page.context.add_cookies(
            [{"name": django_settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
        )
        page.goto(f"{live_server.url}/leagues/new/")
        assert _wider_than_the_screen(page) <= 0
        page.check("#preset-ema")
        page.click("#preset-choose button[type=submit]")
        page.wait_for_load_state()
        assert "preset=ema" in page.url
        assert _wider_than_the_screen(page) <= 0
        page.fill("input[name=name]", "Phone League")
        page.fill("input[name=name_zh]", "手機聯賽")
        page.fill("input[name=slug]", "phone-league")
        page.fill("input[name=season_year]", "2027")
        page.screenshot(path=str(tmp_path / "start.png"), full_page=True)
        page.click("#league-start")
        page.wait_for_load_state()
        assert page.url.endswith("/leagues/phone-league/")
        assert page.is_visible("#league-roles-link") and page.is_visible("#league-settings-link")
        assert _wider_than_the_screen(page) <= 0
        page.click("#league-roles-link")
        page.wait_for_load_state()
        assert page.is_visible("#role-invite") and _wider_than_the_screen(page) <= 0
    league = League.objects.get(slug="phone-league")
    season = league.seasons.get()
    assert season.rule_set.preset == "ema" and season.rule_set.overrides == {}
    assert [d.code for d in season.divisions.order_by("order")] == ["A", "B"]
