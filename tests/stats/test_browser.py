"""In Chromium, on a 390 px phone and a desktop, in English, Traditional Chinese and Japanese: a
player's statistics page (figures, charts) and the league's leaderboard fit the screen and read
in the reader's language."""

import pytest

from kyoku.principals import SYSTEM
from scoring import services as hands
from tests.browser import chromium_page, needs_chromium
from tests.riichi_game import HANDS

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
WORDS = {  # the win rate's name, the leaderboard's heading, the first win's name (reached)
    "en": ("Win rate", "Leaderboards", "First win"),
    "zh-Hant": ("和牌率", "排行榜", "首次和牌"),
    "ja": ("和了率", "ランキング", "初和了"),
}


@pytest.mark.parametrize(("viewport", "language"), [("phone", "en"), ("desktop", "zh-Hant"), ("phone", "ja")])
def test_statistics_page_and_leaderboard(live_server, game, players, league, viewport, language):
    for record in HANDS:
        hands.hand_record_add(game=game, record=record, actor=SYSTEM)
    hands.game_hands_finish(game=game, actor=SYSTEM)
    # a league's real name: the season choice reads "<league> · <season>", wider than a phone
    league.name = "Hong Kong Riichi Mahjong Association League"
    league.save()
    win_rate, boards, first_win = WORDS[language]
    with chromium_page() as page:
        page.set_viewport_size(VIEWPORTS[viewport])
        page.set_extra_http_headers({"Accept-Language": language})
        page.goto(f"{live_server.url}/players/{players[1].pk}/")
        page.click("#statistics-link")
        page.wait_for_url(f"**/players/{players[1].pk}/statistics/")
        page.select_option("#stats-scope select[name=league]", league.slug)
        page.click("#stats-scope button")
        page.wait_for_url("**league=test**")
        row = page.locator("#figure-win_rate")
        assert row.inner_text() == win_rate
        assert "20" in page.locator("#figures tr", has=row).inner_text()  # 1 win in 5 hands
        for chart in ("#places-chart", "#running-chart", "#rates-chart"):
            box = page.locator(chart).bounding_box()
            assert box["width"] > 100 and box["x"] + box["width"] <= VIEWPORTS[viewport]["width"]
        # the achievements: the player won a hand; each line's rule wraps inside the screen
        reached = page.locator("#achievement-first_win.reached")
        assert first_win in reached.inner_text()
        box = page.locator("#achievements").bounding_box()
        assert box["x"] + box["width"] <= VIEWPORTS[viewport]["width"]
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        page.goto(f"{live_server.url}/leagues/{league.slug}/statistics/?min=5")
        assert boards in page.inner_text("h1")
        assert page.locator("#leaderboard tbody tr").count() == 4
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
