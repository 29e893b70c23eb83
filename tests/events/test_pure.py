"""The tournament's pure parts: the round clock, the ranking with its tiebreaks, the cut and the
final, team standings and the EMA file."""

from datetime import datetime, timedelta, timezone
from decimal import Decimal as D

import pytest

from events import clock as c
from events import ema, ranking

T0 = datetime(2026, 11, 28, 10, 0, tzinfo=timezone.utc)


def at(seconds):
    return T0 + timedelta(seconds=seconds)


def test_a_clock_counts_down_from_its_start():
    clock = c.Clock(minutes=90)
    assert c.clock_state(clock, at(0))["state"] == c.WAITING
    clock = c.Clock(minutes=90, started_at=T0)
    assert c.clock_state(clock, at(60)) == {"state": c.RUNNING, "remaining": 89 * 60, "allowed": 5400, "elapsed": 60}


def test_a_pause_stops_the_clock_and_resuming_keeps_the_time_left():
    clock = c.clock_pause(c.Clock(minutes=90, started_at=T0), at(600))
    assert c.clock_state(clock, at(1800))["remaining"] == 80 * 60  # ten minutes ran, then paused
    clock = c.clock_resume(clock, at(1800))
    assert clock.paused_seconds == 1200
    assert c.clock_state(clock, at(1860))["remaining"] == 79 * 60


def test_an_extension_adds_time_and_time_up_is_not_the_end():
    clock = c.Clock(minutes=1, started_at=T0)
    assert c.clock_state(clock, at(61))["state"] == c.TIME_UP
    assert c.clock_state(clock, at(61))["remaining"] == 0
    extended = c.Clock(minutes=1, started_at=T0, extra_seconds=300)
    assert c.clock_state(extended, at(61))["state"] == c.RUNNING
    assert c.clock_state(extended, at(61))["remaining"] == 299
    ended = c.Clock(minutes=1, started_at=T0, ended_at=at(400))
    assert c.clock_state(ended, at(500))["state"] == c.ENDED


def test_hands_after_time():
    assert c.hands_left_after_time("finish_hand") == 1
    assert c.hands_left_after_time("one_more") == 2


def line(player, rnd, points, place, raw=25000):
    return ranking.Line(player=player, round=rnd, points=D(points), place=place, raw_score=raw)


def test_points_rank_first_and_level_players_share_a_rank():
    lines = [
        line(1, 1, "30.0", 1),
        line(2, 1, "10.0", 2),
        line(3, 1, "-10.0", 3),
        line(4, 1, "-30.0", 4),
        line(5, 1, "10.0", 2),
    ]
    rows = ranking.qualifying_rank(lines, [1, 2, 3, 4, 5], {}, [])
    assert [(r.player, r.rank, r.shared) for r in rows] == [
        (1, 1, False),
        (2, 2, True),
        (5, 2, True),
        (3, 4, False),
        (4, 5, False),
    ]


def test_tiebreaks_apply_in_the_order_given():
    # 2 and 5 level on points; 5 has a first, 2 a better best game
    lines = [
        line(2, 1, "20.0", 2, 40000),
        line(2, 2, "0.0", 2, 30000),
        line(5, 1, "40.0", 1, 35000),
        line(5, 2, "-20.0", 4, 10000),
    ]
    by_firsts = ranking.qualifying_rank(lines, [2, 5], {}, ["firsts"])
    assert [r.player for r in by_firsts] == [5, 2] and not by_firsts[0].shared
    by_best = ranking.qualifying_rank(lines, [2, 5], {}, ["best_game"])
    assert [r.player for r in by_best] == [2, 5]
    by_places = ranking.qualifying_rank(lines, [2, 5], {}, ["places"])  # 2nd, 2nd beats 1st, 4th
    assert [r.player for r in by_places] == [2, 5]
    level = [line(7, 1, "10.0", 2, 30000), line(8, 1, "10.0", 2, 30000)]
    rows = ranking.qualifying_rank(level, [7, 8], {}, ["firsts", "places", "best_game"])
    assert rows[0].rank == rows[1].rank == 1 and rows[0].shared


def test_penalties_are_deducted():
    rows = ranking.qualifying_rank([line(1, 1, "30.0", 1), line(2, 1, "20.0", 2)], [1, 2], {1: D("20")}, [])
    assert [(r.player, r.points) for r in rows] == [(2, D("20.0")), (1, D("10.0"))]


