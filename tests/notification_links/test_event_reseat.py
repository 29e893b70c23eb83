"""A tournament's rounds seated again (a change of attendance re-plans the rounds not started):
the tables' addresses sent with the first seating still answer, saying what replaced them."""

from __future__ import annotations

from django.test import Client

from events import services as events
from league.models import Game
from notifications.models import Notification
from tests.events.conftest import event, field, rules, running  # noqa: F401


def test_a_table_seated_again_still_answers_at_the_address_sent(running, admin):  # noqa: F811
    first = list(Notification.objects.filter(kind="seating_published").select_related("recipient"))
    assert len(first) == 4  # p0 … p3, the players with logins
    before = set(Game.objects.filter(season=running.season).values_list("pk", flat=True))
    # the director plans the rounds not started again (another seed)
    events.seating_plan(event=running, actor=admin, seed=7, time_limit=2)
    assert not before & set(Game.objects.filter(season=running.season).values_list("pk", flat=True))
    for n in first:
        client = Client()
        client.force_login(n.recipient)
        response = client.get(n.link)
        assert response.status_code == 200, n.link
        page = response.content.decode()
        assert "This table was replaced" in page and "round 1, table" in page
        # the player's table now, on the tournament's table pages
        now = Game.objects.get(season=running.season, match_day=1, seats__player__user=n.recipient)
        assert f'<a href="/events/tables/{now.pk}/">table {now.table}</a>' in page
    # and the new seating's links lead to the new tables
    for n in Notification.objects.filter(kind="seating_published").exclude(pk__in=[n.pk for n in first]):
        client = Client()
        client.force_login(n.recipient)
        assert client.get(n.link).status_code == 200
    assert Client().get("/events/tables/999999/").status_code == 404  # a table that never was
