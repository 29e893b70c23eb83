"""The scorekeeper page, its API answers in the page's language, the game page that explains
its hands, the error pages and the favicon (server side; the browser tests are test_browser.py)."""

import json
import re

import pytest
from rest_framework.test import APIClient

from league.models import GameResult
from scoring.models import HandRecord

HANDS_URL = "/api/games/{}/hands/"
SEATS = "Player 1", "Player 2", "Player 3", "Player 4"


def api_for(user, lang):
    client = APIClient(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_authenticate(user)
    return client


def visible_text(html: str) -> str:
    html = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", html)
    return " ".join(re.sub(r"(?s)<[^>]+>", " ", html).split())


# ---------------------------------------------------------------- result kinds the rules allow


def test_no_abortive_draw_where_the_rules_have_none(client_for, admin, wrc_game):
    page = client_for(admin).get(f"/scoring/games/{wrc_game.pk}/scorekeeper/").content.decode()
    kinds = re.findall(r'data-type="(\w+)"', page)
    assert kinds == ["ron", "tsumo", "draw", "chombo"]
    assert 'name="reason"' not in page


@pytest.mark.parametrize("lang, reason", [("en", "Four riichi declarations"), ("zh-hant", "四家立直")])
def test_abortive_draw_offered_with_the_reasons_the_rules_allow(client_for, admin, game, lang, reason):
    page = client_for(admin, lang).get(f"/scoring/games/{game.pk}/scorekeeper/").content.decode()
    assert re.findall(r'data-type="(\w+)"', page) == ["ron", "tsumo", "draw", "abortive", "chombo"]
    reasons = re.search(r'(?s)<select name="reason".*?</select>', page).group(0)
    assert re.findall(r'<option value="(\w+)">', reasons) == [
        "nine_terminals",
        "four_winds",
        "four_riichi",
        "four_kans",
    ]
    assert reason in page and "triple_ron" not in page


def test_zh_hant_scorekeeper_shows_no_raw_codes(client_for, admin, finished):
    page = client_for(admin, "zh-hant").get(f"/scoring/games/{finished.pk}/scorekeeper/").content.decode()
    text = visible_text(page)
    assert "榮和" in text or "和" in text
    for code in ("ron", "tsumo", "draw", "chombo", "abortive"):
        assert not re.search(rf"\b{code}\b", text), code


# ---------------------------------------------------------------- API answers translated


def test_engine_error_in_the_page_language(game, admin):
    own_discard = {"result": {"type": "ron", "from": 1, "winners": [{"seat": 1, "han": 2, "fu": 30}]}}
    en = api_for(admin, "en").post(HANDS_URL.format(game.pk) + "preview/", {"record": own_discard}, format="json")
    zh = api_for(admin, "zh-hant").post(HANDS_URL.format(game.pk) + "preview/", {"record": own_discard}, format="json")
    assert en.status_code == zh.status_code == 400
    assert en.json()["errors"] == {"result.winners[0].seat": ["the winner cannot win on their own discard"]}
    assert zh.json()["errors"] == {"result.winners[0].seat": ["和了者不能榮和自己打出的牌"]}
    bad_fu = {"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 1, "fu": 20}]}}
    zh = api_for(admin, "zh-hant").post(HANDS_URL.format(game.pk), {"record": bad_fu}, format="json")
    assert zh.status_code == 400 and zh.json()["errors"]["result.winners[0].fu"] == [
        "20符只可能是自摸（平和自摸）；榮和至少30符"
    ]
    assert HandRecord.objects.count() == 0


def test_abortive_refused_under_rules_without_them_in_chinese(wrc_game, admin):
    record = {"result": {"type": "abortive", "reason": "four_winds"}}
    zh = api_for(admin, "zh-hant").post(HANDS_URL.format(wrc_game.pk) + "preview/", {"record": record}, format="json")
    assert zh.status_code == 400 and zh.json()["errors"] == {"result.type": ["此規則不設途中流局"]}


def test_conflict_stays_409_and_is_translated(game, admin):
    client = api_for(admin, "zh-hant")
    ron = {"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 2, "fu": 30}]}}
    assert client.post(HANDS_URL.format(game.pk), {"record": ron, "sequence": 1}, format="json").status_code == 201
    draw = {"result": {"type": "draw", "tenpai": []}}
    clash = client.post(HANDS_URL.format(game.pk), {"record": draw, "sequence": 1}, format="json")
    assert clash.status_code == 409
    assert clash.json()["errors"]["sequence"] == ["第1局已用不同的紀錄輸入；如需更改請明確修正"]
    assert HandRecord.objects.count() == 1


def test_preview_payments_in_words(game, admin):
    record = {"riichi": [1], "result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 3, "fu": 30}]}}
    en = api_for(admin, "en").post(HANDS_URL.format(game.pk) + "preview/", {"record": record}, format="json").json()
    assert en["display"]["payments"] == [
        {"from": "Player 2", "to": "the table", "points": 1000, "why": "riichi stick"},
        {"from": "Player 3", "to": "Player 2", "points": 3900, "why": "Ron 3 han 30 fu"},
        {"from": "the table", "to": "Player 2", "points": 1000, "why": "riichi sticks on the table"},
    ]
    zh = (
        api_for(admin, "zh-hant").post(HANDS_URL.format(game.pk) + "preview/", {"record": record}, format="json").json()
    )
    # a Chinese answer names each seat in native script (league.names), as the pages do
    assert zh["display"]["payments"][0] == {"from": "選手2", "to": "枱面", "points": 1000, "why": "立直棒"}
    assert "3番" in zh["display"]["payments"][1]["why"] and "30符" in zh["display"]["payments"][1]["why"]
    assert zh["display"]["winners"] == [{"seat": "選手2", "value": "3番30符", "points": 3900}]


# ---------------------------------------------------------------- correcting a finished game


def test_finished_game_offers_correction_of_any_hand(client_for, admin, finished):
    page = client_for(admin).get(f"/scoring/games/{finished.pk}/scorekeeper/").content.decode()
    assert "This game is finished" in page and 'id="sk-form"' not in page
    assert [int(n) for n in re.findall(r'href="\?correct=(\d+)"', page)] == [1, 2, 3, 4, 5]
    page = client_for(admin).get(f"/scoring/games/{finished.pk}/scorekeeper/?correct=2").content.decode()
    assert 'id="sk-form"' in page and 'data-correct="2"' in page and "Correct hand 2" in page
    record = json.loads(re.search(r'<script id="sk-record" type="application/json">(.*?)</script>', page).group(1))
    assert record["result"] == {"type": "ron", "from": 2, "winners": [{"seat": 3, "han": 3, "fu": 30}]}
    # the scores shown are those before hand 2 (after hand 1), the hand settled from there
    assert re.findall(r'sk-now-score">([\d,]+)<', page) == ["26,500", "25,500", "23,500", "23,500"]
    assert 'data-sequence="2"' in page
    out_of_range = client_for(admin).get(f"/scoring/games/{finished.pk}/scorekeeper/?correct=9").content.decode()
    assert "data-correct" not in out_of_range


def test_correcting_a_finished_games_hand_rederives_the_result(finished, admin):
    four_han = {"result": {"type": "ron", "from": 2, "winners": [{"seat": 3, "han": 4, "fu": 30}]}}
    client = api_for(admin, "en")
    response = client.put(
        HANDS_URL.format(finished.pk) + "2/", {"record": four_han}, format="json", HTTP_IDEMPOTENCY_KEY="fix-2"
    )
    assert response.status_code == 200
    # 4 han 30 fu is 8,000 under M.League's kiriage (切り上げ満貫), + 300 honba + 1 stick
    assert HandRecord.objects.get(game=finished, sequence=2).settlement["deltas"] == [0, 0, -8300, 9300]
    result = GameResult.objects.get(game=finished)
    assert result.scores == [23800, 27800, 14300, 33100]
    assert [float(p) for p in result.points] == [-16.2, 7.8, -45.7, 54.1]
    again = client.put(
        HANDS_URL.format(finished.pk) + "2/", {"record": four_han}, format="json", HTTP_IDEMPOTENCY_KEY="fix-2"
    )
    assert again["Idempotent-Replayed"] == "true"


# ---------------------------------------------------------------- the game page explains


def test_game_page_explains_each_hand(client_for, finished):
    page = client_for().get(f"/games/{finished.pk}/").content.decode()
    season = finished.season
    assert f'href="/seasons/{season.pk}/"' in page and f'href="/seasons/{season.pk}/divisions/A/"' in page
    hands = re.findall(
        r'(?s)<li class="gp-hand card" data-sequence="(\d)">(.*?)</li>\s*(?=<li class="gp-hand|</ol>)', page
    )
    assert [n for n, _ in hands] == ["1", "2", "3", "4", "5"]
    hand2 = visible_text(hands[1][1])
    assert "Ron" in hand2 and "Player 4 won on Player 3's discard" in hand2 and "3 han 30 fu" in hand2
    assert "Player 3 → Player 4: 3,900" in hand2 and "Player 3 → Player 4: 300" in hand2 and "1 honba" in hand2
    assert "the table → Player 4: 1,000" in hand2  # the riichi stick left by hand 1
    assert "−4,200" in hand2 and "+5,200" in hand2
    hand1 = visible_text(hands[0][1])
    assert "Exhaustive draw" in hand1 and "Riichi: Player 2" in hand1 and "Ready (tenpai): Player 1, Player 2" in hand1
    assert "Player 3 → Player 1: 1,500 (no-ten payment)" in hand1 and "Player 4 → Player 2: 1,500" in hand1
    hand3 = visible_text(hands[2][1])
    assert "Player 2 won: 2 han 40 fu" in hand3 and "Player 1 → Player 2: 1,300" in hand3  # a dealer tsumo: 1300 all
    # final scores and league points
    seats = re.search(r'(?s)<table class="grid" id="game-seats">(.*?)</table>', page).group(1)
    assert "29,000" in seats and "50.0" in seats and "−41.6" in seats  # one way to show numbers
    assert "scorekeeper" not in page  # not for the public


def test_game_page_in_chinese_shows_no_codes(client_for, finished, admin):
    page = client_for(admin, "zh-hant").get(f"/games/{finished.pk}/").content.decode()
    text = visible_text(page)
    assert "3番30符" in text and "本場" in text and "終局點數" in text and "聯賽積分" in text
    for code in ("ron", "tsumo", "draw", "noten", "honba"):
        assert not re.search(rf"\b{code}\b", text), code
    assert f"/scoring/games/{finished.pk}/scorekeeper/" in page


# ---------------------------------------------------------------- error pages and favicon


@pytest.mark.parametrize("lang, words", [("en", "Page not found"), ("zh-hant", "找不到此頁")])
def test_404_page_is_styled_and_translated(client_for, db, lang, words):
    response = client_for(lang=lang).get("/games/999999/")
    assert response.status_code == 404
    page = response.content.decode()
    assert words in page and "kyoku.css" in page and 'id="error-page"' in page and f'lang="{lang}"' in page


@pytest.mark.parametrize("lang, words", [("en", "You may not open this page"), ("zh-hant", "你不可以開啟這一頁")])
def test_403_page_is_styled_and_translated(client_for, outsider, game, lang, words):
    response = client_for(outsider, lang).get(f"/scoring/games/{game.pk}/scorekeeper/")
    assert response.status_code == 403
    page = response.content.decode()
    assert words in page and "kyoku.css" in page and 'id="error-page"' in page


def test_500_page_renders_without_a_request(db):
    from django.template.loader import render_to_string
    from django.utils import translation

    with translation.override("zh-hant"):
        page = render_to_string("500.html")
    assert "我們這邊出了問題" in page and "kyoku.css" in page


def test_favicon(client_for, db):
    response = client_for().get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    body = b"".join(response.streaming_content)
    assert body[:4] == b"\x00\x00\x01\x00" and body.count(b"\x89PNG") == 3
    assert "favicon.svg" in client_for().get("/").content.decode()
