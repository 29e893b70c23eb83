"""Issue 50 loose end on the table page: "Time is up: finish the hand in play…" only while the
round is in its time-up phase, never on a round not started or over."""

from __future__ import annotations

import datetime as dt
import re

from django.test import Client
from django.utils import timezone

from events import services
from events.models import Round
from league.models import Game
from tests.events.conftest import event, field, in_play, rules, running  # noqa: F401

NOTE = "Time is up: finish the hand in play"


def _page(client: Client, game: Game) -> str:
    return client.get(f"/events/tables/{game.pk}/").content.decode()


def _note_tag(page: str) -> str | None:
    found = re.search(r'<p class="ev-last-hand"[^>]*id="last-hand"[^>]*>', page)
    return found.group(0) if found else None


def test_the_time_up_note_only_in_the_time_up_phase(in_play, admin):  # noqa: F811
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(admin)
    round1, round2 = (in_play.round_set.get(number=n) for n in (1, 2))
    game1 = Game.objects.filter(season=in_play.season, match_day=1).order_by("table").first()
    game2 = Game.objects.filter(season=in_play.season, match_day=2).order_by("table").first()
    assert NOTE not in _page(client, game2)  # round 2 has not started
    page = _page(client, game1)  # round 1 plays: the note waits, hidden, for the clock's end
    assert " hidden " in _note_tag(page)
    Round.objects.filter(pk=round1.pk).update(started_at=timezone.now() - dt.timedelta(minutes=61))
    page = _page(client, game1)  # time is up: the note shows
    assert " hidden " not in _note_tag(page)
    assert "Time is up" in page
    services.round_clock_set(round_=Round.objects.get(pk=round1.pk), action="end", actor=admin)
    page = _page(client, game1)  # the round is over
    assert NOTE not in page and 'id="last-hand"' not in page
