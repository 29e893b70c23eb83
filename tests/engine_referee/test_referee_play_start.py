"""When PLAY begins (clause 1.2), early actions (1.1) and corrections (1.3)."""

from referee.engine import rule


def ev(t, seat, act, **kw):
    return {"t": t, "seat": seat, "act": act, **kw}


def rec(events, rules=None, dealer=0):
    return {"rules": rules or {"preset": "wrc", "reaction_time_ms": 1500}, "dealer": dealer, "events": events}


def refused(seat):
    return {"seat": seat, "allowed": False, "clauses": ["1.2", "1.3"]}


def allowed(seat):
    return {"seat": seat, "allowed": True, "clauses": ["1.2", "1.3"]}


# --- announced start -------------------------------------------------------------------------


def test_announced_start_then_claim_is_refused():
    r = rec(
        [
            ev(0, 0, "announce"),
            ev(1500, 0, "discard"),  # exactly one reaction time later
            ev(1600, 3, "claim_deal_incomplete", kind="short"),
        ]
    )
    r = rule(r)
    assert r["play_start"] == "announced"
    assert r["play_started_t"] == 1500
    assert r["play_start_event"] == 1
    assert r["procedure_at_end"] == "PLAY"
    assert r["corrections"] == [refused(3)]
    assert r["dead_hands"] == [3]
    assert r["invalid_declarations"] == [2]
    assert r["penalties"] == [{"seat": 3, "offence": "misdeal", "clauses": ["1.3"]}]
    assert r["early_actions"] == []


def test_announced_start_too_early_does_not_begin_play():
    r = rule(
        rec(
            [
                ev(0, 0, "announce"),
                ev(1499, 0, "discard"),  # 1 ms short of one reaction time
                ev(2500, 3, "claim_deal_incomplete", kind="short"),
            ]
        )
    )
    assert r["play_start"] is None and r["play_started_t"] is None
    assert r["procedure_at_end"] == "DEAL"
    assert r["corrections"] == [allowed(3)]
    assert r["early_actions"] == [1]
    assert r["penalties"] == []
    assert any("only 1499 ms later" in line and "too early" in line for line in r["explanation"])
    assert any("過早" in line for line in r["explanation_zh"])


def test_non_dealer_announced_start_touching_the_wall():
    # East discards early; South announces and touches the wall 1500 ms later → PLAY at that instant
    r = rule(
        rec(
            [
                ev(0, 0, "discard"),
                ev(500, 1, "announce"),
                ev(2000, 1, "touch_wall"),
                ev(2100, 2, "claim_deal_incomplete", kind="long"),
            ]
        )
    )
    assert (r["play_start"], r["play_started_t"]) == ("announced", 2000)
    assert r["corrections"] == [refused(2)]
    # East's discard was before the announced start: still illegal (not ratified) ...
    assert r["early_actions"] == [0]
    assert any("not ratified" in line for line in r["explanation"])
    # ... but without harm, only West's dead hand is recorded
    assert r["penalties"] == [{"seat": 2, "offence": "misdeal", "clauses": ["1.3"]}]


def test_early_action_before_announced_start_penalised_when_it_harmed():
    r = rule(
        rec(
            [
                ev(0, 0, "discard"),
                ev(300, 1, "draw"),  # South snatches a draw during DEAL
                ev(500, 1, "announce"),
                ev(2000, 1, "touch_wall"),
                ev(2500, 3, "harm", by=1, kind="correction_prevented"),
            ]
        )
    )
    assert r["play_start"] == "announced"
    assert r["early_actions"] == [0, 1]
    assert r["penalties"] == [{"seat": 1, "offence": "early_play_harm", "clauses": ["1.1"]}]


def test_caller_exposing_after_announcement_begins_play():
    r = rule(
        rec(
            [
                ev(0, 0, "discard", settled_t=100),
                ev(200, 2, "announce"),
                ev(400, 2, "call", kind="pon"),
                ev(1700, 2, "expose"),
                ev(1800, 1, "claim_deal_incomplete", kind="short"),
            ]
        )
    )
    assert (r["play_start"], r["play_started_t"]) == ("announced", 1700)
    assert r["corrections"] == [refused(1)]
    assert r["early_actions"] == [0]  # the pon belongs to the announced turn


def test_dealer_first_turn_draw_is_not_an_early_action():
    r = rule(rec([ev(0, 0, "draw"), ev(500, 0, "discard"), ev(900, 1, "harm", by=0, kind="missed_call")]))
    assert r["early_actions"] == [1]
    assert r["penalties"] == []
    assert any("first-turn draw" in line for line in r["explanation"])


def test_claim_at_the_instant_of_the_act_blocks_the_start():
    # boundary inclusive: a claim at exactly announce + reaction time is in time
    r = rule(
        rec([ev(1000, 1, "announce"), ev(2500, 1, "touch_wall"), ev(2500, 3, "claim_deal_incomplete", kind="short")])
    )
    assert r["play_start"] is None
    assert r["corrections"] == [allowed(3)]
    assert any("claimed an incomplete deal at 2500 ms" in line for line in r["explanation"])


def test_claim_one_ms_after_the_window_is_refused():
    r = rule(
        rec([ev(1000, 1, "announce"), ev(2500, 1, "touch_wall"), ev(2501, 3, "claim_deal_incomplete", kind="short")])
    )
    assert (r["play_start"], r["play_started_t"]) == ("announced", 2500)
    assert r["corrections"] == [refused(3)]
    assert r["invalid_declarations"] == [2]


