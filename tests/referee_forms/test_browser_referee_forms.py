"""In Chromium, on a 390 px phone and a desktop, in English and Traditional Chinese: an admin edits
the penalty catalogue as a table (adds a row with "Add a row", removes one, saves a new version);
a referee then confirms a ruling with an extra card chosen from that catalogue by its name."""

import pytest

from league.names import player_display_name

from league.models import Penalty
from referee.models import PenaltyCatalogue, Ruling
from tests.browser import chromium_page, login, needs_chromium

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", ["en", "zh-Hant"])
def test_catalogue_table_and_penalty_by_name(live_server, league, admin, referee, logged, players, viewport, language):
    zh = language == "zh-Hant"
    errors = []
    with chromium_page() as page:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_viewport_size(VIEWPORTS[viewport])
        page.set_extra_http_headers({"Accept-Language": "zh-Hant" if zh else "en"})
        login(page, live_server, "admin", "admin-pw-123")
        page.goto(f"{live_server.url}/referee/leagues/{league.pk}/catalogue/")
        assert page.locator("html").get_attribute("lang") == ("zh-hant" if zh else "en")
        rows = page.locator("#catalogue-form .formset-rows tr")
        before = rows.count()
        assert before == 8  # the 7 default offences and one empty row
        assert no_sideways_scroll(page)
        page.click("#catalogue-form .formset-add")
        assert rows.count() == before + 1
        new = rows.nth(before)
        new.locator("input[name$='-code']").fill("phone_at_table")
        new.locator("input[name$='-description']").fill("Phone at the table")
        new.locator("input[name$='-description_zh']").fill("對局中使用手機")
        new.locator("select[name$='-sanction']").select_option("yellow_card")
        new.locator("input[name$='-clauses']").fill("5")
        # remove "unsportsmanlike" by ticking its Remove box
        row = page.locator("#catalogue-form .formset-rows tr", has=page.locator("input[value='unsportsmanlike']"))
        row.locator("input[name$='-DELETE']").check()
        page.fill("input[name=version]", "2026.2")
        with page.expect_navigation():
            page.click("#catalogue-save")
        latest = PenaltyCatalogue.objects.filter(league=league).order_by("-version").first()
        assert latest.version == 2 and latest.data["version"] == "2026.2"
        assert "phone_at_table" in latest.data["offences"] and "unsportsmanlike" not in latest.data["offences"]
        listed = page.locator("#catalogue-offences tbody").inner_text()
        assert ("對局中使用手機" if zh else "Phone at the table") in listed
        assert no_sideways_scroll(page)

        page.context.clear_cookies()
        login(page, live_server, "referee", "referee-pw-123")
        page.goto(f"{live_server.url}/referee/incidents/{logged.pk}/")
        assert page.locator("#decide-form").is_visible() and no_sideways_scroll(page)
        # chosen by what the referee reads: the seat with its player's name, the offence by its name
        # dealer seat 0: seat 3 is North this hand (seed 003 names players by their wind in the hand)
        name = player_display_name(players[3], "zh-hant" if zh else "en")  # one name per person
        north = f"北家({name})" if zh else f"North ({name})"
        page.select_option("select[name=extra-0-seat]", label=north)
        page.select_option("select[name=extra-0-offence]", label="對局中使用手機" if zh else "Phone at the table")
        with page.expect_navigation():
            page.click("#confirm-button")
        ruling = Ruling.objects.get()
        extra = Penalty.objects.get(ruling=ruling, offence="phone_at_table")
        assert extra.player == players[3] and extra.sanction == "yellow_card"
        shown = page.locator(f"#ruling-{ruling.pk} table.penalties").inner_text()
        assert ("對局中使用手機" if zh else "Phone at the table") in shown
        assert no_sideways_scroll(page)
    assert not errors, errors
