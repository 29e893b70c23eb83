"""Seed 003 ("論反應時間"): its two incidents, and the contract's example record."""

import re

import pytest

from referee.engine import rule

CORRECTION_OK = {"seat": 3, "allowed": True, "clauses": ["1.2", "1.3"]}


def ev(t, seat, act, **kw):
    return {"t": t, "seat": seat, "act": act, **kw}


def incident_1(extra=()):
    # North (seat 3) did not take the last dealt tile; nobody noticed; East discarded, South drew
    # and discarded, and only then North asked to make the tile up. Nobody announced a start and
    # North had not touched the wall.
    return {
        "rules": {"preset": "wrc", "reaction_time_ms": 1500},
        "dealer": 0,
        "events": [
            ev(0, 0, "discard", settled_t=300),
            ev(1000, 1, "draw"),
            ev(2000, 1, "discard", settled_t=2200),
            ev(3000, 3, "claim_deal_incomplete", kind="short"),
            *extra,
        ],
    }


def test_incident_1_still_deal_north_may_correct():
    r = rule(incident_1())
    assert r["procedure_at_end"] == "DEAL"
    assert r["play_started_t"] is None and r["play_start"] is None
    assert r["corrections"] == [CORRECTION_OK]
    assert r["dead_hands"] == []
    # East's first discard and South's draw and discard were taken during DEAL ...
    assert r["early_actions"] == [0, 1, 2]
    # ... but nobody was harmed, so nobody is penalised
    assert r["penalties"] == []
    assert r["winners"] == [] and r["invalid_declarations"] == []
    assert r["clauses_applied"] == ["1.1", "1.2", "1.3", "2"]


def test_incident_1_south_penalised_only_if_north_missed_a_call():
    r = rule(incident_1([ev(3100, 3, "harm", by=2, kind="missed_call")]))
    assert r["penalties"] == [{"seat": 1, "offence": "early_play_harm", "clauses": ["1.1"]}]
    assert r["penalty_events"] == [2]
    assert r["corrections"] == [CORRECTION_OK]
    assert "5" in r["clauses_applied"]


def test_incident_1_east_penalised_if_its_early_discard_harmed():
    r = rule(
        incident_1(
            [ev(3100, 3, "harm", by=0, kind="missed_call"), ev(3200, 3, "harm", by=0, kind="correction_prevented")]
        )
    )
    # one penalty per harmful act, however many harms it caused
    assert r["penalties"] == [{"seat": 0, "offence": "early_play_harm", "clauses": ["1.1"]}]


def test_incident_1_with_another_dealer():
    # dealer is seat 2: North is seat 1; seat 3 (South) and seat 0 (West) acted early
    r = rule(
        {
            "rules": "wrc",
            "dealer": 2,
            "events": [
                ev(0, 2, "discard"),
                ev(900, 3, "draw"),
                ev(2000, 3, "discard"),
                ev(2600, 1, "claim_deal_incomplete", kind="long"),
            ],
        }
    )
    assert r["procedure_at_end"] == "DEAL"
    assert r["corrections"] == [{"seat": 1, "allowed": True, "clauses": ["1.2", "1.3"]}]
    assert r["explanation"][-1].startswith("Seat 1 (North) claimed a long deal at 2600 ms")


def incident_2(late_t):
    # PLAY began retroactively; North discards; West wins and reports the score; a long time
    # later, while North looks for point sticks, South declares ron claiming head bump.
    return {
        "rules": {"preset": "wrc", "reaction_time_ms": 1500},
        "dealer": 0,
        "events": [
            ev(0, 0, "discard", settled_t=200),  # 0
            ev(800, 1, "draw"),  # 1
            ev(1500, 1, "discard"),  # 2
            ev(2200, 2, "draw"),  # 3
            ev(3000, 2, "discard"),  # 4
            ev(3600, 3, "touch_wall"),  # 5: North's first turn → retroactive start
            ev(3700, 3, "draw"),  # 6
            ev(4000, 3, "discard", settled_t=4200),  # 7
            ev(4600, 2, "ron"),  # 8: window [4600, 6100]
            ev(late_t, 1, "ron"),  # 9: South is first after North: head bump
        ],
    }


def test_incident_2_late_head_bump_is_invalid():
    r = rule(incident_2(30000))
    assert r["play_start"] == "retroactive" and r["play_started_t"] == 0
    assert r["procedure_at_end"] == "SETTLEMENT"
    assert r["settlement_started_t"] == 4600
    assert r["winners"] == [2]
    assert r["invalid_declarations"] == [9]
    assert r["penalties"] == []
    assert any("after SETTLEMENT had begun (4600 ms)" in line for line in r["explanation"])
    assert {"2", "3", "4"} <= set(r["clauses_applied"])


