"""In Chromium, on a 390 px phone, in English, Traditional Chinese and Japanese: an admin uploads a
genuine Mahjong Soul record (tenhou.net/6 JSON) on the game's page of a season under the Mahjong
Soul preset, reads its room, mode and ranks in words, sees every hand agree, and imports it."""

import pytest
from django.utils import translation
from django.utils.translation import gettext

from league import services as league_services
from league.models import GameResult
from online.tenhou import parse_record
from tests.actors import open_season
from tests.browser import chromium_page, login, needs_chromium
from kyoku.principals import SYSTEM

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

RECORD = "mahjongsoul_silver_220419.json"
LANGUAGES = {"en": "en", "zh-Hant": "zh-hant", "ja": "ja"}


@pytest.fixture
def season(league, players):
    rules = league_services.rule_set_create(
        name="Mahjong Soul", slug="mahjongsoul", preset="mahjongsoul", is_template=True, actor=SYSTEM
    )
    return open_season(league, rules, players)


def words(language, text):
    with translation.override(LANGUAGES[language]):
        return gettext(text)


def test_upload_read_and_import_in_three_languages(live_server, game, players, admin, fixture_bytes, tmp_path):
    path = tmp_path / RECORD
    path.write_bytes(fixture_bytes(RECORD))
    record = parse_record(path.read_bytes())
    for player, account in zip(players[:4], record.account_ids):  # registered by their account ids
        player.mahjong_soul_id = account
        player.save(update_fields=["mahjong_soul_id"])
    with chromium_page() as page:
        page.set_viewport_size({"width": 390, "height": 844})
        login(page, live_server, "admin", "admin-pw-123")
        for language in LANGUAGES:
            page.set_extra_http_headers({"Accept-Language": language})
            page.goto(f"{live_server.url}/online/games/{game.pk}/import/")
            page.set_input_files("#online-upload input[type=file]", str(path))
            page.click("#online-upload button[type=submit]")
            page.wait_for_selector("#online-import")
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
            heading = page.inner_text(".online-import")
            for text in ("Silver room (銀の間)", "ranked room", "Adept", "Mahjong Soul name"):
                assert words(language, text) in heading, (language, text)
            verdict = "Settled under Mahjong Soul's rules, the rules it was played under, every hand and the final scores agree with the record."
            assert words(language, verdict) in page.inner_text("#online-verdict")
            assert page.locator(".online-hands tbody tr.ok").count() == len(record.hands) + 1
            if language != "ja":
                page.click("button[value=cancel]")
        page.click("button[value=import]")
        page.wait_for_url(f"**/games/{game.pk}/")
    assert GameResult.objects.get(game=game).scores == [9900, 61900, -700, 28900]
