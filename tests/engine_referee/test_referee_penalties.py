"""The penalty catalogue (clause 5): data, validation, escalation."""

import copy

import pytest

from referee.engine import RulingError, rule
from referee.engine.penalties import (
    DEFAULT_CATALOGUE,
    SANCTIONS,
    default_catalogue,
    sanction_for,
    sanctions_for_ruling,
    validate_catalogue,
)


def test_default_catalogue_is_valid_and_versioned():
    assert validate_catalogue(DEFAULT_CATALOGUE) == []
    assert DEFAULT_CATALOGUE["version"] == "2024.1"
    for offence in (
        "early_play_harm",
        "false_win",
        "invalid_call",
        "late_declaration",
        "misdeal",
        "slow_play",
        "unsportsmanlike",
    ):
        assert DEFAULT_CATALOGUE["offences"][offence]["sanction"] in SANCTIONS
    assert DEFAULT_CATALOGUE["offences"]["false_win"]["sanction"] == "chombo"
    assert DEFAULT_CATALOGUE["offences"]["misdeal"]["sanction"] == "dead_hand"


def test_default_catalogue_copy_is_independent():
    cat = default_catalogue()
    cat["offences"]["slow_play"]["sanction"] = "red_card"
    assert DEFAULT_CATALOGUE["offences"]["slow_play"]["sanction"] == "warning"


@pytest.mark.parametrize(
    "offence, sanction, points, clauses",
    [
        ("early_play_harm", "yellow_card", 0, ["1.1", "5"]),
        ("false_win", "chombo", 20000, ["4", "5"]),
        ("invalid_call", "point_deduction", 1000, ["2", "5"]),
        ("late_declaration", "warning", 0, ["2", "3", "5"]),
        ("misdeal", "dead_hand", 0, ["1.3", "5"]),
        ("slow_play", "warning", 0, ["2", "5"]),
        ("unsportsmanlike", "yellow_card", 0, ["5"]),
    ],
)
def test_first_offence(offence, sanction, points, clauses):
    assert sanction_for(DEFAULT_CATALOGUE, offence, []) == {
        "offence": offence,
        "sanction": sanction,
        "points": points,
        "escalated_from": None,
        "clauses": clauses,
        "catalogue_version": "2024.1",
    }


def test_second_yellow_in_the_same_game_is_red_with_set_deduction():
    out = sanction_for(DEFAULT_CATALOGUE, "early_play_harm", [{"sanction": "yellow_card", "scope": "game"}])
    assert (out["sanction"], out["points"], out["escalated_from"]) == ("red_card", 20000, "yellow_card")


def test_second_yellow_in_the_same_season_is_red():
    out = sanction_for(DEFAULT_CATALOGUE, "unsportsmanlike", ["yellow_card"])
    assert (out["sanction"], out["points"], out["escalated_from"]) == ("red_card", 20000, "yellow_card")


def test_other_prior_sanctions_do_not_escalate_a_yellow():
    out = sanction_for(DEFAULT_CATALOGUE, "early_play_harm", ["warning", "chombo", {"sanction": "red_card"}])
    assert (out["sanction"], out["escalated_from"]) == ("yellow_card", None)


def test_second_warning_in_a_game_is_yellow_but_not_across_the_season():
    assert (
        sanction_for(DEFAULT_CATALOGUE, "slow_play", [{"sanction": "warning", "scope": "game"}])["sanction"]
        == "yellow_card"
    )
    assert sanction_for(DEFAULT_CATALOGUE, "slow_play", ["warning", "warning"])["sanction"] == "warning"


def test_escalation_chains_warning_to_yellow_to_red():
    out = sanction_for(
        DEFAULT_CATALOGUE,
        "slow_play",
        [{"sanction": "warning", "scope": "game"}, {"sanction": "yellow_card", "scope": "season"}],
    )
    assert out == {
        "offence": "slow_play",
        "sanction": "red_card",
        "points": 20000,
        "escalated_from": "warning",
        "clauses": ["2", "5"],
        "catalogue_version": "2024.1",
    }


def test_chombo_does_not_escalate():
    out = sanction_for(DEFAULT_CATALOGUE, "false_win", ["chombo", "chombo"])
    assert (out["sanction"], out["points"], out["escalated_from"]) == ("chombo", 20000, None)


