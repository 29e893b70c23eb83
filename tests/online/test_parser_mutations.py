"""One error path: whatever is done to a genuine record (attributes deleted or changed, the text
truncated, huge or non-ASCII digits, NaN and infinities, deep nesting), parsing it either succeeds
or raises TenhouError: never another exception."""

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from online.tenhou import TenhouError, parse_record

FIXTURES = Path(__file__).parent / "fixtures"
MJLOGS = sorted(p.read_text(encoding="utf-8") for p in FIXTURES.glob("*.mjlog"))
JSONS = sorted(p.read_text(encoding="utf-8") for p in FIXTURES.glob("*.json"))
ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')
EVIL = [
    "",
    "-1",
    "16²",
    "٣",
    "1" * 5000,
    "9" * 400,
    "nan",
    "inf",
    "-inf",
    "1e308",
    "NaN",
    "0x10",
    " ",
    "\ud800",
    ",,,",
    "1,2",
    "-99999999999",
    "４",
]
EVIL_JSON = [None, -1, 1e308, float("nan"), float("inf"), "x", [], {}, [[[[]]]], 10**400, True, "九種九牌"]


def parses_or_refuses(text: str) -> None:
    try:
        parse_record(text.encode("utf-8", "surrogatepass"), "2020052221gm-00a9-0000-6f0524c7.mjlog")
    except TenhouError as exc:
        assert exc.code and str(exc)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=st.sampled_from(MJLOGS), data=st.data())
def test_mutated_mjlog_attributes(doc, data):
    spots = list(ATTRIBUTE.finditer(doc))
    for _ in range(data.draw(st.integers(1, 4))):
        m = data.draw(st.sampled_from(spots))
        action = data.draw(st.sampled_from(["delete", "evil", "random"]))
        if action == "delete":
            replacement = ""
        elif action == "evil":
            replacement = f'{m[1]}="{data.draw(st.sampled_from(EVIL))}"'
        else:
            replacement = f'{m[1]}="{data.draw(st.text(max_size=12))}"'.replace("\x00", "")
        doc = doc[: m.start()] + replacement + doc[m.end() :]
        spots = list(ATTRIBUTE.finditer(doc)) or spots
    parses_or_refuses(doc)


@settings(max_examples=200, deadline=None)
@given(doc=st.sampled_from(MJLOGS + JSONS), cut=st.floats(0, 1))
def test_truncated_records(doc, cut):
    parses_or_refuses(doc[: int(len(doc) * cut)])


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


@settings(max_examples=300, deadline=None)
@given(doc=st.sampled_from(JSONS), data=st.data())
def test_mutated_json_values(doc, data):
    value = json.loads(doc)
    paths = [p for p in _paths(value) if p]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        parent = value
        try:
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = data.draw(st.sampled_from(EVIL_JSON))
        except (KeyError, IndexError, TypeError):
            continue
    parses_or_refuses(json.dumps(value, ensure_ascii=False, allow_nan=True))


@pytest.mark.parametrize(
    "text",
    [
        '{"name": ["a","b","c","d"], "log": ' + "[" * 5000 + "]" * 5000 + "}",
        "<mjloggm>" + "<x>" * 5000 + "</x>" * 5000 + "</mjloggm>",
        '<mjloggm ver="2.3"><GO type="16²" lobby="0"/></mjloggm>',
        '<mjloggm ver="2.3"><GO type="' + "9" * 5000 + '" lobby="0"/></mjloggm>',
    ],
)
def test_deep_nesting_and_huge_digits(text):
    with pytest.raises(TenhouError):
        parse_record(text.encode(), "x.mjlog")


def test_agari_without_who_is_named():
    doc = next(d for d in MJLOGS if "<AGARI" in d)
    m = re.search(r"<AGARI[^>]*>", doc)
    broken = doc[: m.start()] + re.sub(r'\swho="\d+"', "", m[0], count=1) + doc[m.end() :]
    with pytest.raises(TenhouError) as err:
        parse_record(broken.encode(), "x.mjlog")
    assert err.value.code == "malformed"


