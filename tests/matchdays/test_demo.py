"""The demo league carries coming match days: the flow (review, swap, publish) works on it."""

import pytest

from league.models import Game
from matchdays import services
from matchdays.models import MatchDay, Reserve, SeatingPlan
from kyoku.principals import SYSTEM

pytestmark = pytest.mark.django_db


def test_demo_match_days_publish(demo):
    days = MatchDay.objects.filter(season__league__slug="hkrl", season__number=2)
    assert days.count() == 4  # two per division
    draft = days.filter(status=MatchDay.Status.SEATED).order_by("division__order").first()
    plan = SeatingPlan.objects.get(match_day=draft)
    entered = set(draft.division.entries.values_list("player_id", flat=True))
    assert {p for t in plan.tables for p in t} | set(plan.byes) == entered
    # four match days already played or scheduled in the division: repeats are counted against them
    assert plan.figures["repeats"] >= 0 and "unmet" in plan.figures
    assert Reserve.objects.filter(season=draft.season).count() == 2
    games = services.seating_publish(plan=plan, actor=SYSTEM)
    assert len(games) == len(plan.tables)
    assert Game.objects.filter(division=draft.division, match_day=draft.number).count() == len(plan.tables)
