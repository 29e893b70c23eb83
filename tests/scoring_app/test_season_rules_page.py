"""The season rules page: anyone reads the options in force and the versions; a league admin
revises them (the season is re-settled); the others may not. English and Traditional Chinese;
the revision is also driven in a real browser."""

import pytest
from django.test import Client

from league.models import GameResult
from scoring.models import HandRecord
from tests.browser import chromium_page, login, needs_chromium

from .test_season_resettle import REVISED_RUNNING

LANGS = ["en", "zh-hant"]


def page_of(season, user=None, lang="en", data=None):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        client.force_login(user)
    url = f"/scoring/seasons/{season.pk}/rules/"
    return client.post(url, data) if data is not None else client.get(url)


@pytest.mark.parametrize("lang", LANGS)
def test_anyone_reads_the_rules_in_force(season, lang):
    response = page_of(season, lang=lang)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'lang="{lang}"' in page and "honba_points" in page and "M.League" in page  # the preset's name
    assert 'id="rules-form"' not in page


@pytest.mark.parametrize("lang", LANGS)
def test_admin_revises_and_the_season_is_resettled(finished, season, admin, lang):
    form = page_of(season, admin, lang).content.decode()
    assert 'id="rules-form"' in form
    assert ("修訂規則" if lang == "zh-hant" else "Revise the rules") in form
    response = page_of(
        season, admin, lang, {"overrides": '{"honba_points": 1500, "uma": [20, 10, -10, -20]}', "notes": "AGM 2026"}
    )
    assert response.status_code == 302
    assert [h.scores_after for h in HandRecord.objects.order_by("sequence")] == REVISED_RUNNING
    assert GameResult.objects.get(game=finished).points == [-16.6, 7.4, -31.6, 40.8]
    page = page_of(season, admin, lang).content.decode()
    assert "AGM 2026" in page and "1,500" in page


@pytest.mark.parametrize("lang, says", [("en", "only game-end options changed"), ("zh-hant", "只改了終局選項")])
def test_an_uma_revision_says_the_hands_stand(finished, season, admin, lang, says):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(admin)
    response = client.post(
        f"/scoring/seasons/{season.pk}/rules/", {"overrides": '{"uma": [20, 10, -10, -20]}', "notes": ""}, follow=True
    )
    assert says in response.content.decode()
    assert GameResult.objects.get(game=finished).points == [-16.2, 7.8, -31.6, 40.0]


def test_a_bad_option_is_shown_on_the_form_and_changes_nothing(finished, season, admin):
    response = page_of(season, admin, data={"overrides": '{"honba_points": -1}', "notes": ""})
    assert response.status_code == 200
    assert "honba_points" in response.context["form"].non_field_errors()[0]
    season.refresh_from_db()
    assert season.rule_set.version == 1
    response = page_of(season, admin, data={"overrides": "[1, 2]", "notes": ""})
    assert response.context["form"].errors["overrides"]


@pytest.mark.parametrize("who", ["member", "referee", "outsider"])
def test_only_a_league_admin_may_revise(season, request, who):
    user = request.getfixturevalue(who)
    assert page_of(season, user, data={"overrides": '{"kiriage": true}'}).status_code == 403
    season.refresh_from_db()
    assert season.rule_set.version == 1


def test_anonymous_is_refused_too(season):
    assert page_of(season, data={"overrides": '{"kiriage": true}'}).status_code == 403


@pytest.mark.browser
@needs_chromium
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "size, lang, preview_says",
    [
        ({"width": 390, "height": 844}, "en", "5 hands will be settled again"),
        ({"width": 1280, "height": 900}, "zh-hant", "將重新結算 5 手牌"),
    ],
)
def test_revision_in_the_browser(live_server, finished, season, size, lang, preview_says):
    """The typed form on a phone and a desktop: change uma and honba, preview, then save."""
    with chromium_page() as page:
        page.set_viewport_size(size)
        page.set_extra_http_headers({"Accept-Language": lang})
        login(page, live_server, "admin", "admin-pw-123")
        page.goto(f"{live_server.url}/seasons/{season.pk}/")
        page.click(f'a[href="/scoring/seasons/{season.pk}/rules/"]')
        page.fill("#rules-form input[name=uma]", "20 / 10 / -10 / -20")
        page.fill("#rules-form input[name=honba_points]", "1500")
        page.fill("#rules-form input[name=notes]", "AGM 2026")
        page.click("#rules-form button[name=preview]")
        page.wait_for_selector("#rules-preview")
        assert preview_says in page.inner_text("#rules-preview")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        page.click("#rules-form button[name=save]")
        page.wait_for_selector(".msg")
        assert page.inner_text("#versions tbody tr:first-child td:first-child") == "2"
    assert [h.scores_after for h in HandRecord.objects.order_by("sequence")] == REVISED_RUNNING