def test_owari_infinity_and_nan_start_are_refused():
    doc = next(d for d in MJLOGS if "owari=" in d)
    broken = re.sub(r'owari="([^",]*),([^",]*),', r'owari="\1,inf,', doc, count=1)
    with pytest.raises(TenhouError):
        parse_record(broken.encode(), "x.mjlog")
    game = json.loads(JSONS[0])
    game["log"][0][1][0] = 1e308
    with pytest.raises(TenhouError):
        parse_record(json.dumps(game).encode(), "x.json")
    game = json.loads(JSONS[0])
    game["sc"][1] = float("nan")
    with pytest.raises(TenhouError):
        parse_record(json.dumps(game, allow_nan=True).encode(), "x.json")


def test_honba_beyond_the_hands_played_is_impossible():
    doc = next(d for d in MJLOGS if "<INIT" in d)
    broken = re.sub(r'(<INIT seed=")(\d+),(\d+),', lambda m: f"{m[1]}{m[2]},799,", doc, count=1)
    with pytest.raises(TenhouError) as err:
        parse_record(broken.encode(), "x.mjlog")
    assert err.value.code == "impossible"


# ---------------------------------------------------------------- records refused when they are wrong
# Each mutation of the genuine Throne Room game (fixtures README) is refused with a code and words
# naming what is wrong (online.services.tenhou_message says them in the reader's language).

THRONE = "mahjongsoul_throne_220602.json"
THRONE_DOC = json.loads((FIXTURES / THRONE).read_text(encoding="utf-8"))


def throne():
    return json.loads(json.dumps(THRONE_DOC))


def refusal(doc) -> TenhouError:
    with pytest.raises(TenhouError) as err:
        parse_record(json.dumps(doc, ensure_ascii=False).encode())
    return err.value


def words(exc: TenhouError) -> str:
    from django.utils import translation

    from online.services import tenhou_message

    with translation.override("en"):
        return tenhou_message(exc)


def test_the_genuine_throne_game_parses():
    game = parse_record((FIXTURES / THRONE).read_bytes())
    assert (game.hanchan, len(game.hands), game.final_scores) == (True, 15, [13200, 47400, 34100, 5300])


