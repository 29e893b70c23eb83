"""Reaction time (clause 2), head bump and several rons (3), false wins (4)."""

import pytest

from referee.engine import rule


def ev(t, seat, act, **kw):
    return {"t": t, "seat": seat, "act": act, **kw}


def in_play(*events, rules=None):
    """East announces and discards (PLAY begins at 1500), South draws, then ``events``.
    Indexes: 0 announce, 1 East's discard, 2 South's draw, 3.. the given events."""
    return {
        "rules": rules or {"preset": "wrc", "reaction_time_ms": 1500},
        "dealer": 0,
        "events": [ev(0, 0, "announce"), ev(1500, 0, "discard"), ev(2000, 1, "draw"), *events],
    }


def south_discard(**kw):
    return ev(3000, 1, "discard", **({"settled_t": 3200} | kw))


# --- pon over chi ------------------------------------------------------------------------------


def test_pon_over_chi_inside_window():
    # window opens at the chi (3300, after the tile settled at 3200) and closes at 4800 inclusive
    r = rule(in_play(south_discard(), ev(3300, 2, "call", kind="chi"), ev(4800, 3, "call", kind="pon")))
    assert r["calls"] == [
        {"event": 4, "seat": 2, "kind": "chi", "status": "superseded"},
        {"event": 5, "seat": 3, "kind": "pon", "status": "stands"},
    ]
    assert r["superseded_calls"] == [4]
    assert r["invalid_declarations"] == []
    assert r["procedure_at_end"] == "PLAY"


def test_pon_over_chi_outside_window():
    r = rule(in_play(south_discard(), ev(3300, 2, "call", kind="chi"), ev(4801, 3, "call", kind="pon")))
    assert r["calls"] == [
        {"event": 4, "seat": 2, "kind": "chi", "status": "stands"},
        {"event": 5, "seat": 3, "kind": "pon", "status": "invalid"},
    ]
    assert r["invalid_declarations"] == [5]
    assert any("reaction window closed at 4800 ms" in line for line in r["explanation"])


def test_window_opens_when_tile_is_released_not_at_early_chi():
    # chi shouted at 3100 while the tile was still held; released at 3200 → window 3200..4700
    r = rule(in_play(south_discard(), ev(3100, 2, "call", kind="chi"), ev(4700, 3, "call", kind="pon")))
    assert r["invalid_declarations"] == []
    r = rule(in_play(south_discard(), ev(3100, 2, "call", kind="chi"), ev(4701, 3, "call", kind="pon")))
    assert r["invalid_declarations"] == [5]


def test_tile_not_placed_visibly_opens_window_later():
    hidden = south_discard(visible=False, settled_t=6000)
    r = rule(in_play(hidden, ev(3300, 2, "call", kind="chi"), ev(7000, 3, "call", kind="pon")))
    assert r["invalid_declarations"] == []  # window 6000..7500
    assert r["calls"][-1] == {"event": 5, "seat": 3, "kind": "pon", "status": "stands"}
    assert any("could be seen from 6000 ms" in line for line in r["explanation"])
    # the same pon on a properly placed tile is far too late
    r = rule(in_play(south_discard(), ev(3300, 2, "call", kind="chi"), ev(7000, 3, "call", kind="pon")))
    assert r["invalid_declarations"] == [5]


def test_call_after_in_time_ron_is_superseded():
    r = rule(in_play(south_discard(), ev(3400, 2, "ron"), ev(3600, 3, "call", kind="pon")))
    assert r["winners"] == [2]
    assert r["superseded_calls"] == [5]
    assert r["invalid_declarations"] == []


def test_pon_before_in_time_ron_is_superseded():
    r = rule(in_play(south_discard(), ev(3300, 3, "call", kind="pon"), ev(4000, 0, "ron")))
    assert r["winners"] == [0]
    assert r["calls"] == [{"event": 4, "seat": 3, "kind": "pon", "status": "superseded"}]


def test_call_after_next_turn_and_reaction_time_is_invalid():
    # West already drew; North's pon more than one reaction time after the tile settled
    r = rule(in_play(south_discard(), ev(4000, 2, "draw"), ev(4800, 3, "call", kind="pon")))
    assert r["invalid_declarations"] == [5]
    # a hasty draw does not take away a claim made within reaction time
    r = rule(in_play(south_discard(), ev(3400, 2, "draw"), ev(4700, 3, "call", kind="pon")))
    assert r["invalid_declarations"] == []


# --- several rons ------------------------------------------------------------------------------


def triple(rules):
    # South (1) discards; rons by North at 3400, West at 3600, East at 3900 (window 3400..4900).
    # Priority after South: West (2), North (3), East (0).
    return in_play(
        south_discard(settled_t=3000), ev(3400, 3, "ron"), ev(3600, 2, "ron"), ev(3900, 0, "ron"), rules=rules
    )


def test_triple_ron_head_bump():
    r = rule(triple("wrc"))
    assert r["winners"] == [2]
    assert r["invalid_declarations"] == []
    assert r["procedure_at_end"] == "SETTLEMENT"
    assert r["settlement_started_t"] == 3400
    assert "3" in r["clauses_applied"]


