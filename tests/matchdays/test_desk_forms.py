"""The match-day desk: one Save for the whole division's attendance, and match days added from the
season's match-day page (both through the audited services)."""

from __future__ import annotations

import datetime

from django.urls import reverse

from kyoku.models import AuditLog
from matchdays.models import Attendance, MatchDay


def test_one_save_marks_the_whole_division(client, admin, day1, players):
    client.force_login(admin)
    page = client.get(reverse("matchday", args=[day1.pk])).content.decode()
    assert page.count('id="md-attendance-save"') == 1  # one Save, not one per player
    assert page.count('name="status-') == 8
    post = {f"status-{p.pk}": "attending" for p in players[:8]}
    post[f"status-{players[2].pk}"] = "absent"
    post[f"status-{players[5].pk}"] = "withdrawn"
    response = client.post(reverse("matchday-attendance-roster", args=[day1.pk]), post, follow=True)
    assert "2 changes" in response.content.decode()
    marked = dict(Attendance.objects.filter(match_day=day1).values_list("player_id", "status"))
    assert marked == {players[2].pk: "absent", players[5].pk: "withdrawn"}  # the default writes nothing
    assert AuditLog.objects.filter(action="attendance.mark").count() == 2
    # the page shows what was saved, and saving it again changes nothing
    page = client.get(reverse("matchday", args=[day1.pk])).content.decode()
    assert '<option value="absent" selected>' in page
    response = client.post(reverse("matchday-attendance-roster", args=[day1.pk]), post, follow=True)
    assert "0 changes" in response.content.decode()


def test_a_bad_status_stores_nothing(client, admin, day1, players):
    client.force_login(admin)
    post = {f"status-{p.pk}": "attending" for p in players[:8]}
    post[f"status-{players[1].pk}"] = "absent"
    post[f"status-{players[2].pk}"] = "on holiday"
    client.post(reverse("matchday-attendance-roster", args=[day1.pk]), post)
    assert not Attendance.objects.filter(match_day=day1).exists()


def test_a_player_cannot_use_the_roster(client, day1, players, member):
    client.force_login(member)
    post = {f"status-{players[0].pk}": "absent"}
    assert client.post(reverse("matchday-attendance-roster", args=[day1.pk]), post).status_code == 403
    assert not Attendance.objects.filter(match_day=day1).exists()


def test_an_admin_adds_a_match_day_numbered_after_the_last(client, admin, season, day1, division_a):
    client.force_login(admin)
    page = client.get(reverse("matchday-list", args=[season.pk])).content.decode()
    assert 'id="matchday-add-form"' in page
    response = client.post(
        reverse("matchday-add", args=[season.pk]),
        {
            "division": division_a.pk,
            "number": "",
            "date": "2026-12-19",
            "start_time": "14:00",
            "venue": "Mong Kok hall",
            "leftover": "bye",
        },
        follow=True,
    )
    day = MatchDay.objects.get(division=division_a, number=2)
    assert day.date == datetime.date(2026, 12, 19) and day.venue == "Mong Kok hall"
    assert "Match day 2 added." in response.content.decode()
    # the same number again is refused in words, and nothing is stored
    response = client.post(
        reverse("matchday-add", args=[season.pk]),
        {"division": division_a.pk, "number": "2", "date": "2026-12-26", "leftover": "bye"},
        follow=True,
    )
    assert "already exists" in response.content.decode()
    assert MatchDay.objects.filter(division=division_a).count() == 2


def test_anonymous_visitors_see_no_add_form(client, season):
    assert 'id="matchday-add-form"' not in client.get(reverse("matchday-list", args=[season.pk])).content.decode()


def test_a_referee_who_is_not_an_admin_marks_the_roster_too(client, referee, day1, players):
    client.force_login(referee)
    page = client.get(reverse("matchday", args=[day1.pk])).content.decode()
    assert page.count('id="md-attendance-save"') == 1 and 'id="generate-form"' not in page  # no seating tools
    post = {f"status-{p.pk}": "attending" for p in players[:8]}
    post[f"status-{players[7].pk}"] = "absent"
    client.post(reverse("matchday-attendance-roster", args=[day1.pk]), post)
    assert Attendance.objects.get(match_day=day1, player=players[7]).status == "absent"
