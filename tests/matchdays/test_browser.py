"""In Chromium, phone and desktop, English and Traditional Chinese: an admin generates a match
day's seating, reviews the figures, swaps two players by hand (figures updated) and publishes;
the tables page and a table's printable sheet then show the published seating."""

import pytest

from league.names import player_display_name

from league.models import Game
from matchdays.models import SeatingPlan
from tests.browser import chromium_page, login, needs_chromium
from kyoku.principals import SYSTEM

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
WORDS = {
    "en": {
        "generate": "Generate seating",
        "swap": "Swap",
        "publish": "Publish",
        "east": "East",
        "repeats": "Repeat encounters this season",
    },
    "zh-Hant": {"generate": "編排座位", "swap": "對調", "publish": "公佈", "east": "東", "repeats": "本季重複對戰次數"},
}


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", WORDS)
def test_generate_review_swap_publish(live_server, day1, day2, admin, players, viewport, language):
    from django.utils import translation

    from matchdays import services

    if language != "en":
        with translation.override(language):
            if translation.gettext("Generate seating") == "Generate seating":
                # the catalogues are regenerated from locale/glossary.d/matchdays.json after merging
                pytest.skip("match-day strings not compiled into the catalogue yet (./scripts/i18n)")
    # day 1 already played as published: day 2 must repeat four pairs among eight players
    services.seating_publish(plan=services.seating_generate(match_day=day1, seed=4, actor=SYSTEM), actor=SYSTEM)
    words = WORDS[language]
    with chromium_page() as page:
        page.set_viewport_size(VIEWPORTS[viewport])
        page.set_extra_http_headers({"Accept-Language": language})
        login(page, live_server, "admin", "admin-pw-123")
        page.goto(f"{live_server.url}/matchdays/{day2.pk}/")
        page.click(f"#generate-form button:has-text('{words['generate']}')")
        page.wait_for_selector("#md-figures")
        assert words["repeats"] in page.inner_text("#md-figures")
        plan = SeatingPlan.objects.get(match_day=day2)
        assert page.inner_text("#fig-repeats") == str(plan.figures["repeats"]) == "4"
        assert page.locator("#md-tables .md-table").count() == 2
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

        # swap the East players of the two tables by hand
        a, b = plan.tables[0][0], plan.tables[1][0]
        page.select_option("#id_player_a", str(a))
        page.select_option("#id_player_b", str(b))
        page.click(f"#swap-form button:has-text('{words['swap']}')")
        page.wait_for_load_state()
        plan.refresh_from_db()
        assert plan.tables[0][0] == b and plan.tables[1][0] == a and plan.revision == 2
        assert page.inner_text("#fig-repeats") == str(plan.figures["repeats"])
        first_table = page.locator("#md-tables .md-table").first.inner_text()
        assert (
            words["east"] in first_table
            and player_display_name(players[[p.pk for p in players].index(b)], language) in first_table
        )

        page.click(f"#publish-form button:has-text('{words['publish']}')")
        page.wait_for_selector("#md-games")
        games = Game.objects.filter(division=day2.division, match_day=2).order_by("table")
        assert games.count() == 2
        assert list(games[0].seats.order_by("seat").values_list("player_id", flat=True)) == plan.tables[0]

        page.goto(f"{live_server.url}/matchdays/{day2.pk}/tables/1/sheet/")
        sheet = page.inner_text("#md-sheet")
        names = {p.pk: player_display_name(p, language) for p in players}
        assert all(names[p] in sheet for p in plan.tables[0])
        assert page.locator(".md-score-sheet tbody tr").count() == 24  # room for a long hanchan
