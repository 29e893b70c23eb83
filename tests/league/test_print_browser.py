"""Print styles in a real browser (issue 11: "print styles for standings and for a game's score
sheet"): with print media emulated at A4's printable width, the navigation, forms, downloads and
action buttons are gone and the table is whole (no column hidden, nothing wider than the paper);
Chromium renders both pages to PDF."""

import re

import pytest

from league import services
from tests.browser import chromium_page, login, needs_chromium
from kyoku.principals import SYSTEM

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

# A4 is 210 mm wide; with 1 cm margins each side 190 mm are printable: 190 / 25.4 * 96 px.
A4_PRINTABLE = {"width": 718, "height": 1047}

OVERFLOW = """(sel) => {
  const table = document.querySelector(sel);
  const cells = [...table.querySelectorAll('th, td')];
  return {
    page: document.documentElement.scrollWidth, width: window.innerWidth,
    right: Math.max(...cells.map(c => c.getBoundingClientRect().right)),
    hidden: cells.filter(c => getComputedStyle(c).display === 'none').length,
    clipped: table.parentElement.scrollWidth - table.parentElement.clientWidth,
  };
}"""


def _visible(page, selector) -> bool:
    return any(page.locator(selector).nth(i).is_visible() for i in range(page.locator(selector).count()))


def _assert_printed_whole(page, table):
    for chrome in ("header.top", "nav", "form", "a.button", ".downloads"):
        assert not _visible(page, chrome), f"{chrome} is printed"
    assert page.locator(table).is_visible()
    box = page.evaluate(OVERFLOW, table)
    assert box["hidden"] == 0, box
    assert box["right"] <= box["width"] and box["page"] <= box["width"] and box["clipped"] <= 0, box


def _pdf_pages(page) -> int:
    pdf = page.pdf(
        format="A4", margin={"top": "1cm", "bottom": "1cm", "left": "1cm", "right": "1cm"}, print_background=False
    )
    assert pdf.startswith(b"%PDF-")
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def test_standings_print_whole_without_navigation(live_server, season, division_a, admin, players):
    for day, scores in ((1, [43000, 30800, 16000, 10200]), (2, [10200, 16000, 30800, 43000])):
        game = services.game_create(division=division_a, match_day=day, table=1, players=players[:4], actor=SYSTEM)
        services.game_result_record(game=game, scores=scores, actor=admin)
    with chromium_page() as page:
        page.set_viewport_size(A4_PRINTABLE)
        login(page, live_server, "admin", "admin-pw-123")
        page.goto(f"{live_server.url}/seasons/{season.pk}/divisions/A/")
        # on screen the page has its navigation, language form and downloads
        assert _visible(page, "header.top") and _visible(page, "form.lang") and _visible(page, ".downloads")
        page.emulate_media(media="print")
        _assert_printed_whole(page, "#standings")
        rows = page.locator("#standings tbody tr")
        assert rows.count() == 4 and "Player 1" in page.inner_text("#standings")
        assert page.locator("#standings thead th").count() == 10  # the 1st-4th columns too
        assert _pdf_pages(page) == 1


def test_game_score_sheet_prints_whole_without_actions(live_server, chombo_game):
    with chromium_page() as page:
        page.set_viewport_size(A4_PRINTABLE)
        login(page, live_server, "admin", "admin-pw-123")
        page.goto(f"{live_server.url}/games/{chombo_game.pk}/")
        assert _visible(page, "a.button")  # the admin's actions, on screen only
        page.emulate_media(media="print")
        _assert_printed_whole(page, "#game-seats")
        for i in range(page.locator("table.gp-deltas").count()):
            _assert_printed_whole(page, f"#game-hands > li:nth-child({i + 1}) table.gp-deltas")
        assert page.locator("#game-hands > li").count() == 2
        assert _pdf_pages(page) >= 1
