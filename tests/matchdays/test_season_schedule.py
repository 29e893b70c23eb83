"""The app seats a season as the bench does: one plan for the whole season (stored, audited),
published a match day at a time; byes rotate; a departure from the plan plans the rest again."""

import collections
import datetime

import pytest

from league import services as league_services
from league.models import Player
from matchdays import seating, services
from matchdays.models import SeatingSchedule
from kyoku.principals import SYSTEM

pytestmark = pytest.mark.django_db


def _division_of(division, n):
    """Division A with n players entered (the season fixture enters eight)."""
    for i in range(n - 8):
        p = Player.objects.create(display_name=f"Extra {i}", native_name=f"追加{i}", membership_number=f"X{i:03d}")
        league_services.entry_create(division=division, player=p, actor=SYSTEM)
    return sorted(division.entries.values_list("player_id", flat=True))


def _days(division, count, leftover="bye"):
    return [
        services.match_day_create(
            division=division,
            number=k,
            date=datetime.date(2027, 1, 1) + datetime.timedelta(weeks=k),
            leftover=leftover,
            actor=SYSTEM,
        )
        for k in range(1, count + 1)
    ]


def _season_through_the_app(days, seed):
    """Generate and publish each match day in turn, as the director does; the days as played."""
    out = []
    for day in days:
        plan = services.seating_generate(match_day=day, seed=seed, actor=SYSTEM)
        services.seating_publish(plan=plan, actor=SYSTEM)
        plan.refresh_from_db()
        out.append(seating.Day(tables=plan.tables, byes=plan.byes))
    return out


@pytest.mark.parametrize(
    "n,count,leftover", [(22, 8, "bye"), (24, 8, "bye"), (32, 8, "bye"), (68, 19, "bye"), (14, 6, "substitutes")]
)
def test_a_season_seated_day_by_day_gives_the_whole_season_figures(division_a, n, count, leftover):
    players = _division_of(division_a, n)
    days = _days(division_a, count, leftover)
    played = _season_through_the_app(days, seed=5)
    whole = seating.generate(players, count, seed=5, leftover=leftover, time_limit=20)
    figures = seating.schedule_figures(played, players)
    assert [d.tables for d in played] == [d.tables for d in whole.days]
    assert (figures["repeats"], figures["consecutive_repeats"], figures["wind_imbalance"]) == (
        whole.repeats,
        whole.consecutive_repeats,
        whole.wind_imbalance,
    )
    assert figures["wind_imbalance"] == figures["wind_imbalance_min"]
    # one plan for the whole season: the later days were read from it, not planned again
    assert SeatingSchedule.objects.filter(division=division_a).count() == 1
    schedule = SeatingSchedule.objects.get(division=division_a)
    assert schedule.numbers == list(range(1, count + 1)) and schedule.reason == "first plan"
    # the stored plan can be recomputed from its own inputs
    again = seating.generate(
        schedule.players, len(schedule.numbers), seed=schedule.seed, leftover=schedule.leftover, time_limit=20
    )
    assert [d.tables for d in again.days] == [d["tables"] for d in schedule.days]
    # the last match day's review shows the season's figures
    assert days[-1].seating.figures["repeats"] == whole.repeats


def test_the_app_seats_thirty_two_players_ten_days_without_a_repeat(division_a):
    """The published 8-4-10 schedule (seating.designs.published_days) reaches the app: ten match
    days seated one at a time through the service, nobody meets anyone twice."""
    players = _division_of(division_a, 32)
    played = _season_through_the_app(_days(division_a, 10), seed=1)
    figures = seating.schedule_figures(played, players)
    assert figures["repeats"] == 0 and figures["wind_imbalance"] == figures["wind_imbalance_min"]


def test_byes_rotate_over_the_season(division_a):
    # 22 players, two byes a match day, eight match days: 16 byes, so nobody sits out twice
    _division_of(division_a, 22)
    played = _season_through_the_app(_days(division_a, 8), seed=0)
    byes = collections.Counter(p for d in played for p in d.byes)
    assert sum(byes.values()) == 16 and max(byes.values()) == 1


def test_byes_rotate_given_attendance(division_a, players):
    # 21 players attend day 1 (one bye), all 22 afterwards: the absent player has sat out
    # already, so over 11 days (1 + 2 * 10 byes) the 21 others each sit out exactly once
    everyone = _division_of(division_a, 22)
    days = _days(division_a, 11)
    services.attendance_mark(match_day=days[0], player=players[0], status="absent", actor=SYSTEM)
    played = _season_through_the_app(days, seed=1)
    byes = collections.Counter(p for d in played for p in d.byes)
    assert players[0].pk not in byes
    assert set(byes) == set(everyone) - {players[0].pk} and set(byes.values()) == {1}
    # a changed attendance plans the remaining days again, on the record
    reasons = list(SeatingSchedule.objects.filter(division=division_a).values_list("reason", flat=True))
    assert reasons == ["first plan", "attendance"]


def test_a_swap_departs_from_the_plan_and_the_rest_is_planned_again(division_a):
    players = _division_of(division_a, 16)
    days = _days(division_a, 5)
    plan = services.seating_generate(match_day=days[0], seed=2, actor=SYSTEM)
    a, b = plan.tables[0][0], plan.tables[1][0]
    services.seating_publish(plan=services.seating_swap(plan=plan, player_a=a, player_b=b, actor=SYSTEM), actor=SYSTEM)
    services.seating_generate(match_day=days[1], seed=2, actor=SYSTEM)
    schedules = list(SeatingSchedule.objects.filter(division=division_a))
    assert [s.reason for s in schedules] == ["first plan", "played days"]
    assert schedules[1].numbers == [2, 3, 4, 5] and len(schedules[1].history) == 1
    # regenerating the same day with the same seed reads the plan again
    services.seating_generate(match_day=days[1], seed=2, actor=SYSTEM)
    assert SeatingSchedule.objects.filter(division=division_a).count() == 2
    assert sorted(schedules[1].players) == players
