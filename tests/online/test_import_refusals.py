"""A Mahjong Soul record that is wrong is refused on import, in words naming what is wrong, in the
reader's language, and nothing is stored: a hand's payments that the scores do not follow, a fifth
name, a tile code that is no tile, a yaku whose han cannot be read, an east label on a game that
went on into South. The genuine Throne Room game (fixtures README) is the record mutated."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from league import services as league_services
from kyoku.principals import SYSTEM
from online.models import GameImport, OnlineAccount
from scoring.models import HandRecord
from tests.actors import open_season

from .conftest import FIXTURES

THRONE = "mahjongsoul_throne_220602.json"


@pytest.fixture
def season(league, players):
    rules = league_services.rule_set_create(
        name="Mahjong Soul", slug="mahjongsoul", preset="mahjongsoul", is_template=True, actor=SYSTEM
    )
    return open_season(league, rules, players)


def throne():
    return json.loads((FIXTURES / THRONE).read_text(encoding="utf-8"))


def deltas_plus_100(doc):
    doc["log"][4][16][1][2] += 100  # East 3's mangan tsumo: seat 2 written +13,100


def fifth_name(doc):
    doc["name"].append("ghost")


def tile_54(doc):
    doc["log"][4][4][0] = 54


def unknown_yaku(doc):
    doc["log"][0][16][2].append("Nonsense")


def relabelled_east(doc):
    doc["rule"]["disp"] = doc["title"][0] = "王座の間東喰赤"


CASES = [
    (deltas_plus_100, "en", ["East 3, 0 honba", "+13,100", "+13,000"]),
    (deltas_plus_100, "ja", ["東3局 0本場", "+13,100", "+13,000"]),
    (deltas_plus_100, "zh-hant", ["東3局 0本場", "+13,100"]),
    (fifth_name, "en", ["The record names 5 players; a league game has four."]),
    (fifth_name, "ja", ["5 人"]),
    (tile_54, "en", ["Hand 5 of the record holds 54, which is no tile"]),
    (tile_54, "ja", ["54"]),
    (unknown_yaku, "en", ["East 1, 0 honba", "'Nonsense'", "han cannot be read"]),
    (unknown_yaku, "ja", ["'Nonsense'", "翻"]),
    (relabelled_east, "en", ["labelled an east-only game", "South 1, 1 honba"]),
    (relabelled_east, "ja", ["東風戦", "南1局 1本場"]),
]


@pytest.mark.parametrize("change, lang, said", CASES)
def test_a_wrong_record_is_refused_in_words_and_nothing_is_stored(game, admin, as_user, change, lang, said):
    doc = throne()
    change(doc)
    body = {"file": SimpleUploadedFile("throne.json", json.dumps(doc, ensure_ascii=False).encode())}
    response = as_user(admin).post(f"/api/games/{game.pk}/import/", body, format="multipart", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 400
    message = response.json()["errors"]["file"][0]
    for words in said:
        assert words in message, (lang, message)
    if lang != "en":
        assert "the record" not in message and "Not a Tenhou" not in message, message
    assert not HandRecord.objects.filter(game=game).exists()
    assert not GameImport.objects.filter(game=game).exists()


def test_the_genuine_throne_game_is_not_refused_for_its_riichi_stick_quirk(game, admin, as_user):
    body = {"file": SimpleUploadedFile(THRONE, (FIXTURES / THRONE).read_bytes())}
    response = as_user(admin).post(f"/api/games/{game.pk}/import/", body, format="multipart")
    # its names are nobody's in this league: the import asks for them, it does not refuse the record
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["mapping"]


# ------------------------------------------------------------------ online account names folded


def test_an_account_name_is_one_account_whatever_its_case_or_width(league, players, admin):
    from kyoku.principals import SYSTEM as system
    from league import services as league_services
    from online import services as online_services
    from tests.actors import open_season as opened

    rules = league_services.rule_set_create(name="Tenhou", slug="tenhou-x", preset="tenhou", actor=system)
    opened(league, rules, players[:4])
    from rest_framework.test import APIClient

    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(admin)
    first = api.post(f"/api/players/{players[0].pk}/accounts/", {"account_name": "tenhou_01"}, format="json")
    assert first.status_code == 201
    for i, name in ((1, "Tenhou_01"), (2, "ｔｅｎｈｏｕ＿０１"), (3, "TENHOU_01")):
        r = api.post(f"/api/players/{players[i].pk}/accounts/", {"account_name": name}, format="json")
        assert r.status_code == 400, name
        assert r.json()["detail"] == "this account name is already linked to another player"
        assert players[0].display_name not in r.content.decode()
    # the same player linking another spelling of their own name: the one account, no second row
    again = online_services.account_link(player=players[0], account_name="TENHOU_01", actor=system)
    assert OnlineAccount.objects.filter(platform="tenhou").count() == 1 and again.account_name == "tenhou_01"
    # a record naming the folded form finds the player
    from online.selectors import players_by_account

    assert players_by_account(["ｔｅｎｈｏｕ＿０１"], "tenhou") == {"ｔｅｎｈｏｕ＿０１": players[0]}
    # the same name on the other platform is another account
    other = online_services.account_link(
        player=players[1], account_name="Tenhou_01", actor=system, platform="mahjongsoul"
    )
    assert other.account_key == "tenhou_01"


def test_the_database_holds_one_account_per_folded_name(players):
    from django.db import IntegrityError, transaction

    OnlineAccount.objects.create(player=players[0], platform="tenhou", account_name="Abc")
    with pytest.raises(IntegrityError), transaction.atomic():
        OnlineAccount.objects.create(player=players[1], platform="tenhou", account_name="ａｂｃ")
