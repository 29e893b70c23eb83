"""In Chromium, on a 390 px phone and a desktop, in English and Traditional Chinese: the
league's rating table (sorting, the explanation) and a player's rating chart."""

import pytest

from league.names import player_display_name

from ratings.models import PlayerRating
from tests.browser import chromium_page, needs_chromium
from tests.ratings.conftest import new_game

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


@pytest.fixture
def played(season, season2, players, record):
    players[0].display_name, players[0].native_name = "Chan Tai Man With A Long Name", "陳大文"
    players[0].save()
    record(new_game(season, "A", 1, 1, players[:4]), [45000, 30000, 15000, 10000])
    record(new_game(season, "A", 2, 1, players[:4]), [20000, 40000, 30000, 10000])
    record(new_game(season2, "A", 1, 1, players[:4]), [38000, 32000, 20000, 10000])
    record(new_game(season2, "B", 1, 1, players[4:]), [25000, 25000, 25000, 25000])
    return players


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", ["en", "zh-Hant"])
def test_rating_table_and_player_chart(live_server, played, league, viewport, language):
    best = PlayerRating.objects.order_by("-ordinal").first()
    fewest = PlayerRating.objects.order_by("games", "-ordinal", "player_id").first()
    with chromium_page() as page:
        page.set_viewport_size(VIEWPORTS[viewport])
        page.set_extra_http_headers({"Accept-Language": "zh-Hant" if language == "zh-Hant" else "en"})
        page.goto(f"{live_server.url}/leagues/{league.slug}/ratings/")
        table = page.locator("#ratings")
        assert table.is_visible() and no_sideways_scroll(page)
        first = page.locator("#ratings tbody tr").first.inner_text()
        assert player_display_name(best.player, language) in first and f"{best.ordinal:.2f}" in first
        headings = page.locator("#ratings thead th")
        if language == "zh-Hant":
            assert "選手" in headings.nth(1).inner_text() and "場數" in headings.nth(3).inner_text()
            assert "測試聯賽" in page.inner_text("h1")
        else:
            assert page.locator("#how-ratings-work h2").inner_text() == "How ratings work"
            assert "μ − 3σ" in page.inner_text("#how-ratings-work")
        # μ and σ give way on a phone; the rating and the games stay
        assert headings.nth(4).is_visible() == (viewport == "desktop")
        assert page.locator("#ratings tbody tr").count() == 8
        headings.nth(3).locator("a").click()  # games, most first
        page.wait_for_url("**sort=games")
        headings.nth(3).locator("a").click()  # again: fewest first
        page.wait_for_url("**sort=-games")
        assert player_display_name(fewest.player, language) in page.locator("#ratings tbody tr").first.inner_text()

        page.locator("#ratings tbody tr", has_text=player_display_name(played[0], language)).locator("a").click()
        page.wait_for_url(f"**/players/{played[0].pk}/")
        chart = page.locator("svg.rating-chart")
        assert chart.is_visible()
        # the rating panel fits the screen (the page's older results table may scroll on its own)
        box = chart.bounding_box()
        assert box["x"] + box["width"] <= VIEWPORTS[viewport]["width"] and box["height"] > 100
        assert page.evaluate("""[...document.querySelectorAll('.player-rating, .player-rating svg *')]
                                .every(e => e.getBoundingClientRect().right <= window.innerWidth)""")
        assert chart.locator("circle").count() == 3
        if viewport == "phone":
            assert box["width"] >= 340  # the chart uses the phone's width
        rating = PlayerRating.objects.get(player=played[0])
        assert f"{rating.ordinal:.2f}" in page.inner_text(".rating-now")
        page.click(".rating-games summary")
        assert page.locator(".rating-games tbody tr").count() == 3
        assert page.evaluate("""[...document.querySelectorAll('.rating-games td')]
                                .every(e => e.getBoundingClientRect().right <= window.innerWidth)""")
        assert page.locator(".rating-games tbody tr").first.locator("td").nth(1).inner_text() == "1"
