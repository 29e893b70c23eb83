"""In Chromium, on a 390 px phone and a desktop, in English, Traditional Chinese and Japanese: the
members page fits the screen, and a sheet goes through upload → preview → confirm."""

import pytest
from django.test import Client

from league.models import Player
from tests.browser import chromium_page, needs_chromium
from tests.roster.sheets import csv_bytes

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
WORDS = {"en": "Members", "zh-Hant": "會員", "ja": "会員"}


def signed_in(page, live_server, user):
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


@pytest.mark.parametrize(("viewport", "language"), [("phone", "en"), ("desktop", "zh-Hant"), ("phone", "ja")])
def test_members_page_and_an_import(live_server, admin, league, season, viewport, language, tmp_path):
    sheet = tmp_path / "roster.csv"
    sheet.write_bytes(csv_bytes([["會員編號", "姓名", "電郵"], ["W-1", "Web Import", "w@example.org"]], bom=True))
    with chromium_page() as page:
        page.set_viewport_size(VIEWPORTS[viewport])
        page.set_extra_http_headers({"Accept-Language": language})
        signed_in(page, live_server, admin)
        page.goto(f"{live_server.url}/leagues/{league.slug}/members/")
        assert page.locator("h1").inner_text() == WORDS[language]
        assert page.locator("#members tbody tr").count() == 8
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= VIEWPORTS[viewport]["width"]
        page.fill("#member-q", "選手3")
        page.click("#member-search button")
        page.wait_for_url("**q=**")
        assert page.locator("#members tbody tr").count() == 1
        page.goto(f"{live_server.url}/leagues/{league.slug}/members/import/")
        page.set_input_files("#import-file", str(sheet))
        page.click("#import-upload button")
        page.wait_for_url("**preview=**")
        assert "W-1" in page.locator("#import-rows").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[viewport]["width"]
        page.click("#import-confirm button")
        page.wait_for_url(f"**/leagues/{league.slug}/members/")
    assert Player.objects.get(membership_number="W-1").display_name == "Web Import"