def test_league_catalogue_with_season_threshold_three():
    cat = default_catalogue()
    cat["version"] = "league-7"
    cat["escalation"][1] = {"from": "yellow_card", "to": "red_card", "game": 2, "season": 3}
    assert sanction_for(cat, "unsportsmanlike", ["yellow_card"])["sanction"] == "yellow_card"
    out = sanction_for(cat, "unsportsmanlike", ["yellow_card", "yellow_card"])
    assert (out["sanction"], out["catalogue_version"]) == ("red_card", "league-7")


def test_sanctions_for_a_ruling_escalate_within_the_game():
    r = rule(
        {
            "rules": "wrc",
            "dealer": 0,
            "events": [
                {"t": 0, "seat": 0, "act": "discard"},
                {"t": 500, "seat": 1, "act": "draw"},
                {"t": 900, "seat": 1, "act": "discard"},
                {"t": 1000, "seat": 2, "act": "harm", "by": 1, "kind": "missed_call"},
                {"t": 1100, "seat": 3, "act": "harm", "by": 2, "kind": "missed_call"},
            ],
        }
    )
    assert r["penalties"] == [{"seat": 1, "offence": "early_play_harm", "clauses": ["1.1"]}] * 2
    out = sanctions_for_ruling(DEFAULT_CATALOGUE, r)
    assert [(s["seat"], s["sanction"]) for s in out] == [(1, "yellow_card"), (1, "red_card")]
    out = sanctions_for_ruling(DEFAULT_CATALOGUE, r, {"1": ["yellow_card"]})
    assert [s["sanction"] for s in out] == ["red_card", "red_card"]


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (
            lambda c: c["offences"]["slow_play"].update(sanction="banishment"),
            "offences.slow_play.sanction: unknown sanction type 'banishment'; known: warning, yellow_card, red_card, "
            "point_deduction, chombo, dead_hand",
        ),
        (
            lambda c: c["offences"]["false_win"].update(points=-8000),
            "offences.false_win.points: must not be negative, got -8000",
        ),
        (
            lambda c: c["offences"]["false_win"].pop("points"),
            "offences.false_win.points: missing: a chombo needs the points deducted",
        ),
        (lambda c: c["sanction_points"].update(red_card=-1), "sanction_points.red_card: must not be negative, got -1"),
        (
            lambda c: c["sanction_points"].update(ban=5),
            "sanction_points.ban: unknown sanction type; known: warning, "
            "yellow_card, red_card, point_deduction, chombo, dead_hand",
        ),
        (lambda c: c.pop("version"), "version: missing: a non-empty version string, recorded with every sanction"),
        (lambda c: c["offences"].pop("misdeal"), "offences.misdeal: missing: rulings name this offence"),
        (
            lambda c: c["escalation"].append({"from": "red_card", "to": "yellow_card", "game": 1}),
            "escalation: steps form a cycle through 'yellow_card'",
        ),
        (
            lambda c: c["escalation"].append({"from": "red_card", "to": "suspension", "game": 2}),
            "escalation[2].to: unknown sanction type 'suspension'; known: warning, yellow_card, red_card, "
            "point_deduction, chombo, dead_hand",
        ),
        (
            lambda c: c["escalation"][0].update(game=0),
            "escalation[0].game: must be a positive integer (the N-th occurrence) or null, got 0",
        ),
    ],
)
def test_catalogue_validation_names_the_field(mutate, expected):
    cat = copy.deepcopy(DEFAULT_CATALOGUE)
    mutate(cat)
    assert validate_catalogue(cat) == [expected]
    field = expected.split(": ")[0]
    with pytest.raises(RulingError) as info:
        sanction_for(cat, "slow_play", [])
    assert info.value.field == field


def test_sanction_for_bad_input():
    with pytest.raises(RulingError, match=r"^offence: unknown offence 'jaywalking'"):
        sanction_for(DEFAULT_CATALOGUE, "jaywalking", [])
    with pytest.raises(RulingError, match=r"^prior\[1\]: unknown sanction type 'pink_card'"):
        sanction_for(DEFAULT_CATALOGUE, "slow_play", ["warning", "pink_card"])
    with pytest.raises(RulingError, match=r"^prior\[0\]\.scope: must be 'game' or 'season'"):
        sanction_for(DEFAULT_CATALOGUE, "slow_play", [{"sanction": "warning", "scope": "match"}])
    assert validate_catalogue("nope") == ["catalogue: must be an object"]