def test_unknown_tiebreaks_are_refused():
    with pytest.raises(ValueError):
        ranking.tiebreaks_check(["coin_toss"])
    with pytest.raises(ValueError):
        ranking.tiebreaks_check(["firsts", "firsts"])


@pytest.mark.parametrize("rule,carried", [("carry", D("60.0")), ("half", D("30.0")), ("reset", D("0"))])
def test_the_final_carries_points_as_the_event_says(rule, carried):
    qualifying = ranking.qualifying_rank(
        [line(p, 1, str(pts), 1) for p, pts in [(1, 60), (2, 40), (3, 20), (4, 10), (5, 5), (6, 0)]],
        [1, 2, 3, 4, 5, 6],
        {},
        [],
    )
    final = [line(1, 7, "-30.0", 4), line(2, 7, "35.0", 1), line(3, 7, "5.0", 2), line(4, 7, "-10.0", 3)]
    rows = ranking.final_rank(qualifying, final, 4, rule)
    top = {r.player: r for r in rows[:4]}
    assert top[1].carried == carried and top[1].points == carried - 30
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]
    assert [r.player for r in rows[4:]] == [5, 6]  # the rest keep their qualifying order
    if rule == "reset":
        assert [r.player for r in rows[:4]] == [2, 3, 4, 1]


def test_a_tie_in_the_final_goes_to_the_better_qualifier():
    qualifying = ranking.qualifying_rank(
        [line(p, 1, str(pts), 1) for p, pts in [(1, 40), (2, 30), (3, 20), (4, 10)]], [1, 2, 3, 4], {}, []
    )
    final = [line(1, 7, "0", 2), line(2, 7, "10", 1), line(3, 7, "-5", 3), line(4, 7, "-5", 4)]
    rows = ranking.final_rank(qualifying, final, 4, "carry")
    assert [r.player for r in rows[:2]] == [1, 2]  # both on 40: player 1 qualified higher


def test_team_standings_count_the_best_members_or_all():
    rows = ranking.qualifying_rank(
        [line(p, 1, str(pts), 1) for p, pts in [(1, 50), (2, 30), (3, -10), (4, 20)]], [1, 2, 3, 4], {}, []
    )
    teams = {1: "Dragons", 2: "Dragons", 3: "Dragons", 4: "Winds"}
    best = ranking.team_rank(rows, teams, "best", 2)
    assert [(t.team, t.points) for t in best] == [("Dragons", D("80.0")), ("Winds", D("20.0"))]
    every = ranking.team_rank(rows, teams, "all", 2)
    assert every[0].points == D("70.0")


def test_mers_base_points_run_from_1000_to_0():
    assert ema.mers_base(1, 40) == 1000
    assert ema.mers_base(40, 40) == 0
    assert ema.mers_base(2, 40) == 974  # 1000 × 38 / 39
    assert ema.mers_base(1, 1) == 1000
    assert ema.mers_base(75, 100) == 252  # the EMA's own example (252.5…: cut, not rounded)
    assert ema.mers_base(50, 100) == 505


def test_mers_weight_adds_days_players_nations_and_qualification():
    assert ema.mers_weight(days=1, players=40, nations=5) == 1
    assert ema.mers_weight(days=2, players=41, nations=6) == 3
    assert ema.mers_weight(days=3, players=81, nations=10, qualification=True) == 6
    assert ema.mers_weight(days=2, players=80, nations=9) == D("3.0")


def test_ema_numbers_and_nations_are_checked():
    assert ema.ema_number_check("04010012") == "04010012"
    assert ema.ema_number_check("") == ""
    for bad in ("4010012", "0401001X", "040100123"):
        with pytest.raises(ValueError):
            ema.ema_number_check(bad)
    assert ema.nationality_check("hkg") == "HKG"
    with pytest.raises(ValueError):
        ema.nationality_check("HK")


def test_the_ema_file_has_a_header_and_a_row_per_player():
    text = ema.ema_csv(
        [ema.Placed(1, "Tai Man Chan", "11000001", "HKG", D("85.5")), ema.Placed(2, "Mika", "", "JPN", D("-85.5"))]
    )
    lines = text.split("\r\n")
    assert lines[0] == "Position,Last name,First name,EMA number,Nationality,Points,MERS base,Withdrawn"
    assert lines[1] == "1,Chan,Tai Man,11000001,HKG,85.5,1000,"
    assert lines[2] == "2,Mika,,,JPN,-85.5,0,"
