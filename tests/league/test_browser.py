"""In a real browser: the standings page, and entering a result through the form."""

import pytest

from league import services
from league.models import GameResult
from tests.browser import chromium_page, login, needs_chromium
from kyoku.principals import SYSTEM

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def test_standings_then_enter_result_through_the_form(live_server, game, admin, players):
    other = services.game_create(division=game.division, match_day=2, table=1, players=players[:4], actor=SYSTEM)
    services.game_result_record(game=other, scores=[43000, 30800, 16000, 10200], actor=admin)
    services.standings_recompute(division=game.division)
    with chromium_page() as page:
        page.goto(f"{live_server.url}/seasons/{game.season_id}/divisions/A/")
        first_row = page.locator("#standings tbody tr").first
        assert "Player 1" in first_row.inner_text() and "63.0" in first_row.inner_text()
        page.click("text=4th")  # sort by most 4th places
        assert "Player 4" in page.locator("#standings tbody tr").first.inner_text()

        login(page, live_server, "admin", "admin-pw-123")
        page.goto(f"{live_server.url}/games/{game.pk}/result/")
        for seat, score in enumerate([10200, 16000, 30800, 42900]):
            page.fill(f"input[name=score_{seat}]", str(score))
        assert "≠ 100000" in page.inner_text("#sum-check")  # inline check: 99,900 is 100 short
        assert page.is_disabled("#save-result")
        page.fill("input[name=score_3]", "43000")
        assert "✓" in page.inner_text("#sum-check")
        page.click("#save-result")
        page.wait_for_url(f"**/games/{game.pk}/")
        assert "63.0" in page.inner_text("#game-seats")
    assert GameResult.objects.get(game=game).points == [-49.8, -24.0, 10.8, 63.0]