def test_claim_between_announcement_and_act_blocks_the_start():
    r = rule(
        rec(
            [
                ev(0, 0, "discard"),
                ev(500, 1, "announce"),
                ev(1200, 3, "claim_deal_incomplete", kind="short"),
                ev(2500, 1, "touch_wall"),
            ]
        )
    )
    assert r["play_start"] is None
    assert r["procedure_at_end"] == "DEAL"
    assert r["corrections"] == [allowed(3)]
    assert any("PLAY did not begin" in line for line in r["explanation"])


def test_claim_after_one_reaction_time_but_before_the_act_is_allowed():
    # the announcer waited longer than needed; the hand is still in DEAL when the claim comes
    r = rule(rec([ev(0, 1, "announce"), ev(2000, 3, "claim_deal_incomplete", kind="short"), ev(3000, 1, "touch_wall")]))
    assert r["corrections"] == [allowed(3)]
    assert r["play_start"] is None


def test_longer_reaction_time_setting_makes_the_same_act_too_early():
    events = [ev(0, 0, "announce"), ev(1800, 0, "discard"), ev(1900, 3, "claim_deal_incomplete", kind="short")]
    assert rule(rec(events))["corrections"] == [refused(3)]
    r = rule(rec(events, {"preset": "wrc", "reaction_time_ms": 2000}))
    assert r["corrections"] == [allowed(3)]
    assert r["settings"]["reaction_time_ms"] == 2000


# --- retroactive start -----------------------------------------------------------------------


def retro_events():
    return [
        ev(0, 0, "discard", settled_t=300),  # 0: East's first discard
        ev(900, 1, "draw"),  # 1
        ev(2100, 1, "discard"),  # 2
        ev(2500, 2, "draw"),  # 3
        ev(3000, 2, "discard"),  # 4
        ev(3800, 3, "touch_wall"),
    ]  # 5: North, first turn


def test_retroactive_start_then_claim_is_refused():
    r = rule(rec(retro_events() + [ev(4000, 2, "claim_deal_incomplete", kind="short")]))
    assert r["play_start"] == "retroactive"
    assert r["play_started_t"] == 0  # deemed: East's first discard
    assert r["play_start_event"] == 5
    assert r["corrections"] == [refused(2)]
    assert r["dead_hands"] == [2]
    assert r["early_actions"] == []  # all earlier actions are legal
    assert r["penalties"] == [{"seat": 2, "offence": "misdeal", "clauses": ["1.3"]}]


def test_retroactive_start_ratifies_earlier_actions_even_if_harmful():
    r = rule(rec(retro_events() + [ev(4000, 3, "harm", by=2, kind="missed_call")]))
    assert r["penalties"] == []
    assert any("legal under the retroactive start" in line for line in r["explanation"])


def test_claim_before_norths_first_touch_is_allowed_then_play_begins():
    r = rule(rec(retro_events()[:5] + [ev(3500, 3, "claim_deal_incomplete", kind="short"), ev(4500, 3, "touch_wall")]))
    assert r["corrections"] == [allowed(3)]
    assert (r["play_start"], r["play_started_t"]) == ("retroactive", 0)


def test_north_draw_counts_as_touching_the_wall():
    events = retro_events()[:5] + [ev(3800, 3, "draw"), ev(3900, 1, "claim_deal_incomplete", kind="long")]
    r = rule(rec(events))
    assert (r["play_start"], r["play_started_t"]) == ("retroactive", 0)
    assert r["corrections"] == [refused(1)]


def test_north_call_then_expose_triggers_retroactive_start():
    r = rule(
        rec(
            [
                ev(0, 0, "discard"),
                ev(900, 1, "draw"),
                ev(1500, 1, "discard"),
                ev(2000, 3, "call", kind="pon"),
                ev(2300, 3, "expose"),
                ev(2600, 2, "claim_deal_incomplete", kind="short"),
            ]
        )
    )
    assert (r["play_start"], r["play_started_t"], r["play_start_event"]) == ("retroactive", 0, 4)
    assert r["corrections"] == [refused(2)]


def test_north_too_early_announcement_still_triggers_retroactive_start():
    r = rule(rec(retro_events()[:5] + [ev(3500, 3, "announce"), ev(3800, 3, "touch_wall")]))
    assert (r["play_start"], r["play_started_t"]) == ("retroactive", 0)
    assert any("too early" in line for line in r["explanation"])


def test_norths_valid_announcement_is_an_announced_start():
    r = rule(rec(retro_events()[:5] + [ev(3100, 3, "announce"), ev(4600, 3, "touch_wall")]))
    assert (r["play_start"], r["play_started_t"]) == ("announced", 4600)
    assert r["early_actions"] == [0, 1, 2, 3, 4]


def test_dead_hand_cannot_win():
    r = rule(
        rec(
            retro_events()
            + [
                ev(4000, 2, "claim_deal_incomplete", kind="short"),
                ev(4100, 3, "draw"),
                ev(4500, 3, "discard"),
                ev(4900, 2, "ron"),
            ]
        )
    )
    assert r["winners"] == []
    assert r["penalties"] == [
        {"seat": 2, "offence": "misdeal", "clauses": ["1.3"]},
        {"seat": 2, "offence": "false_win", "clauses": ["4"]},
    ]
    assert r["procedure_at_end"] == "SETTLEMENT"


def test_win_during_deal_goes_straight_to_settlement_and_later_claim_refused():
    r = rule(
        rec([ev(0, 0, "discard", settled_t=200), ev(600, 1, "ron"), ev(900, 3, "claim_deal_incomplete", kind="short")])
    )
    assert r["procedure_at_end"] == "SETTLEMENT"
    assert r["play_started_t"] is None
    assert r["winners"] == [1]
    assert r["corrections"] == [refused(3)]
    assert any("SETTLEMENT had begun (600 ms)" in line for line in r["explanation"])
