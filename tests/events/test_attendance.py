"""Issue 35 item 8: withdraw, drop out and late arrival are desk actions at any time; the rounds
seated but not started are seated again for the players present; wherever an absent or withdrawn
player is still seated the desk (and the table's page) says so."""

import datetime as dt

import pytest
from django.test import Client

from events import selectors, services
from events.models import Registration
from kyoku.models import AuditLog
from league.models import Game, GameSeat, Player

from .conftest import SCORES


def _desk(admin):
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(admin)
    return c


def _seated(event, number):
    return set(
        GameSeat.objects.filter(game__season=event.season, game__match_day=number).values_list("player_id", flat=True)
    )


def _play(event, number, admin):
    for game in Game.objects.filter(season=event.season, match_day=number):
        services.table_result_enter(game=game, scores=SCORES, actor=admin)


@pytest.fixture
def byes_event(league, admin, rules):
    """Seventeen registered, sixteen checked in, four rounds seated with byes; round 1 played."""
    event = services.event_create(
        league=league,
        name="Bye Open",
        slug="bye-open",
        starts_on=dt.date(2026, 12, 5),
        ends_on=dt.date(2026, 12, 5),
        rule_set=rules,
        capacity=20,
        rounds=4,
        round_minutes=60,
        cut=0,
        leftover="byes",
        actor=admin,
    )
    players = [Player.objects.create(display_name=f"By {i:02d}", membership_number=f"BY{i:03d}") for i in range(17)]
    regs = [services.registration_add(event=event, player=p, actor=admin) for p in players]
    for reg in regs[:16]:
        services.checkin_set(registration=reg, present=True, actor=admin)
    services.event_status_set(event=event, status="running", actor=admin)
    services.seating_plan(event=event, actor=admin, time_limit=1)
    _play(event, 1, admin)
    return event, players, regs


def test_a_late_arrival_is_seated_in_the_rounds_not_started_without_a_bye(byes_event, admin):
    event, players, regs = byes_event
    late = regs[16]
    response = _desk(admin).post(
        f"/events/{event.pk}/desk/", {"action": "checkin", "registration": late.pk}, follow=True
    )
    assert "Rounds 2, 3, 4 seated again for the players present." in response.content.decode()
    # seventeen for sixteen seats: one bye a round, never the late arrival (the missed round was
    # their turn: matchdays.seating gives byes to who sat out least), and never twice the same
    byes = []
    for n in (2, 3, 4):
        seated = _seated(event, n)
        assert late.player_id in seated and len(seated) == 16
        byes += [p.pk for p in players if p.pk not in seated]
    assert len(set(byes)) == 3
    assert _seated(event, 1) == {p.pk for p in players[:16]}  # the round played stays as it was
    assert AuditLog.objects.filter(action="event.late_arrival", object_id=str(late.pk)).exists()


def test_the_director_withdraws_a_player_while_the_event_runs(byes_event, admin):
    event, players, regs = byes_event
    leaving = regs[3]
    assert leaving.player_id in _seated(event, 2)
    page = _desk(admin).get(f"/events/{event.pk}/desk/").content.decode()
    assert f'name="registration" value="{leaving.pk}"><input type="hidden" name="action" value="withdraw"' in page
    response = _desk(admin).post(
        f"/events/{event.pk}/desk/", {"action": "withdraw", "registration": leaving.pk}, follow=True
    )
    body = response.content.decode()
    assert "Registration has closed" not in body and "has withdrawn" in body
    assert Registration.objects.get(pk=leaving.pk).status == "withdrawn"
    for n in (2, 3, 4):
        assert leaving.player_id not in _seated(event, n)
    assert selectors.seating_warnings(event) == []
    # ranked with the game played, marked as withdrawn
    row = next(r for r in selectors.event_standings(event) if r.player == leaving.player_id)
    assert row.withdrawn and row.games == 1


def test_a_player_seated_but_absent_is_warned_where_the_plan_cannot_reseat(league, admin, rules, field):
    event = services.event_create(
        league=league,
        name="Sub Open",
        slug="sub-open",
        starts_on=dt.date(2026, 12, 6),
        ends_on=dt.date(2026, 12, 6),
        rule_set=rules,
        capacity=16,
        rounds=3,
        round_minutes=60,
        cut=0,
        actor=admin,
    )
    regs = [services.registration_add(event=event, player=p, actor=admin) for p in field]
    for reg in regs:
        services.checkin_set(registration=reg, present=True, actor=admin)
    services.event_status_set(event=event, status="running", actor=admin)
    services.seating_plan(event=event, actor=admin, time_limit=1)
    _play(event, 1, admin)
    gone = regs[5]
    response = _desk(admin).post(
        f"/events/{event.pk}/desk/", {"action": "checkout", "registration": gone.pk}, follow=True
    )
    body = response.content.decode()
    # fifteen present and substitutes fill the last table: the director is told what is missing
    assert "The rounds not started were not seated again:" in body and "add 1 substitute (or seat with byes)" in body
    warnings = selectors.seating_warnings(event)
    assert {(w["round"], w["why"]) for w in warnings} == {(2, "absent"), (3, "absent")}
    assert "Seated but not playing" in body and "marked absent" in body
    game = Game.objects.get(season=event.season, match_day=2, seats__player_id=gone.player_id)
    assert "marked absent" in Client().get(f"/events/tables/{game.pk}/").content.decode()
    # a substitute arrives: the plan seats the rounds again and the warning goes
    sub = Player.objects.create(display_name="Sub Arrives", membership_number="SUB001")
    services.registration_add(event=event, player=sub, substitute=True, actor=admin)
    _desk(admin).post(f"/events/{event.pk}/desk/", {"action": "plan"})
    assert selectors.seating_warnings(event) == []
    assert sub.pk in _seated(event, 2)


def test_substitutes_fill_the_last_table_and_a_waiting_registration_says_so(league, admin, rules, field):
    event = services.event_create(
        league=league,
        name="Fill Open",
        slug="fill-open",
        starts_on=dt.date(2026, 12, 7),
        ends_on=dt.date(2026, 12, 7),
        rule_set=rules,
        capacity=14,
        rounds=3,
        round_minutes=60,
        cut=0,
        actor=admin,
    )
    for p in field[:14]:
        services.checkin_set(
            registration=services.registration_add(event=event, player=p, actor=admin), present=True, actor=admin
        )
    # the fifteenth is turned away to the waiting list, and the desk says so with the place (the
    # desk adds by number a member of the event's league: tests/people/test_desk_numbers.py)
    from league.models import LeagueMembership

    LeagueMembership.objects.create(league=league, player=field[14], via=LeagueMembership.Via.ADMIN)
    response = _desk(admin).post(
        f"/events/{event.pk}/desk/",
        {"action": "register", "membership_number": field[14].membership_number},
        follow=True,
    )
    assert "is on the waiting list, place 1." in response.content.decode()
    subs = [Player.objects.create(display_name=f"Fill Sub {i}", membership_number=f"FS{i}") for i in range(2)]
    for p in subs:
        services.registration_add(event=event, player=p, substitute=True, actor=admin)
    services.event_status_set(event=event, status="running", actor=admin)
    services.seating_plan(event=event, actor=admin, time_limit=1)
    for n in (1, 2, 3):
        last = Game.objects.get(season=event.season, match_day=n, table=4)
        assert {p.pk for p in subs} <= set(last.seats.values_list("player_id", flat=True))
