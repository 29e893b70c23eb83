"""In a real browser (Debian's Chromium through Playwright): the scorekeeper previews a hand's
payments and running scores, stores it once on a double tap, and finishes the game."""

import pytest

from league.models import GameResult
from scoring.models import HandRecord
from tests.browser import chromium_page, login, needs_chromium

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def tap(page, role, seat):
    page.click(f'.sk-group[data-role="{role}"] .sk-seat[data-seat="{seat}"]')


def test_preview_double_tap_save_and_finish(live_server, game, admin):
    errors = []
    with chromium_page() as page:
        page.set_viewport_size({"width": 390, "height": 844})  # a phone
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        login(page, live_server, "admin", "admin-pw-123")
        page.goto(f"{live_server.url}/scoring/games/{game.pk}/scorekeeper/")
        page.click('.sk-btn[data-type="ron"]')
        tap(page, "winners", 1)
        tap(page, "from", 2)
        tap(page, "riichi", 1)
        page.select_option('.sk-value[data-seat="1"] select[name=han]', "3")
        page.select_option('.sk-value[data-seat="1"] select[name=fu]', "30")
        # non-dealer ron 3 han 30 fu = 3,900 from seat 2; seat 1's riichi stick comes back
        page.wait_for_selector("#sk-save:not([disabled])")
        assert "3,900" in page.inner_text("#sk-payments")
        assert page.inner_text('#sk-scores tr[data-seat="1"] .sk-after') == "28,900"
        assert page.inner_text('#sk-scores tr[data-seat="2"] .sk-after') == "21,100"
        assert HandRecord.objects.count() == 0
        page.dblclick("#sk-save")
        page.wait_for_selector('#scorekeeper[data-sequence="2"]')
        assert HandRecord.objects.count() == 1
        hand = HandRecord.objects.get()
        assert hand.settlement["deltas"] == [0, 3900, -3900, 0] and hand.scores_after == [25000, 28900, 21100, 25000]
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#sk-finish")
        page.wait_for_selector("text=This game is finished")
    assert GameResult.objects.get(game=game).scores == [25000, 28900, 21100, 25000]
    assert errors == []
