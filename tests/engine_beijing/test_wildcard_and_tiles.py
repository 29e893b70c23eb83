"""Wildcard (混) order with wrap-around, and tile-level factor derivation."""

import pytest

from scoring.engine.beijing import FACTORS, analyse, resolve, wildcard_of
from scoring.engine.errors import SettlementError
from tests.engine_beijing.helpers import bj

OPTS = resolve({"preset": "beijing"})


@pytest.mark.parametrize(
    "ind,wild",
    [
        ("1m", "2m"),
        ("8m", "9m"),
        ("9m", "1m"),
        ("9p", "1p"),
        ("9s", "1s"),
        ("5s", "6s"),
        ("1z", "2z"),
        ("2z", "3z"),
        ("3z", "4z"),
        ("4z", "1z"),  # 東→南→西→北→東
        ("7z", "6z"),
        ("6z", "5z"),
        ("5z", "7z"),  # 中→發→白→中
        ("九萬", "1m"),
        ("中", "6z"),
        ("白", "7z"),
        ("北", "1z"),
    ],
)
def test_wildcard_wrap(ind, wild):
    assert wildcard_of(ind) == wild


def test_wildcard_of_index():
    assert wildcard_of(8) == 0 and wildcard_of(33) == 32 and wildcard_of(31) == 33 and wildcard_of(30) == 27


def test_wildcard_bad_indicator():
    with pytest.raises(SettlementError) as e:
        wildcard_of("0x")
    assert e.value.field == "wildcard_indicator"


def _best(concealed, tile, ind, melds=(), **opts):
    o = dict(OPTS, **opts)
    return analyse({"concealed": concealed, "tile": tile, "melds": list(melds)}, ind, o)


def test_wildcard_at_face_value_is_meihuar():
    # 混 = 1s (indicator 9s); the pair 11s is two 混 at face value
    a = _best("46m123p456p789p11s", "5m", "9s")
    assert a.best().factors == ("menqing", "meihuar", "long", "zhuowu")


def test_zhuowu_needs_real_five_man():
    # 混 = 5m (indicator 4m): the drawn 5m is a 混, so no 捉五魁
    a = _best("46m123p456p789p11s", "5m", "4m")
    assert "zhuowu" not in a.best().factors
    # kanchan 4m_6m with a real 5m
    assert "zhuowu" in _best("46m123p456p789p11s", "5m", "1z").best().factors
    # 5m not in a kanchan (two-sided 34m) → no 捉五魁
    assert "zhuowu" not in _best("34m123p456p789p11s", "5m", "1z").best().factors


def test_zhuowu_single_wait_qidui():
    assert _best("1122334466775m", "5m", "1z").best().factors == ("menqing", "meihuar", "qidui", "zhuowu")


def test_haohua_needs_four_real_tiles():
    # four real 1m → 豪華
    assert _best("1111223344557m", "7m", "1z").best().factors == ("menqing", "meihuar", "qidui", "haohua")
    # three 1m + a 混 (9p, indicator 8p) standing for the fourth: no 豪華 (and no 没混)
    f = _best("1119p223344557m", "7m", "8p").best().factors
    assert "haohua" not in f and "qidui" in f and "meihuar" not in f


def test_two_haohua():
    f = _best("1111223344555m", "5m", "1z").best().factors
    assert f.count("haohua") == 2


def test_long_with_wildcard_is_not_meihuar():
    a = _best("1234569m2p345s77z", "8m", "1p")
    assert a.best().factors == ("menqing", "long")


def test_benhunlong_option():
    # 混 = 8m (indicator 7m) stands for 7m inside the 龍 (same suit as its face)
    hand = ("12345688m345s77z", "9m", "7m")
    assert "meihuar" not in _best(*hand).best().factors
    assert _best(*hand, benhunlong_meihuar=True).best().factors == ("menqing", "meihuar", "long")


def test_hunyou_detection_and_option():
    a = _best("123456789m2p345s", "7z", "1p")
    assert a.hunyou is True and "meihuar" not in a.best().factors
    assert "meihuar" in _best("123456789m2p345s", "7z", "1p", hunyou_meihuar=True).best().factors
    assert _best("1234569m2p345s77z", "8m", "1p").hunyou is False


def test_open_hand_is_not_menqing_and_exposed_meld_cannot_hold_wildcard():
    a = _best("123m456m789s2p", "9s", "1p", melds=[{"type": "pon", "tiles": "555p"}])
    assert "menqing" not in a.best().factors
    with pytest.raises(SettlementError) as e:
        _best("123m456m789s9s", "9s", "1p", melds=[{"type": "pon", "tiles": "222p"}])
    assert e.value.field == "hand.melds[0]"


def test_tile_count_errors_name_the_field():
    with pytest.raises(SettlementError) as e:
        _best("123m456m789s2p", "9s", "1p")
    assert e.value.field == "hand.concealed" and "小相公" in e.value.message


def test_claimed_factor_not_supported_by_tiles():
    with pytest.raises(SettlementError) as e:
        bj(
            {
                "type": "tsumo",
                "winner": 0,
                "factors": ["menqing", "meihuar", "long"],
                "hand": {"concealed": "1234569m2p345s77z", "tile": "8m"},
            },
            wildcard_indicator="1p",
        )
    assert e.value.field == "result.factors"


def test_tiles_need_indicator():
    with pytest.raises(SettlementError) as e:
        bj({"type": "tsumo", "winner": 0, "hand": {"concealed": "1234569m2p345s77z", "tile": "8m"}})
    assert e.value.field == "wildcard_indicator"


def test_incomplete_hand_from_tiles():
    with pytest.raises(SettlementError) as e:
        bj(
            {"type": "tsumo", "winner": 0, "hand": {"concealed": "1234569m3p345s77z", "tile": "1z"}},
            wildcard_indicator="1p",
        )
    assert e.value.field == "result.hand"


def test_discard_on_wildcard_from_tiles():
    with pytest.raises(SettlementError) as e:
        bj(
            {"type": "ron", "winner": 1, "from": 2, "hand": {"concealed": "123456789m345s7z", "tile": "2p"}},
            wildcard_indicator="1p",
        )
    assert e.value.field == "result.hand.tile"


def test_factors_table():
    ids = [f["id"] for f in FACTORS]
    for fid in (
        "zhuangjia",
        "tiliu",
        "menqing",
        "meihuar",
        "long",
        "qidui",
        "haohua",
        "zhuowu",
        "gangkai",
        "tianhu",
        "dihu",
        "hungang",
    ):
        assert fid in ids
    for f in FACTORS:
        assert f["zh"] and f["en"] and "doubling" in f
