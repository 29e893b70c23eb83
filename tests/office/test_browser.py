"""In Chromium, phone and desktop, English and Traditional Chinese: from the season office,
create the next season, preview who moves, confirm; the next season holds every entry once."""

import pytest

from league import services
from league.models import Entry, Season
from tests.browser import chromium_page, login, needs_chromium
from kyoku.principals import SYSTEM

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


@pytest.fixture
def played(season, players, admin):
    for code, four in (("A", players[:4]), ("B", players[4:8])):
        division = season.divisions.get(code=code)
        game = services.game_create(division=division, match_day=1, table=1, players=four, actor=SYSTEM)
        services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
        services.standings_recompute(division=division)
    return season


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", ["en", "zh-Hant"])
def test_next_season_promotion_preview_and_confirm(live_server, played, players, admin, viewport, language):
    with chromium_page() as page:
        page.set_viewport_size(VIEWPORTS[viewport])
        page.set_extra_http_headers({"Accept-Language": "zh-Hant" if language == "zh-Hant" else "en"})
        login(page, live_server, "admin", "admin-pw-123")
        page.goto(f"{live_server.url}/office/seasons/{played.pk}/")
        assert page.get_attribute("html", "lang").lower() == language.lower()
        page.click("#next-season-create")
        page.wait_for_load_state()
        page.click("#promotion-preview")
        page.wait_for_selector("#promotion")
        rows = page.locator("#promotion tbody tr")
        assert rows.count() == 8
        assert page.locator("#promotion tr.move-promoted").count() == 2
        assert page.locator("#promotion tr.move-relegated").count() == 2
        # one name per person: "Player 5" on an English page, its native 選手5 on a Chinese one
        assert ("Player 5" if language == "en" else "選手5") in page.locator(
            "#promotion tr.move-promoted"
        ).first.inner_text()
        # the table and the confirm button fit the phone's width
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        box = page.locator("#promotion-confirm").bounding_box()
        assert box["x"] + box["width"] <= VIEWPORTS[viewport]["width"]
        page.screenshot(path=f"/tmp/office-promotion-{viewport}-{language}.png", full_page=True)
        page.click("#promotion-confirm")
        page.wait_for_selector("#promotion")
        page.click("#promotion-confirm")  # a second confirm creates nothing
        page.wait_for_selector("#promotion")
    nxt = Season.objects.get(league=played.league, number=2)
    placed = {e.player_id: (e.division.code, e.basis) for e in Entry.objects.filter(season=nxt)}
    assert len(placed) == 8 and placed[players[4].pk] == ("A", "promoted")
    assert placed[players[3].pk] == ("B", "relegated")
