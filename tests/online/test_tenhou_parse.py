"""Real Tenhou records (tests/online/fixtures/README.md) settle through the riichi engine hand by
hand to exactly the record's deltas, final scores and Tenhou points. Pure: no database."""

import gzip
from pathlib import Path

import pytest

from online.tenhou import TenhouError, game_check, parse_record

FIXTURES = Path(__file__).parent / "fixtures"


def load(name):
    return parse_record((FIXTURES / name).read_bytes(), name)


# file, room, hanchan, hands, final scores (as the record's owari / sc states them), Tenhou points
GAMES = [
    ("double-ron.mjlog", "phoenix", True, 4, [33400, 36000, 32000, -1400], [13.0, 46.0, -8.0, -51.0]),
    (
        "2020052221gm-00a9-0000-6f0524c7.mjlog",
        "phoenix",
        True,
        12,
        [37700, 23200, 22900, 16200],
        [48.0, 3.0, -17.0, -34.0],
    ),
    (
        "2018040923gm-00a9-0000-1833afca.mjlog",
        "phoenix",
        True,
        9,
        [16300, 21900, 17700, 44100],
        [-34.0, 2.0, -22.0, 54.0],
    ),
    (
        "2016052515gm-00a9-0000-c4d72066.mjlog",
        "phoenix",
        True,
        14,
        [30200, 20000, 33000, 16800],
        [10.0, -20.0, 43.0, -33.0],
    ),
    (
        "2010112714gm-00a9-0000-d497e395.mjlog",
        "phoenix",
        True,
        13,
        [18600, 24900, 38400, 18100],
        [-21.0, 5.0, 48.0, -32.0],
    ),
    ("ranked_game.json", "special", True, 3, [21100, 55000, -4900, 28800], [-19.0, 65.0, -55.0, 9.0]),
    ("suukantsu_1.json", "general", False, 2, [38000, 29000, -24000, 57000], [18.0, -11.0, -74.0, 67.0]),
]


@pytest.mark.parametrize("name,room,hanchan,hands,scores,points", GAMES)
def test_real_record_settles_exactly(name, room, hanchan, hands, scores, points):
    game = load(name)
    assert (game.room, game.hanchan, len(game.hands)) == (room, hanchan, hands)
    assert game.final_scores == scores and game.final_points == points
    check = game_check(game)
    bad = [h for h in check["hands"] if not h["ok"]]
    assert bad == [] and check["ok"]
    assert check["final"]["scores_engine"] == scores
    assert [round(p, 1) for p in check["final"]["points_engine"]] == points


def test_double_ron_mjlog_has_both_winners_and_sticks():
    last = load("double-ron.mjlog").hands[-1]
    assert last.result["type"] == "ron" and last.result["from"] == 3
    assert sorted(w["seat"] for w in last.result["winners"]) == [0, 2]
    assert sorted(last.riichi) == [0, 2]
    # 7,700 + 8,000 from seat 3; seat 0 (first after the discarder) takes both sticks and pays its own.
    assert last.deltas == [8700, 0, 7000, -15700]


def test_double_ron_json_yakuman_and_riichi():
    last = load("suukantsu_1.json").hands[-1]
    assert last.result == {
        "type": "ron",
        "from": 2,
        "winners": [{"seat": 3, "yakuman": 1}, {"seat": 0, "han": 8, "fu": 30}],
    }
    assert last.riichi == [0]


@pytest.mark.parametrize(
    "name,reason",
    [
        ("2020052221gm-00a9-0000-6f0524c7.mjlog", "four_winds"),
        ("2018040923gm-00a9-0000-1833afca.mjlog", "four_riichi"),
        ("2016052515gm-00a9-0000-c4d72066.mjlog", "four_kans"),
        ("2010112714gm-00a9-0000-d497e395.mjlog", "nine_terminals"),
    ],
)
def test_abortive_draws(name, reason):
    reasons = [h.result.get("reason") for h in load(name).hands if h.result["type"] == "abortive"]
    assert reason in reasons


def test_played_on_and_names_from_the_log():
    game = load("2020052221gm-00a9-0000-6f0524c7.mjlog")
    assert game.played_on.isoformat() == "2020-05-22" and game.lobby_type == 0xA9
    assert len(game.names) == 4 and all(game.names)
    assert load("suukantsu_1.json").names == ["Aさん", "Bさん", "Cさん", "Dさん"]


def test_a_changed_delta_is_shown_on_its_hand():
    game = load("double-ron.mjlog")
    game.hands[1].deltas = [d + (100 if s == 0 else -100 if s == 1 else 0) for s, d in enumerate(game.hands[1].deltas)]
    check = game_check(game)
    assert not check["ok"]
    assert [h["index"] for h in check["hands"] if not h["ok"]] == [1]
    assert check["hands"][1]["label"] == "East 2, 0 honba"


def sanma_from_real():
    text = (FIXTURES / "double-ron.mjlog").read_text()
    return text.replace('<GO type="169"', '<GO type="185"').replace(' n3="%E3%81%AF', ' n3="" x="')


@pytest.mark.parametrize(
    "data,code",
    [
        (b"hello", "format"),
        (b"<html><body/></html>", "format"),
        (b'{"name": ["a"]}', "format"),
        (b"<mjloggm", "format"),
        (b"\x1f\x8b\x08\x00", "format"),
        (gzip.compress(b" " * 3_000_000), "too_large"),
        (b"<mjloggm>\x00</mjloggm>", "format"),
        (b'<!DOCTYPE x [<!ENTITY a "b">]><mjloggm/>', "format"),
        (b" " * 2_000_001, "too_large"),
        ('{"name": ["a", "b", "c", ""], "rule": {"disp": "三鳳南喰赤"}, "log": [[]]}', "sanma"),
        (b'{"name": ["a", "b", "c", "d"], "rule": {"disp": "x"}, "log": [[[0, 0, 0]]]}', "malformed"),
    ],
)
def test_bad_records_are_refused(data, code):
    with pytest.raises(TenhouError) as err:
        parse_record(data)
    assert err.value.code == code


def test_three_player_mjlog_is_refused():
    with pytest.raises(TenhouError) as err:
        parse_record(sanma_from_real())
    assert err.value.code == "sanma"


def test_gzip_mjlog_as_tenhou_serves_it():
    name = "2020052221gm-00a9-0000-6f0524c7.mjlog"
    game = parse_record(gzip.compress((FIXTURES / name).read_bytes()), name)
    assert len(game.hands) == 12 and game_check(game)["ok"]
