"""In Chromium, on a 390 px phone and a desktop, in English and Traditional Chinese: an admin
uploads a real Tenhou record on the game's page, names the unknown player, sees every hand agree
and imports it; a player attaches records to an application and sees what they prove."""

import pytest
from django.utils import translation
from django.utils.translation import gettext

from league import services as league_services
from league.models import GameResult, QualificationTier
from online.models import OnlineAccount
from online.tenhou import parse_record
from tests.actors import make_player_user
from tests.browser import chromium_page, login, needs_chromium
from kyoku.principals import SYSTEM

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
RECORD = "2020052221gm-00a9-0000-6f0524c7.mjlog"


def words(language, text):
    with translation.override("zh-hant" if language == "zh-Hant" else "en"):
        return gettext(text)


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def open_page(page, viewport, language):
    page.set_viewport_size(VIEWPORTS[viewport])
    page.set_extra_http_headers({"Accept-Language": "zh-Hant" if language == "zh-Hant" else "en"})


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", ["en", "zh-Hant"])
def test_upload_mapping_import(live_server, game, players, admin, viewport, language, fixture_bytes, tmp_path):
    path = tmp_path / RECORD
    path.write_bytes(fixture_bytes(RECORD))
    names = parse_record(path.read_bytes()).names
    for p, n in zip(players[:3], names[:3]):
        OnlineAccount.objects.create(player=p, account_name=n)
    with chromium_page() as page:
        open_page(page, viewport, language)
        login(page, live_server, "admin", "admin-pw-123")
        page.goto(f"{live_server.url}/games/{game.pk}/")
        page.get_by_role("link", name=words(language, "Import a Tenhou record")).click()
        page.set_input_files("#online-upload input[type=file]", str(path))
        page.click("#online-upload button[type=submit]")
        page.wait_for_selector("#online-import")
        assert no_sideways_scroll(page)
        assert words(
            language,
            "Settled under Tenhou's rules, the rules it was played under, every hand and the final scores agree with the record.",
        ) in page.inner_text("#online-verdict")
        assert page.locator(".online-hands tbody tr.ok").count() == 13  # 12 hands + the final scores
        # the fourth name is unknown: choose its player
        page.select_option("#player_3", str(players[3].pk))
        page.click("button[value=import]")
        page.wait_for_url(f"**/games/{game.pk}/")
    assert GameResult.objects.get(game=game).scores == [37700, 23200, 22900, 16200]
    assert OnlineAccount.objects.get(account_name=names[3]).player == players[3]


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", ["en", "zh-Hant"])
def test_evidence_check(live_server, league, tenhou_rules, players, viewport, language, fixture_bytes, tmp_path):
    account = parse_record(fixture_bytes(RECORD)).names[0]
    season = league_services.season_create(league=league, year=2020, number=3, rule_set=tenhou_rules, actor=SYSTEM)
    league_services.season_status_set(season=season, status="open", actor=SYSTEM)
    tier = QualificationTier.objects.create(
        league=league,
        code="1A",
        description="Tenhou 7-dan, 40 Phoenix games",
        effective_year=2020,
        validity="yearly",
        requirements={"accounts": [{"platform": "tenhou", "min_games_in_year": 1, "min_room": "phoenix"}]},
    )
    make_player_user("applicant", players[0])
    application = league_services.application_submit(
        player=players[0],
        season=season,
        tier=tier,
        evidence={
            "platform": "tenhou",
            "account_id": account,
            "games_in_year": 1,
            "room": "phoenix",
            "evidence_year": 2020,
        },
        actor=SYSTEM,
    )
    paths = []
    for name in (RECORD, "2018040923gm-00a9-0000-1833afca.mjlog"):
        (tmp_path / name).write_bytes(fixture_bytes(name))
        paths.append(str(tmp_path / name))
    with chromium_page() as page:
        open_page(page, viewport, language)
        login(page, live_server, "applicant", "applicant-pw-123")
        page.goto(f"{live_server.url}/me/")
        page.get_by_role("link", name=words(language, "Game records")).first.click()
        page.wait_for_url(f"**/online/applications/{application.pk}/records/")
        page.set_input_files("#evidence-upload input[type=file]", paths)
        page.click("#evidence-upload button[type=submit]")
        page.wait_for_selector(".online-records tbody tr >> nth=1")
        assert no_sideways_scroll(page)
        verdict = page.inner_text("#evidence-verdict")
        assert "2020" in verdict and "1" in verdict
        assert page.locator("#evidence-verdict.ok").count() == 1
        rows = page.locator(".online-records tbody tr")
        assert "2020-05-22" in rows.nth(1).inner_text() or "2020-05-22" in rows.nth(0).inner_text()
        assert words(language, "account not in this game") in page.inner_text(".online-records")
