"""In a real browser, on a phone and on a desktop, in English and Traditional Chinese: the rules
page shows every riichi option in words with its source, and a league admin previews a revision
through the typed form (which options change, how many hands and results) before saving it."""

import pytest

from tests.browser import chromium_page, login, needs_chromium

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
WORDS = {
    "en": {
        "kiriage": "Kiriage mangan",
        "uma": "Uma",
        "honba": "Value of a honba",
        "yes": "yes",
        "preview": "Preview the changes",
        "changes": "What this revision changes",
        "counts": "5 hands will be settled again and 1 results re-scored",
    },
    "zh-Hant": {
        "kiriage": "切上滿貫",
        "uma": "順位馬",
        "honba": "每本場點數",
        "yes": "是",
        "preview": "預覽改動",
        "changes": "此修訂會改變甚麼",
        "counts": None,
    },
}


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_rules_page_and_revision_preview_on_phone_and_desktop(live_server, finished, season, lang):
    words = WORDS[lang]
    with chromium_page() as page:
        page.set_extra_http_headers({"Accept-Language": lang})
        login(page, live_server, "admin", "admin-pw-123")
        for viewport in (PHONE, DESKTOP):
            page.set_viewport_size(viewport)
            page.goto(f"{live_server.url}/scoring/rules/")
            kiriage = page.locator("#riichi-options #option-kiriage")
            assert words["kiriage"] in kiriage.inner_text()
            assert "worldriichi.org" in page.inner_text("#riichi-options")
            # the page itself never scrolls sideways; only the wide table scrolls in its box
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

            page.goto(f"{live_server.url}/scoring/seasons/{season.pk}/rules/")
            assert words["uma"] in page.inner_text("#field-uma")
            page.fill("input[name=uma]", "20 / 10 / -10 / -20")
            page.fill("input[name=honba_points]", "1500")
            page.click("#rules-form button[name=preview]")
            page.wait_for_selector("#rules-preview")
            shown = page.inner_text("#rules-preview")
            assert words["changes"] in shown and words["uma"] in shown and words["honba"] in shown
            assert "+20 / +10 / −10 / −20" in shown
            if words["counts"]:
                assert words["counts"] in shown
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            # the preview keeps what was typed, so saving stores exactly what was previewed
            assert page.input_value("input[name=uma]") == "20 / 10 / -10 / -20"
        page.click("#rules-form button[name=save]")
        page.wait_for_load_state()
    season.refresh_from_db()
    assert season.rule_set.version == 2
    assert season.rule_set.overrides == {"uma": [20, 10, -10, -20], "honba_points": 1500}
