"""Mahjong Soul (雀魂) games converted to tenhou.net/6 JSON: recognised by their room, mode, ranks
and paipu id; every hand settled under the Mahjong Soul preset agrees with what the record's scores
say it paid; names mapped through Player.mahjong_soul_id and linked accounts (by name or by account
id); the paipu id kept as the import's reference; the same game recognised however re-exported.
Genuine games: tests/online/fixtures/README.md (origin of each file); the built one is marked built."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league import services as league_services
from league.models import GameResult
from kyoku.principals import SYSTEM
from online.models import GameImport, OnlineAccount
from online.tenhou import TenhouError, parse_record
from online.tenhou.check import game_check
from scoring.models import HandRecord
from tests.actors import open_season

from .conftest import FIXTURES

THRONE = "mahjongsoul_throne_220602.json"  # genuine: Throne Room south, 15 hands
SILVER = "mahjongsoul_silver_220419.json"  # genuine: Silver Room south, double ron, ends on a bust
BUILT = "mahjongsoul_built_abortive_double_yakuman.json"  # built: nine terminals, a double yakuman, a bust
BUILT_PAO = "mahjongsoul_built_friendly_pao_stacked_yakuman.json"  # built: four winds, stacked yakuman with pao
BUILT_NAGASHI = "mahjongsoul_built_tournament_riichi_nagashi_bust.json"  # built: four riichi, nagashi, bust
GAMES = [THRONE, SILVER, BUILT, BUILT_PAO, BUILT_NAGASHI]


def doc(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def read(name):
    return parse_record((FIXTURES / name).read_bytes(), name)


@pytest.fixture
def season(league, players):
    rules = league_services.rule_set_create(
        name="Mahjong Soul", slug="mahjongsoul", preset="mahjongsoul", is_template=True, actor=SYSTEM
    )
    return open_season(league, rules, players)


def test_recognised_as_mahjong_soul_with_room_mode_ranks_and_paipu_id():
    throne, silver = read(THRONE), read(SILVER)
    assert (throne.platform, throne.mode, throne.room, throne.hanchan) == ("mahjongsoul", "ranked", "throne", True)
    assert throne.log_id == "220602-d182ba37-3b4a-44d8-b095-726d53b8ec20"
    assert throne.played_on.isoformat() == "2022-06-02"
    assert throne.ranks == ["saint", "", "saint", "saint"]  # 雀聖★1, "-", 雀聖★1, 雀聖★2
    assert throne.account_ids == ["89852", "72011596", "75144431", "75115153"]
    assert (silver.room, silver.ranks) == ("silver", ["adept"] * 4)  # 雀士★2/★3
    built = read(BUILT)
    assert (built.room, built.hanchan, built.ranks) == ("jade", False, ["master", "master", "saint", "master"])
    assert read("ranked_game.json").platform == "tenhou"  # a Tenhou log stays Tenhou's


@pytest.mark.parametrize(
    "disp, title, room, mode",
    [
        ("友人戦南喰赤", "友人戦南喰赤: 123456", None, "friendly"),
        ("大会戦東喰赤", "大会戦東喰赤: 9876", None, "tournament"),
        ("Jade Room South", "Jade Room South", "jade", "ranked"),
        ("Friendly South", "Friendly South: 123456", None, "friendly"),
        ("金之间南", "金之间南", "gold", "ranked"),
        ("銅の間四人東", "銅の間四人東", "bronze", "ranked"),
        ("段位戦東喰", "段位戦東喰", None, "ranked"),
    ],
)
def test_rooms_and_modes_in_the_converters_languages(disp, title, room, mode):
    record = doc(SILVER)
    record["rule"]["disp"], record["title"][0] = disp, title
    game = parse_record(json.dumps(record, ensure_ascii=False))
    assert (game.platform, game.room, game.mode, game.hanchan) == (
        "mahjongsoul",
        room,
        mode,
        "南" in disp or "South" in disp,
    )


@pytest.mark.parametrize("name", GAMES)
def test_every_hand_agrees_under_the_mahjong_soul_preset(name):
    check = game_check(read(name))
    assert check["ok"], [h for h in check["hands"] if not h["ok"]]
    assert check["final"]["points_engine"] == check["final"]["points_expected"]


def test_hands_worked_by_hand():
    silver = {h["index"]: h for h in game_check(read(SILVER))["hands"]}
    # East 2, seat 2 deals into two: seat 3 (riichi, mangan 8,000, the stick back as nearest the
    # discarder) and seat 1, the dealer (haneman 18,000): seat 2 pays 26,000.
    assert silver[1]["engine"] == [0, 18000, -26000, 8000]
    throne = {h["index"]: h for h in game_check(read(THRONE))["hands"]}
    # East 3, the dealer (seat 2, riichi) self-draws a mangan: 4,000 from each, the stick back.
    assert throne[4]["engine"] == [-4000, -4000, 12000, -4000]
    # East 2, 1 honba, 1 stick: seat 0 deals in on its riichi declaration tile (no stick paid) to
    # the dealer's 30 fu 4 han (11,600, no kiriage) + 300 + the stick on the table: 12,900 (the
    # converter's own delta says 13,900; the next hand's scores say 12,900).
    assert throne[2]["engine"] == [-11900, 12900, 0, 0]
    built = game_check(read(BUILT))
    # nine terminals: nothing paid, the dealer repeats; 13-sided kokushi is a double yakuman:
    # 64,000 + 300 from seat 1, who goes to -39,300 (a bust ends the game); seats 0 and 3 tie on
    # 25,000 and seat order ranks seat 0 higher: +5.0 and -5.0.
    assert [h["engine"] for h in built["hands"]] == [[0, 0, 0, 0], [0, -64300, 64300, 0]]
    assert built["final"]["points_engine"] == [5.0, -79.3, 79.3, -5.0]
    pao = game_check(read(BUILT_PAO))
    # friendly room: four winds (nothing paid, one honba); then the dealer self-draws daisangen +
    # tsuuiisou (2 yakuman, 32,000 from each) with seat 1 liable for daisangen only: seat 1 pays the
    # daisangen's 48,000 whole and the honba (300), the tsuuiisou is 16,000 from each.
    assert pao["hands"][1]["record"]["result"]["winner"] == {"seat": 0, "yakuman": 2, "pao": 1, "pao_yakuman": 1}
    assert pao["hands"][1]["engine"] == [96300, -64300, -16000, -16000]
    assert pao["final"]["points_engine"] == [111.3, -79.3, -11.0, -21.0]  # seats 2 and 3 tie: seat order
    nagashi = game_check(read(BUILT_NAGASHI))
    # tournament room: four riichi (four sticks stay on the table), nagashi mangan by seat 3 (4,000
    # from the dealer, 2,000 from each other, no honba), then the dealer's baiman ron 24,000 + 600
    # + the four sticks; seat 2 busts at -2,600.
    assert [h["engine"] for h in nagashi["hands"]] == [
        [-1000, -1000, -1000, -1000],
        [-4000, -2000, -2000, 8000],
        [0, 28600, -24600, 0],
    ]
    assert nagashi["final"]["points_engine"] == [-10.0, 40.6, -42.6, 12.0]


def test_final_points_are_the_records_own():
    assert game_check(read(THRONE))["final"]["points_expected"] == [-16.8, 37.4, 14.1, -34.7]


def test_the_same_game_however_re_exported_keeps_its_fingerprints():
    original = read(THRONE)
    again = doc(THRONE)
    again["name"] = ["A", "B", "C", "D"]
    again["title"] = ["Throne Room South", "2022/6/2 18:18:52"]
    again["rule"]["disp"] = "Throne Room South"
    del again["mjsoulId"], again["sx"]
    copy = parse_record(json.dumps(again, ensure_ascii=False))
    assert set(copy.fingerprints()) == set(original.fingerprints())
    anonymous = doc(THRONE)
    anonymous["ref"] = ""
    assert set(parse_record(json.dumps(anonymous, ensure_ascii=False)).fingerprints()) < set(original.fingerprints())
    link = doc(THRONE)
    link["ref"] = original.log_id + "_a12345678"  # a shared paipu link's account tail
    assert parse_record(json.dumps(link, ensure_ascii=False)).log_id == original.log_id


@pytest.mark.parametrize(
    "change, code",
    [
        (lambda d: d["log"][5][16][2].__setitem__(3, "役満40000点"), "malformed"),  # no yakuman multiple
        (lambda d: d.__setitem__("ref", "991399-d182ba37-3b4a-44d8-b095-726d53b8ec20"), "malformed"),
        # no 東/南 and only East hands: the length cannot be read (South hands would say hanchan)
        (lambda d: (d["rule"].__setitem__("disp", "王座の間喰赤"), d.__setitem__("log", d["log"][:4])), "length"),
        (lambda d: d.__setitem__("ratingc", "PF3"), "sanma"),
    ],
)
def test_malformed_mahjong_soul_logs_are_one_coded_error(change, code):
    record = doc(THRONE)
    record["log"][5][16][2][3:] = ["役満32000点", "大三元(役満)"]
    change(record)
    with pytest.raises(TenhouError) as err:
        parse_record(json.dumps(record, ensure_ascii=False))
    assert err.value.code == code


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(GAMES), data=st.data())
def test_mutated_mahjong_soul_logs_parse_or_refuse(name, data):
    from .test_parser_mutations import EVIL_JSON, _paths

    value = doc(name)
    paths = [
        p for p in _paths(value) if p and p[0] in ("ref", "rule", "title", "dan", "mjsoulId", "log", "sc", "ratingc")
    ]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        parent = value
        try:
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = data.draw(st.sampled_from([*EVIL_JSON, "役満", "友人戦", "雀聖★3", "3"]))
        except (KeyError, IndexError, TypeError):
            continue
    try:
        parse_record(json.dumps(value, ensure_ascii=False, allow_nan=True).encode())
    except TenhouError as exc:
        assert exc.code and str(exc)


def test_import_maps_names_by_mahjong_soul_id_and_account_id_and_keeps_the_paipu_id(game, players, admin, as_user):
    record = read(SILVER)
    # seat 0 by the Player field holding the nickname, seat 1 by the Player field holding the account
    # id, seat 2 by a linked account named as the record names it, seat 3 by a linked account id
    players[0].mahjong_soul_id = record.names[0]
    players[1].mahjong_soul_id = record.account_ids[1]
    for p in players[:2]:
        p.save(update_fields=["mahjong_soul_id"])
    OnlineAccount.objects.create(player=players[2], platform="mahjongsoul", account_name=record.names[2])
    OnlineAccount.objects.create(player=players[3], platform="mahjongsoul", account_name=record.account_ids[3])
    body = {"file": SimpleUploadedFile(SILVER, (FIXTURES / SILVER).read_bytes())}
    response = as_user(admin).post(f"/api/games/{game.pk}/import/", body, format="multipart")
    assert response.status_code == 201, response.json()
    assert response.json()["agreed"] is True
    hands = list(HandRecord.objects.filter(game=game).order_by("sequence"))
    assert [h.settlement["deltas"] for h in hands] == [h.deltas for h in record.hands]
    assert GameResult.objects.get(game=game).scores == [9900, 61900, -700, 28900]
    assert [float(s.points) for s in game.seats.order_by("seat")] == [-20.1, 51.9, -40.7, 8.9]
    assert GameImport.objects.get(game=game).log_id == "220419-a0cf4986-3211-4caf-b56e-63807a914812"


def test_unknown_mahjong_soul_names_are_asked_for(game, players, admin, as_user):
    body = {"file": SimpleUploadedFile(THRONE, (FIXTURES / THRONE).read_bytes())}
    response = as_user(admin).post(f"/api/games/{game.pk}/import/", body, format="multipart")
    assert response.status_code == 400
    assert "mapping" in response.json()["errors"]
    assert "Mahjong Soul" in response.json()["errors"]["mapping"][0]


# ------------------------------------------------------------------ qualification evidence


def test_mahjong_soul_records_prove_rooms_and_ranks_for_a_tier(league, players, client):
    from league.models import QualificationTier
    from online import selectors, services
    from tests.actors import make_player_user

    rules = league_services.rule_set_create(name="MS", slug="ms-2022", preset="mahjongsoul", actor=SYSTEM)
    season = league_services.season_create(league=league, year=2022, number=3, rule_set=rules, actor=SYSTEM)
    league_services.season_status_set(season=season, status="open", actor=SYSTEM)
    tier = QualificationTier.objects.create(
        league=league,
        code="MS1",
        description="Mahjong Soul Saint in the Jade room or above",
        effective_year=2022,
        validity="yearly",
        requirements={
            "accounts": [{"platform": "mahjongsoul", "min_rank": "saint", "min_games_in_year": 1, "min_room": "jade"}]
        },
    )
    throne, silver = read(THRONE), read(SILVER)
    player = players[0]
    player.mahjong_soul_id = throne.account_ids[3]  # あろまま, 雀聖★2 in the Throne Room game
    player.save(update_fields=["mahjong_soul_id"])
    application = league_services.application_submit(
        player=player,
        season=season,
        tier=tier,
        evidence={
            "platform": "mahjongsoul",
            "account_id": throne.names[3],
            "rank": "saint",
            "games_in_year": 1,
            "room": "throne",
            "evidence_year": 2022,
        },
        actor=SYSTEM,
    )
    files = [(n, (FIXTURES / n).read_bytes()) for n in (THRONE, SILVER)]
    services.evidence_attach(application=application, files=files, actor=SYSTEM)
    summary = selectors.evidence_summary(application=application)
    assert summary["platform"] == "mahjongsoul"
    assert (summary["counted"], summary["per_room"], summary["meets"]) == (1, {"throne": 1}, True)
    assert (summary["rank"], summary["min_rank"], summary["rank_meets"]) == ("saint", "saint", True)
    rows = {r["log_id"]: r for r in summary["records"]}
    assert rows[throne.log_id]["public_log"] == f"https://game.mahjongsoul.com/?paipu={throne.log_id}"
    assert rows[silver.log_id]["account"] is False  # not this player's game
    # the same game uploaded again, re-exported with other names, adds nothing (paipu id and deals)
    again = doc(THRONE)
    again["name"] = ["A", "B", "C", "D"]
    services.evidence_attach(application=application, files=[("again.json", json.dumps(again).encode())], actor=SYSTEM)
    assert application.online_records.count() == 2
    # the page says the room and the rank in words, in each language
    user = make_player_user("msapplicant", player)
    client.force_login(user)
    for lang, room, rank in [("en", "Throne room", "Saint"), ("zh-hant", "王座", "雀聖"), ("ja", "王座", "雀聖")]:
        page = client.get(f"/online/applications/{application.pk}/records/", HTTP_ACCEPT_LANGUAGE=lang)
        text = page.content.decode()
        assert page.status_code == 200 and room in text and rank in text, lang


# ------------------------------------------------------------------ the demo league


def test_every_mahjong_soul_game_imports_into_the_demo_league(db, django_capture_on_commit_callbacks):
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from league.models import Game
    from online.demo import SOUL_EAST, SOUL_HANCHAN, mahjong_soul_league_seed

    admin = get_user_model().objects.create_user(username="admin", password="x")
    mahjong_soul_league_seed()
    api = APIClient()
    api.force_authenticate(admin)
    for number, games in ((1, SOUL_HANCHAN), (2, SOUL_EAST)):
        for table, (name, _seats) in enumerate(games, start=1):
            game = Game.objects.get(season__league__slug="msol", season__number=number, table=table)
            assert game.season.rule_set.spec["preset"] == "mahjongsoul"
            data = (FIXTURES / name).read_bytes()
            record = parse_record(data, name)
            body = {"file": SimpleUploadedFile(name, data)}
            if number == 2:  # the built games' invented accounts: the admin names each seat's player
                seated = [s.player_id for s in game.seats.order_by("seat")]
                body["mapping"] = json.dumps({n: seated[i] for i, n in enumerate(record.names)})
            with django_capture_on_commit_callbacks(execute=True):
                r = api.post(f"/api/games/{game.pk}/import/", body, format="multipart")
            assert r.status_code == 201, (name, r.json())
            assert r.json()["agreed"] is True
            assert HandRecord.objects.filter(game=game).count() == len(record.hands)
            assert GameResult.objects.get(game=game).scores == record.final_scores
            assert [float(s.points) for s in game.seats.order_by("seat")] == record.final_points


def test_a_malformed_mahjong_soul_upload_is_a_400_naming_the_file(game, admin, as_user):
    record = doc(SILVER)
    record["log"][1][16][2][3] = "役満40000点"  # a yakuman figure no multiple pays
    record["log"][1][16][2][4:] = ["大三元(役満)"]
    body = {"file": SimpleUploadedFile("bad.json", json.dumps(record, ensure_ascii=False).encode())}
    response = as_user(admin).post(f"/api/games/{game.pk}/import/", body, format="multipart")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["file"]
    assert HandRecord.objects.filter(game=game).count() == 0


@pytest.mark.parametrize(
    "lang, words",
    [
        ("en", ["Mahjong Soul", "Silver room", "ranked room", "Adept", "Mahjong Soul's rules"]),
        ("zh-hant", ["雀魂", "銀之間", "段位", "雀士"]),
        ("ja", ["雀魂", "銀の間", "段位", "雀士"]),
    ],
)
def test_the_import_page_says_the_mahjong_soul_room_mode_and_ranks(game, admin, client, lang, words):
    client.force_login(admin)
    page = client.post(
        f"/online/games/{game.pk}/import/",
        {"file": SimpleUploadedFile(SILVER, (FIXTURES / SILVER).read_bytes())},
        HTTP_ACCEPT_LANGUAGE=lang,
        follow=True,
    )
    text = page.content.decode()
    assert page.status_code == 200
    for word in words:
        assert word in text, (lang, word)


def test_a_last_hand_won_on_a_riichi_declaration_tile_is_read_from_the_final_scores():
    # the Throne Room game cut after East 2-1 (seat 0 deals in on its riichi declaration tile): the
    # converter's delta says +13,900, the final scores 10,300 / 41,100 / 25,800 / 22,800 say +12,900;
    # final points by hand: (score − 25,000) / 1,000 + uma 15/5/−5/−15
    record = doc(THRONE)
    record["log"] = record["log"][:3]
    record["sc"] = [10300, -29.7, 41100, 31.1, 25800, 5.8, 22800, -7.2]
    check = game_check(parse_record(json.dumps(record, ensure_ascii=False)))
    assert check["hands"][2]["expected"] == check["hands"][2]["engine"] == [-11900, 12900, 0, 0]
    assert check["ok"] and check["final"]["points_engine"] == [-29.7, 31.1, 5.8, -7.2]