@pytest.mark.parametrize("hand", range(15))
@pytest.mark.parametrize("change", [100, -100])
def test_a_hands_deltas_changed_by_100_are_refused(hand, change):
    doc = throne()
    deltas = doc["log"][hand][16][1]
    seat = next(s for s in range(4) if deltas[s] != 0)
    deltas[seat] += change
    exc = refusal(doc)
    assert exc.code == "deltas"
    assert exc.params["hand"] == hand + 1
    said = words(exc)
    wind = ("East", "South")[THRONE_DOC["log"][hand][0][0] // 4]
    assert f"{wind} {THRONE_DOC['log'][hand][0][0] % 4 + 1}, {THRONE_DOC['log'][hand][0][1]} honba" in said
    assert "the record pays" in said and "scores move by" in said


def test_the_converters_riichi_stick_quirk_is_tolerated_on_a_declaration_tile_only():
    # East 2, 1 honba: seat 1 rons seat 0's riichi declaration tile; the converter writes +13,900
    # (it counts the declaration's stick), the scores move by +12,900 (the stick was never paid).
    assert THRONE_DOC["log"][2][16][1] == [-11900, 13900, 0, 0]
    assert [b - a for a, b in zip(THRONE_DOC["log"][2][1], THRONE_DOC["log"][3][1])] == [-11900, 12900, 0, 0]
    game = parse_record(json.dumps(THRONE_DOC, ensure_ascii=False).encode())
    assert game.hands[2].declaration_ron and game.hands[2].deltas == [-11900, 12900, 0, 0]
    # the same +1,000 on a ron that is not on a declaration tile is refused
    doc = throne()
    discards = doc["log"][2][6]
    discards[:] = [int(d[1:]) if isinstance(d, str) and d.startswith("r") else d for d in discards]
    exc = refusal(doc)
    assert (exc.code, exc.params["hand"]) == ("deltas", 3)
    # and on a hand won elsewhere: South 1's ron (+8,700 where the scores say +8,700) given +1,000
    doc = throne()
    doc["log"][8][16][1][1] += 1000
    assert refusal(doc).code == "deltas"


def test_the_final_scores_must_be_what_the_last_hand_paid():
    doc = throne()
    doc["sc"][2] += 100  # seat 1's final score
    exc = refusal(doc)
    assert (exc.code, exc.params["hand"]) == ("deltas", 15)


def test_a_fifth_name_is_refused():
    doc = throne()
    doc["name"].append("ghost")
    exc = refusal(doc)
    assert exc.code == "names" and "5 players" in words(exc)


@pytest.mark.parametrize(
    "where, slot",
    [("deal", 4), ("draws", 5), ("discards", 6), ("dora", 2), ("deal of seat 3", 13)],
)
@pytest.mark.parametrize("code", [54, 10, 48, 20, 0, 61])
def test_a_tile_code_that_is_no_tile_is_refused(where, slot, code):
    doc = throne()
    tiles = doc["log"][4][slot]
    if slot == 6 and code in (0, 60):
        pytest.skip("0 and 60 are discards (a daiminkan's slot, a tsumogiri)")
    tiles[0] = code
    exc = refusal(doc)
    assert exc.code == "tile", where
    assert exc.params["hand"] == 5 and f"Hand 5 of the record holds {code}, which is no tile" in words(exc)


@pytest.mark.parametrize("meld", ["c545556", "p151515x", "p1515", "r54", "r", "k15151515"])
def test_a_call_or_riichi_with_no_tile_is_refused(meld):
    doc = throne()
    doc["log"][4][5][0] = meld  # a draw: calls c/p/m only, of tiles
    assert refusal(doc).code == "tile"


def test_the_discard_marks_of_the_format_are_read():
    # 60 (tsumogiri), r + tile or r60 (riichi), 0 after an open kan, a closed kan "a" in discards
    game = parse_record((FIXTURES / THRONE).read_bytes())
    assert any(60 in k[6 + 3 * s] for k in THRONE_DOC["log"] for s in range(4))
    assert any(isinstance(d, str) and d.startswith("r") for k in THRONE_DOC["log"] for d in k[6])
    assert game.hands


@pytest.mark.parametrize(
    "yaku",
    ["Nonsense", "立直", "立直(1)", "立直(one 飜)", "立直(1点)", "(1飜)", 7],
)
def test_an_unreadable_yaku_is_refused_in_words(yaku):
    doc = throne()
    doc["log"][0][16][2].append(yaku)  # East 1's tsumo
    exc = refusal(doc)
    assert exc.code == "yaku"
    assert "East 1, 0 honba" in words(exc) and "han cannot be read" in words(exc)


@pytest.mark.parametrize("unit", ["飜", "番", " Han", "han", "翻"])
def test_yaku_in_the_converters_languages_keep_their_han(unit):
    doc = throne()
    texts = doc["log"][0][16][2]
    texts[4:] = [t.replace("飜)", f"{unit})") for t in texts[4:]]  # 門前清自摸和(1番) …
    english = doc["log"][3][16][2]
    english[3:] = ["Mangan 2000-4000Points", "Half Flush(2 Han)", "Dragon(1 Han)", "Dora(1 Han)"]
    game = parse_record(json.dumps(doc, ensure_ascii=False).encode())
    assert game.hands[0].result["winner"]["han"] == 3
    assert game.hands[3].result["winner"]["han"] == 4


@pytest.mark.parametrize("word", ["役満", "役滿", "Yakuman"])
def test_a_yakuman_yaku_is_read_in_each_language(word):
    # the game cut after East 3, 1 honba, whose ron (seat 3 from seat 2) is made a yakuman: 32,000 + 300
    doc = throne()
    doc["log"] = doc["log"][:6]
    doc["log"][5][16][1] = [0, 0, -32300, 32300]
    doc["log"][5][16][2][3:] = ["役満32000点" if word != "Yakuman" else "Yakuman 32000Points", f"大三元({word})"]
    doc["sc"] = [4100, -30.9, 32900, 12.9, 14100, -15.9, 48900, 33.9]
    game = parse_record(json.dumps(doc, ensure_ascii=False).encode())
    assert game.hands[5].result["winners"] == [{"seat": 3, "yakuman": 1}]
    doc["log"][5][16][2][4] = "大三元(Yakuman!)"
    assert refusal(doc).code == "yaku"


def test_a_throne_game_relabelled_east_is_refused_in_words():
    for disp in ("王座の間東喰赤", "Throne Room East"):
        doc = throne()
        doc["rule"]["disp"] = doc["title"][0] = disp
        exc = refusal(doc)
        assert exc.code == "length_label"
        said = words(exc)
        assert "labelled an east-only game" in said and "South 1, 1 honba" in said


def test_a_game_that_reaches_south_is_a_hanchan_whatever_its_label_lacks():
    doc = throne()
    doc["rule"]["disp"] = doc["title"][0] = "王座の間喰赤"
    assert parse_record(json.dumps(doc, ensure_ascii=False).encode()).hanchan is True


def test_an_east_game_may_go_on_into_south_only_while_nobody_holds_30000():
    from online.tenhou.parse import TenhouHand, game_length

    def hand(round_, start):
        return TenhouHand(round_, 0, 0, start, [], {}, [0, 0, 0, 0])

    east = [hand(r, [25000] * 4) for r in range(4)]
    assert game_length(False, east) is False and game_length(True, east) is True
    extension = [*east, hand(4, [29000, 27000, 24000, 20000])]  # 南入: nobody at 30,000
    assert game_length(False, extension) is False
    with pytest.raises(TenhouError) as err:
        game_length(False, [*east, hand(4, [31000, 27000, 22000, 20000])])
    assert err.value.code == "length_label"
    with pytest.raises(TenhouError):
        game_length(False, [*extension, hand(8, [29000, 27000, 24000, 20000])])  # never into West
    with pytest.raises(TenhouError) as err:
        game_length(None, east)
    assert err.value.code == "length"
    assert game_length(None, extension) is True


@pytest.mark.parametrize(
    "hand, index, text",
    [
        (0, 4, "門前清自摸和(2飜)"),  # East 1: "20符3飜" scored, the yaku now add up to 4
        (7, 4, "混一色(3飜)"),  # South 1: "30符4飜"
        (4, 6, "裏ドラ(1飜)"),  # East 3: a mangan (3-5 han) of 1+1+1 = 3 still reads; 0 would not
    ],
)
def test_yaku_that_do_not_add_up_to_the_hands_score_are_refused(hand, index, text):
    doc = throne()
    doc["log"][hand][16][2][index] = text
    if hand == 4:
        doc["log"][hand][16][2][index] = "裏ドラ(0飜)"
        doc["log"][hand][16][2][4] = "門前清自摸和(0飜)"  # 0 + 1 + 0 = 1 han: no mangan
    exc = refusal(doc)
    assert exc.code == "yaku_han"
    assert "yaku add up to" in words(exc) and "scored" in words(exc)


def test_a_fifth_name_in_an_mjlog_is_refused():
    doc = (FIXTURES / "double-ron.mjlog").read_text(encoding="utf-8")
    broken = doc.replace('<UN n0="', '<UN n4="ghost" n0="', 1)
    with pytest.raises(TenhouError) as err:
        parse_record(broken.encode(), "double-ron.mjlog")
    assert err.value.code == "names" and "5 players" in words(err.value)