def test_incident_2_head_bump_at_window_edge_is_valid():
    r = rule(incident_2(6100))  # exactly reaction_time_ms after the first declaration: inclusive
    assert r["winners"] == [1]
    assert r["invalid_declarations"] == []


def test_incident_2_head_bump_one_ms_late_is_invalid():
    r = rule(incident_2(6101))
    assert r["winners"] == [2]
    assert r["invalid_declarations"] == [9]


def test_contract_example_record():
    # ruling-contract.md: nobody announced, North (seat 3) has not touched the wall, so the hand
    # is still in DEAL at 3000 ms and the correction is allowed: the contract's ruling holds.
    r = rule(
        {
            "rules": {"preset": "wrc", "reaction_time_ms": 1500},
            "dealer": 0,
            "events": [
                {"t": 0, "seat": 0, "act": "discard", "settled_t": 300},
                {"t": 900, "seat": 1, "act": "draw"},
                {"t": 2100, "seat": 1, "act": "discard"},
                {"t": 3000, "seat": 3, "act": "claim_deal_incomplete", "kind": "short"},
            ],
        }
    )
    assert r["play_started_t"] is None
    assert r["play_start"] is None
    assert r["corrections"] == [CORRECTION_OK]
    assert r["winners"] == []
    assert r["invalid_declarations"] == []
    assert r["penalties"] == []
    assert r["settings"] == {"preset": "wrc", "reaction_time_ms": 1500, "multiple_ron": False, "max_ron_winners": 1}
    for key in ("explanation", "explanation_zh", "clauses_applied", "procedure_at_end", "engine_version"):
        assert key in r


# ---------------------------------------------------------------- explanations in three languages (issue 20)


def _all_records():
    """Seed 003's incidents and the other shapes the engine explains (early play with harm, a late
    head bump, a false win), under several dealers."""
    timelines = [
        [
            ev(0, 0, "discard", settled_t=300),
            ev(1000, 1, "draw"),
            ev(2000, 1, "discard", settled_t=2200),
            ev(3000, 3, "claim_deal_incomplete", kind="short"),
            ev(3100, 3, "harm", by=2, kind="missed_call"),
        ],
        [
            ev(0, 0, "discard", settled_t=200),
            ev(800, 1, "draw"),
            ev(1500, 1, "discard"),
            ev(2200, 2, "draw"),
            ev(3000, 2, "discard"),
            ev(3600, 3, "touch_wall"),
            ev(3700, 3, "draw"),
            ev(4000, 3, "discard", settled_t=4200),
            ev(4600, 2, "ron"),
            ev(30000, 1, "ron"),
        ],
        [
            ev(0, 0, "discard"),
            ev(800, 1, "draw"),
            ev(1500, 1, "discard"),
            ev(2200, 2, "draw"),
            ev(3000, 2, "discard"),
            ev(3600, 3, "touch_wall"),
            ev(3700, 3, "draw"),
            ev(4000, 3, "discard"),
            ev(4500, 2, "ron"),
            ev(9000, 2, "false_win_found"),
        ],
    ]
    return [{"rules": "wrc", "dealer": dealer, "events": tl} for tl in timelines for dealer in range(4)]


@pytest.mark.parametrize("record", _all_records())
def test_explanations_in_three_languages_without_internal_references(record):
    r = rule(record)
    assert len(r["explanation"]) == len(r["explanation_zh"]) == len(r["explanation_ja"]) == len(r["explanation_data"])
    for en, zh, ja in zip(r["explanation"], r["explanation_zh"], r["explanation_ja"]):
        assert "events[" not in en + zh + ja and not re.search(r"事件\s?\d", zh)
        assert en.endswith(")") and zh.endswith("條)") and ja.endswith("条)")
        assert not re.search(r"[A-Za-z]{4,}", ja.replace("WRC", "")), ja  # no English left in Japanese


def test_the_japanese_explanation_names_seats_by_this_hands_wind():
    # seed 003 incident 1 with seat 2 dealing: seat 1 is North, seat 3 South (turn order, dealer East)
    r = rule(
        {
            "rules": "wrc",
            "dealer": 2,
            "events": [
                ev(0, 2, "discard"),
                ev(900, 3, "draw"),
                ev(2000, 3, "discard"),
                ev(2600, 1, "claim_deal_incomplete", kind="long"),
            ],
        }
    )
    assert r["explanation_ja"][-1].startswith("北家(1番席)は配牌手順中の2600ミリ秒に多牌を申し出た")
    assert r["explanation_zh"][-1].startswith("北家(1號位)於2600毫秒提出配牌多牌(大相公)")
    assert any(line.startswith("南家(3番席)は配牌手順中の900ミリ秒にツモった") for line in r["explanation_ja"])
