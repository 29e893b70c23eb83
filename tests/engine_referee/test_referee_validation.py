"""Record validation (errors name the field), settings, rule_many, purity."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from referee.engine import ENGINE_VERSION, RulingError, rule, rule_many

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def ev(t, seat, act, **kw):
    return {"t": t, "seat": seat, "act": act, **kw}


def rec(events, rules="wrc", dealer=0):
    return {"rules": rules, "dealer": dealer, "events": events}


def error_of(record) -> str:
    with pytest.raises(RulingError) as info:
        rule(record)
    return str(info.value)


@pytest.mark.parametrize(
    "record, expected",
    [
        (
            rec([ev(200, 0, "discard"), ev(100, 1, "draw")]),
            "events[1].t: 100 is earlier than events[0].t (200); events must be in time order",
        ),
        (
            rec(
                [
                    ev(0, 0, "discard"),
                    ev(10, 1, "draw"),
                    ev(20, 1, "discard"),
                    ev(5, 3, "claim_deal_incomplete", kind="short"),
                ]
            ),
            "events[3].t: 5 is earlier than events[2].t (20); events must be in time order",
        ),
        (rec([ev(0, 4, "discard")]), "events[0].seat: must be a seat number 0..3, got 4"),
        (rec([ev(0, -1, "discard")]), "events[0].seat: must be a seat number 0..3, got -1"),
        (rec([{"t": 0, "act": "draw"}]), "events[0].seat: missing: the seat (0..3) that acted"),
        (rec([{"seat": 0, "act": "draw"}]), "events[0].t: missing: milliseconds from the incident's origin"),
        (rec([ev(1.5, 0, "draw")]), "events[0].t: must be an integer number of milliseconds, got 1.5"),
        (
            rec([ev(0, 0, "shout")]),
            "events[0].act: unknown act 'shout'; known: announce, touch_wall, draw, discard, "
            "call, expose, ron, tsumo, claim_deal_incomplete, false_win_found, harm",
        ),
        (rec([ev(0, 3, "claim_deal_incomplete")]), "events[0].kind: missing: one of short, long"),
        (
            rec([ev(0, 3, "claim_deal_incomplete", kind="medium")]),
            "events[0].kind: must be one of short, long, got 'medium'",
        ),
        (
            rec([ev(0, 0, "discard"), ev(10, 1, "call", kind="chow")]),
            "events[1].kind: must be one of chi, pon, kan, got 'chow'",
        ),
        (
            rec([ev(0, 0, "discard"), ev(10, 2, "harm", by=1, kind="missed_call")]),
            "events[1].by: must be the index of an earlier event (0..0), got 1",
        ),
        (
            rec([ev(0, 0, "discard"), ev(10, 2, "harm", kind="missed_call")]),
            "events[1].by: missing: the index of the event that caused the harm",
        ),
        (
            rec([ev(0, 0, "discard"), ev(10, 0, "harm", by=0, kind="missed_call")]),
            "events[1].seat: seat 0 performed events[0] itself; harm names the seat that suffered",
        ),
        (
            rec([ev(0, 0, "discard"), ev(10, 2, "harm", by=0, kind="upset")]),
            "events[1].kind: must be one of missed_call, correction_prevented, got 'upset'",
        ),
        (
            rec([ev(0, 0, "discard", visible=False)]),
            "events[0].settled_t: missing: required when visible is false (when the tile could be seen)",
        ),
        (rec([ev(100, 0, "discard", settled_t=50)]), "events[0].settled_t: 50 is before the discard itself (100)"),
        (rec([ev(0, 0, "discard", visible="no", settled_t=5)]), "events[0].visible: must be true or false, got 'no'"),
        (
            rec([ev(0, 0, "discard"), ev(10, 2, "false_win_found")]),
            "events[1].seat: seat 2 made no win declaration before this event",
        ),
        (rec([ev(0, 1, "ron")]), "events[0].act: ron with no discard before it"),
        (rec([ev(0, 1, "discard"), ev(10, 1, "ron")]), "events[1].seat: seat 1 cannot ron its own discard (events[0])"),
        (
            rec([ev(0, 1, "discard"), ev(10, 3, "call", kind="chi")]),
            "events[1].seat: chi may only be called by the seat after the discarder (seat 2), got 3",
        ),
        (rec([], dealer=4), "dealer: must be a seat number 0..3, got 4"),
        (rec([], dealer="0"), "dealer: must be a seat number 0..3, got '0'"),
        ({"rules": "wrc", "events": []}, "dealer: missing: the seat (0..3) of East this hand"),
        ({"rules": "wrc", "dealer": 0}, "events: missing: the incident timeline (a list of events)"),
        (rec({"t": 0}), "events: must be a list of events"),
        (rec(["discard"]), "events[0]: each event must be an object"),
        ("not a record", "record: an incident record must be a JSON object"),
        (
            rec([], rules={"preset": "wrc", "reaction_time_ms": 0}),
            "rules.reaction_time_ms: must be a positive integer (milliseconds), got 0",
        ),
        (
            rec([], rules={"preset": "wrc", "reaction_time_ms": -5}),
            "rules.reaction_time_ms: must be a positive integer (milliseconds), got -5",
        ),
        (
            rec([], rules={"preset": "wrc", "reaction_time_ms": "1500"}),
            "rules.reaction_time_ms: must be a positive integer (milliseconds), got '1500'",
        ),
        (
            rec([], rules={"preset": "wrc", "reaction_time_ms": True}),
            "rules.reaction_time_ms: must be a positive integer (milliseconds), got True",
        ),
        (
            rec([], rules={"preset": "wrc", "reaction_time_ms": 1500.0}),
            "rules.reaction_time_ms: must be a positive integer (milliseconds), got 1500.0",
        ),
        (
            rec([], rules="nope"),
            "rules.preset: unknown preset 'nope'; known: beijing, ema, jpml, mleague, tenhou, wrc, zung-jung",
        ),
        (rec([], rules={"reaction_time_ms": 1500}), "rules.preset: missing: name a preset such as 'wrc'"),
        (
            rec([], rules={"preset": "wrc", "uma": [15, 5]}),
            "rules.uma: unknown setting; known: preset, reaction_time_ms, multiple_ron, max_ron_winners",
        ),
        (
            rec([], rules={"preset": "wrc", "multiple_ron": "yes"}),
            "rules.multiple_ron: must be true or false, got 'yes'",
        ),
        (
            rec([], rules={"preset": "wrc", "max_ron_winners": 2}),
            "rules.max_ron_winners: must be 1 when multiple_ron is false (head bump)",
        ),
        (
            rec([], rules={"preset": "ema", "max_ron_winners": 4}),
            "rules.max_ron_winners: must be an integer from 1 to 3, got 4",
        ),
        (rec([], rules=15), "rules: expected a preset name or an object with 'preset'"),
        (
            {"dealer": 0, "events": []},
            'rules: missing: name the league settings, e.g. "wrc" or {"preset": "wrc", "reaction_time_ms": 1500}',
        ),
    ],
)
def test_invalid_records_name_the_field(record, expected):
    assert error_of(record) == expected


def test_ruling_error_is_a_value_error():
    err = RulingError("events[3].t", "bad")
    assert isinstance(err, ValueError)
    assert str(err) == "events[3].t: bad"
    assert (err.field, err.message) == ("events[3].t", "bad")


@pytest.mark.parametrize(
    "rules, rt, multiple, max_w",
    [
        ("wrc", 1500, False, 1),
        ("ema", 1500, True, 3),
        ("mleague", 1500, False, 1),
        ("tenhou", 1500, True, 2),
        ({"preset": "wrc"}, 1500, False, 1),
        ({"preset": "wrc", "reaction_time_ms": 800}, 800, False, 1),
        ({"preset": "ema", "multiple_ron": False}, 1500, False, 1),
        ({"preset": "mleague", "multiple_ron": True}, 1500, True, 3),
        ({"preset": "tenhou", "multiple_ron": True}, 1500, True, 2),
        ({"preset": "ema", "max_ron_winners": 2, "reaction_time_ms": 2000}, 2000, True, 2),
    ],
)
def test_settings_echoed(rules, rt, multiple, max_w):
    r = rule(rec([], rules=rules))
    preset = rules if isinstance(rules, str) else rules["preset"]
    assert r["settings"] == {
        "preset": preset,
        "reaction_time_ms": rt,
        "multiple_ron": multiple,
        "max_ron_winners": max_w,
    }
    assert r["engine_version"] == ENGINE_VERSION


def test_empty_timeline_is_deal():
    r = rule(rec([]))
    assert r["procedure_at_end"] == "DEAL"
    assert r["corrections"] == [] and r["winners"] == [] and r["penalties"] == []


def test_extra_event_keys_are_ignored():
    r = rule(rec([ev(0, 0, "discard", tile="5p", note="placed sideways")]))
    assert r["procedure_at_end"] == "DEAL"


def test_rule_many_puts_errors_in_place():
    good = rec([ev(0, 0, "discard"), ev(100, 3, "claim_deal_incomplete", kind="short")])
    out = rule_many([good, rec([ev(0, 9, "draw")]), good])
    assert len(out) == 3
    assert out[0] == out[2] == rule(good)
    assert out[1] == {"error": "events[0].seat: must be a seat number 0..3, got 9"}
    with pytest.raises(RulingError):
        rule_many({"not": "a list"})


def test_ruling_is_json_and_deterministic():
    record = rec([ev(0, 0, "discard"), ev(100, 1, "draw"), ev(300, 3, "claim_deal_incomplete", kind="long")])
    snapshot = json.dumps(record, sort_keys=True)
    a, b = rule(record), rule(record)
    assert a == b
    assert json.loads(json.dumps(a)) == a
    assert json.dumps(record, sort_keys=True) == snapshot  # the record is not modified


def test_engine_imports_no_django():
    code = (
        "import sys; import referee.engine; "
        "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    engine_dir = os.path.join(ROOT, "referee", "engine")
    for name in os.listdir(engine_dir):
        if name.endswith(".py"):
            with open(os.path.join(engine_dir, name), encoding="utf-8") as fh:
                source = fh.read()
            assert "import django" not in source and "from django" not in source, name


ACTS = [
    "announce",
    "touch_wall",
    "draw",
    "discard",
    "call",
    "expose",
    "ron",
    "tsumo",
    "claim_deal_incomplete",
    "false_win_found",
    "harm",
    "bogus",
]
event_strategy = st.fixed_dictionaries(
    {"t": st.integers(0, 20000), "seat": st.integers(-1, 4), "act": st.sampled_from(ACTS)},
    optional={
        "kind": st.sampled_from(["chi", "pon", "kan", "short", "long", "missed_call", "correction_prevented", "x"]),
        "by": st.integers(-1, 12),
        "settled_t": st.integers(0, 25000),
        "visible": st.booleans(),
    },
)


@hsettings(max_examples=300, deadline=None)
@given(
    st.lists(event_strategy, max_size=12), st.booleans(), st.sampled_from(["wrc", "ema", "tenhou"]), st.integers(0, 3)
)
def test_random_records_give_a_ruling_or_a_field_error(events, sort, preset, dealer):
    if sort:
        events = sorted(events, key=lambda e: e["t"])
    record = rec(events, rules=preset, dealer=dealer)
    try:
        r = rule(record)
    except RulingError as exc:
        assert exc.field and str(exc).startswith(exc.field + ": ")
        return
    assert r["procedure_at_end"] in ("DEAL", "PLAY", "SETTLEMENT")
    assert len(r["corrections"]) == sum(e["act"] == "claim_deal_incomplete" for e in events)
    assert len(r["winners"]) == len(set(r["winners"]))
    assert all(0 <= i < len(events) for i in r["invalid_declarations"])
    assert len(r["explanation"]) == len(r["explanation_zh"])
    if r["play_start"] is None:
        assert r["play_started_t"] is None
