"""The demo copied from memory (tests/demo_snapshot.py) is the demo ``seed_demo`` loaded: every
model's rows as the ORM read them right after the seeding, whatever the test had written before;
rows added after it get fresh ids; the moments taken from the seeding's clock move to the copy's."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone

from events.models import Event, Round
from kyoku.models import League
from league.models import Game, Player, Season
from tests.demo_snapshot import demo_models, orm_digest


@pytest.mark.parametrize("state", ["pending", "committed"])
def test_the_written_rows_are_the_seeded_rows(db, demo_rows, state):
    rows = getattr(demo_rows, state)
    League.objects.create(name="Left over", slug="left-over")  # a test's own rows: gone after the write
    rows.write(at=rows.seeded_at)
    assert orm_digest() == rows.digest  # every model's row count and rows, as read after the seeding
    assert not League.objects.filter(slug="left-over").exists()
    # the two states differ by the work queued for the commit: the ratings follow the results there
    assert (rows.digest["ratings.RatingEvent"][0] > 0) is (state == "committed")
    for model in demo_models():
        for field in model._meta.concrete_fields:
            if isinstance(field, models.FileField):
                for name in model._base_manager.exclude(**{field.attname: ""}).values_list(field.attname, flat=True):
                    assert field.storage.exists(name), (model._meta.label, name)


def test_rows_added_after_the_write_get_fresh_ids(demo):
    for model, make in (
        (League, lambda: League.objects.create(name="New", slug="new")),
        (Player, lambda: Player.objects.create(display_name="New Player", membership_number="NEW1")),
        (get_user_model(), lambda: get_user_model().objects.create_user("newcomer")),
    ):
        highest = model.objects.order_by("-pk").values_list("pk", flat=True)[0]
        assert make().pk > highest, model


def test_the_demo_round_is_35_minutes_in_whenever_it_is_written(demo, demo_rows):
    """events/demo.py: "round 5: 35 minutes gone on the clock", its event running today: as just
    after a seeding, however long ago the session's seeding ran."""
    event = Event.objects.get(slug="winter-open-2026")
    started = Round.objects.get(event=event, number=5).started_at
    seeding = demo_rows.pending.seeded_at - demo_rows.pending.seeding_began
    gone = timezone.now() - started
    assert dt.timedelta(minutes=35) <= gone <= dt.timedelta(minutes=36) + seeding, gone
    assert event.starts_on == timezone.localdate()


def test_moments_written_in_the_demo_stay_and_those_of_its_clock_move(db, demo_rows):
    rows = demo_rows.pending
    rows.write(at=rows.seeded_at)
    started = Round.objects.get(event__slug="winter-open-2026", number=5).started_at
    starts_on = Event.objects.get(slug="winter-open-2026").starts_on
    rows.write(at=rows.seeded_at + dt.timedelta(days=3))
    assert Round.objects.get(event__slug="winter-open-2026", number=5).started_at == started + dt.timedelta(days=3)
    assert Event.objects.get(slug="winter-open-2026").starts_on == starts_on + dt.timedelta(days=3)
    # seed_demo's own dates: the Hong Kong league's 2026 S1 from 10 January, its first match day at 14:00
    season = Season.objects.get(league__slug="hkrl", year=2026, number=1)
    assert season.starts_on == dt.date(2026, 1, 10)
    first = Game.objects.filter(season=season, match_day=1).first()
    assert timezone.localtime(first.scheduled_at).replace(tzinfo=None) == dt.datetime(2026, 1, 10, 14, 0)