def test_triple_ron_multiple_ron():
    r = rule(triple("ema"))
    assert r["winners"] == [2, 3, 0]
    assert r["settings"]["multiple_ron"] is True


def test_triple_ron_tenhou_is_abortive():
    r = rule(triple("tenhou"))
    assert r["winners"] == []
    assert r["abortive_draw"] is True


def test_double_ron_tenhou():
    r = rule(in_play(south_discard(), ev(3400, 3, "ron"), ev(3600, 2, "ron"), rules="tenhou"))
    assert r["winners"] == [2, 3]
    assert r["abortive_draw"] is False


def test_explicit_multiple_ron_setting_wins_over_preset():
    assert rule(triple({"preset": "wrc", "multiple_ron": True}))["winners"] == [2, 3, 0]
    assert rule(triple({"preset": "ema", "multiple_ron": False}))["winners"] == [2]
    assert rule(triple({"preset": "ema", "max_ron_winners": 2}))["abortive_draw"] is True


def test_multiple_ron_excludes_late_declaration():
    r = rule(
        in_play(south_discard(settled_t=3000), ev(3400, 3, "ron"), ev(4900, 2, "ron"), ev(4901, 0, "ron"), rules="ema")
    )
    assert r["winners"] == [2, 3]
    assert r["invalid_declarations"] == [6]


# --- false wins ------------------------------------------------------------------------------


def test_false_win_by_the_only_declarer():
    r = rule(in_play(south_discard(), ev(3400, 3, "ron"), ev(5000, 3, "false_win_found")))
    assert r["winners"] == []
    assert r["penalties"] == [{"seat": 3, "offence": "false_win", "clauses": ["4"]}]
    assert r["penalty_events"] == [4]
    assert r["procedure_at_end"] == "SETTLEMENT"  # a false declaration still moves to SETTLEMENT
    assert r["clauses_applied"] == ["1.2", "2", "4", "5"]


def test_false_win_then_late_declaration_is_invalid():
    r = rule(in_play(south_discard(), ev(3400, 3, "ron"), ev(5000, 3, "false_win_found"), ev(6000, 2, "ron")))
    assert r["winners"] == []
    assert r["invalid_declarations"] == [6]


def test_priority_winner_false_next_in_time_declarer_wins():
    # West (priority) and North both declare in time; West's win is false → North wins
    r = rule(in_play(south_discard(), ev(3400, 3, "ron"), ev(3600, 2, "ron"), ev(8000, 2, "false_win_found")))
    assert r["winners"] == [3]
    assert r["penalties"] == [{"seat": 2, "offence": "false_win", "clauses": ["4"]}]
    assert any("next in-time declaration in priority order" in line for line in r["explanation"])


def test_late_declarer_never_wins_even_if_priority_false():
    # West declares first (window 3400..4900); North only after seeing it fail
    r = rule(in_play(south_discard(), ev(3400, 2, "ron"), ev(5200, 2, "false_win_found"), ev(5300, 3, "ron")))
    assert r["winners"] == []
    assert r["invalid_declarations"] == [6]
    assert r["penalties"] == [{"seat": 2, "offence": "false_win", "clauses": ["4"]}]


def test_false_priority_among_three_head_bump_goes_to_next():
    assert rule(triple("wrc"))["winners"] == [2]
    r2 = triple("wrc")
    r2["events"].append(ev(9000, 2, "false_win_found"))
    assert rule(r2)["winners"] == [3]
    r3 = triple("ema")
    r3["events"].append(ev(9000, 2, "false_win_found"))
    assert rule(r3)["winners"] == [3, 0]


def test_tsumo_then_ron_is_invalid():
    r = rule(in_play(ev(2100, 1, "tsumo"), ev(2300, 2, "ron")))
    assert r["winners"] == [1]
    assert r["invalid_declarations"] == [4]
    assert r["settlement_started_t"] == 2100


def test_false_tsumo():
    r = rule(in_play(ev(2100, 1, "tsumo"), ev(2600, 1, "false_win_found")))
    assert r["winners"] == []
    assert r["penalties"] == [{"seat": 1, "offence": "false_win", "clauses": ["4"]}]


def test_reaction_time_setting_changes_window():
    rec = in_play(
        south_discard(settled_t=3000),
        ev(3400, 2, "ron"),
        ev(5400, 3, "ron"),
        rules={"preset": "wrc", "reaction_time_ms": 2000},
    )
    r = rule(rec)
    assert r["invalid_declarations"] == []  # 5400 = 3400 + 2000, inclusive
    rec["rules"]["reaction_time_ms"] = 1999
    assert rule(rec)["invalid_declarations"] == [5]


@pytest.mark.parametrize("key", ["explanation", "explanation_zh"])
def test_every_line_cites_clauses(key):
    r = rule(triple("wrc"))
    assert len(r["explanation"]) == len(r["explanation_zh"]) == len(r["explanation_data"])
    for line in r[key]:
        if key == "explanation":
            assert line.rstrip(")").split("(clause")[-1].strip(" s")
            assert "(clause" in line
        else:
            assert line.endswith("條)")
    cited = {c for d in r["explanation_data"] for c in d["clauses"]}
    assert cited <= set(r["clauses_applied"])
