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
