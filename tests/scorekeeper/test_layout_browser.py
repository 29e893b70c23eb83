"""Layout in Chromium: no word is broken across lines in the scorekeeper's and the game page's
tables and buttons on a phone ("Exhaustiv e draw" was), and the penalty catalogue's edit table fits
its card on a 1,280 px desktop (its last column was cut off)."""

import pytest

from tests.browser import chromium_page, login, needs_chromium

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

PHONES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]

# Latin words of three letters or more whose text spans more than one line box
BROKEN_WORDS = """(() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector("main") || document.body, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const words = /[A-Za-z]{3,}/g;
    let m;
    while ((m = words.exec(node.textContent))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
})()"""


def words_broken_on(live_server, url: str, size: dict) -> tuple[list[str], str]:
    with chromium_page() as page:
        page.set_viewport_size(size)
        login(page, live_server, "admin", "admin-pw-123")
        page.goto(f"{live_server.url}{url}")
        return page.evaluate(BROKEN_WORDS), page.inner_text("main")


@pytest.mark.parametrize("size", PHONES, ids=["390", "360"])
def test_scorekeeper_keeps_words_whole_on_a_phone(live_server, finished, admin, size):
    broken, text = words_broken_on(live_server, f"/scoring/games/{finished.pk}/scorekeeper/", size)
    assert "Exhaustive draw" in text  # the hands of tests/riichi_game.py include draws
    assert broken == []


@pytest.mark.parametrize("size", PHONES, ids=["390", "360"])
def test_game_page_keeps_words_whole_on_a_phone(live_server, finished, admin, size):
    broken, text = words_broken_on(live_server, f"/games/{finished.pk}/", size)
    assert "Exhaustive draw" in text
    assert broken == []


def test_catalogue_edit_table_fits_its_card_at_1280(live_server, league, admin):
    with chromium_page() as page:
        page.set_viewport_size({"width": 1280, "height": 900})
        login(page, live_server, "admin", "admin-pw-123")
        page.goto(f"{live_server.url}/referee/leagues/{league.pk}/catalogue/")
        box = page.evaluate("""(() => {
          const card = document.querySelector('#catalogue-form').getBoundingClientRect();
          const scroll = document.querySelector('#catalogue-form .table-scroll');
          const last = scroll.querySelector('thead th:last-child').getBoundingClientRect();
          return {card: card.right, last: last.right, scroll: scroll.scrollWidth, shown: scroll.clientWidth};
        })()""")
    assert box["scroll"] <= box["shown"] + 1  # nothing to scroll sideways inside the card
    assert box["last"] <= box["card"]  # the Remove column is inside the card
