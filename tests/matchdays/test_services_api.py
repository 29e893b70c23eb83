"""Match day services, API and permissions: generate, review figures, swap, publish, republish,
attendance, substitutes, sheets and calendars."""

import itertools

import pytest
from django.core.exceptions import ValidationError

from league.models import Game, GameSeat
from matchdays import services
from matchdays.models import Attendance, SeatingConstraint, SeatingPlan, Substitution

pytestmark = pytest.mark.django_db


def _audit(action):
    from kyoku.models import AuditLog

    return AuditLog.objects.filter(action=action)


def _pairs(tables):
    return {frozenset(p) for t in tables for p in itertools.combinations([x for x in t if x], 2)}


def test_generate_seats_everyone_and_figures_match(day1, day2, players, admin):
    plan1 = services.seating_generate(match_day=day1, seed=1, actor=admin)
    seated = [p for t in plan1.tables for p in t]
    assert sorted(seated) == sorted(p.pk for p in players) and plan1.byes == []
    assert plan1.figures["repeats"] == 0 and plan1.figures["wind_imbalance"] == 8  # 8 players, one wind each
    # the season's history is what was published (the league's games), not unpublished drafts
    assert services.seating_generate(match_day=day2, seed=1, actor=admin).figures["repeats"] == 0
    services.seating_publish(plan=plan1, actor=admin)
    plan2 = services.seating_generate(match_day=day2, seed=1, actor=admin)
    # eight players in two tables: day 2 must repeat; each day-2 table holds 2+2 from day-1 tables
    shared = len(_pairs(plan1.tables) & _pairs(plan2.tables))
    assert plan2.figures["repeats"] == shared == 4
    assert plan2.figures["consecutive_repeats"] == 4
    assert _audit("seating.generate").count() == 3


def test_absent_players_get_no_seat_and_byes(day1, players, member, admin):
    services.attendance_mark(match_day=day1, player=players[0], status="absent", actor=member)
    plan = services.seating_generate(match_day=day1, seed=0, actor=admin)
    assert players[0].pk not in [p for t in plan.tables for p in t] + plan.byes
    assert len(plan.tables) == 1 and len(plan.byes) == 3


def test_constraints_kept_and_reported(day1, season, players, admin, client):
    SeatingConstraint.objects.create(season=season, kind="apart", player=players[0], other=players[1])
    SeatingConstraint.objects.create(season=season, kind="table", player=players[2], table=2)
    plan = services.seating_generate(match_day=day1, seed=3, actor=admin)
    where = {p: i for i, t in enumerate(plan.tables) for p in t}
    assert where[players[0].pk] != where[players[1].pk] and where[players[2].pk] == 1
    assert plan.figures["unmet"] == []
    # swapping player 1 next to player 0 breaks the rule: the review says so
    other = next(p for p in plan.tables[where[players[0].pk]] if p not in (players[0].pk, players[2].pk))
    plan = services.seating_swap(plan=plan, player_a=other, player_b=players[1].pk, actor=admin)
    kinds = [u["kind"] for u in plan.figures["unmet"]]
    assert "apart" in kinds
    client.force_login(admin)
    page = client.get(f"/matchdays/{day1.pk}/").content.decode()
    assert "Player 1 and Player 2 must not meet but share table" in page


def test_swap_updates_figures_and_publish_republish(day1, day2, players, admin):
    services.seating_publish(plan=services.seating_generate(match_day=day1, seed=1, actor=admin), actor=admin)
    plan = services.seating_generate(match_day=day2, seed=1, actor=admin)
    a, b = plan.tables[0][0], plan.tables[1][0]
    before = plan.figures["repeats"]
    plan = services.seating_swap(plan=plan, player_a=a, player_b=b, actor=admin)
    assert plan.tables[0][0] == b and plan.tables[1][0] == a and plan.revision == 2
    day1_tables = SeatingPlan.objects.get(match_day=day1).tables
    assert plan.figures["repeats"] == len(_pairs(day1_tables) & _pairs(plan.tables))
    assert isinstance(before, int)
    games = services.seating_publish(plan=plan, actor=admin)
    assert [g.table for g in games] == [1, 2]
    for g, t in zip(games, plan.tables):
        assert list(g.seats.order_by("seat").values_list("player_id", flat=True)) == t
    assert _audit("seating.publish").count() == 2
    plan = services.seating_swap(plan=plan, player_a=a, player_b=b, actor=admin)
    services.seating_publish(plan=plan, actor=admin)
    assert _audit("seating.republish").count() == 1
    assert Game.objects.filter(division=day2.division, match_day=2).count() == 2
    assert (
        list(
            Game.objects.get(division=day2.division, match_day=2, table=1)
            .seats.order_by("seat")
            .values_list("player_id", flat=True)
        )
        == plan.tables[0]
    )


def test_republish_refused_once_a_game_has_a_result(day1, admin):
    from league import services as league_services

    plan = services.seating_generate(match_day=day1, seed=0, actor=admin)
    games = services.seating_publish(plan=plan, actor=admin)
    league_services.game_result_record(game=games[0], scores=[40000, 30000, 20000, 10000], actor=admin)
    services.seating_publish(plan=plan, actor=admin)  # unchanged: the played game stays as it is
    assert Game.objects.get(pk=games[0].pk).status == Game.Status.FINISHED
    # a seating that changes the played table is refused
    plan = services.seating_swap(plan=plan, player_a=plan.tables[0][0], player_b=plan.tables[1][0], actor=admin)
    with pytest.raises(ValidationError):
        services.seating_publish(plan=plan, actor=admin)


def test_substitute_from_reserve_recorded_on_the_game(day1, players, reserve, admin, client):
    plan = services.seating_generate(match_day=day1, seed=0, actor=admin)
    services.seating_publish(plan=plan, actor=admin)
    out = GameSeat.objects.get(player_id=plan.tables[0][2], game__match_day=1).player
    sub = services.substitution_make(match_day=day1, player_out=out, player_in=reserve, actor=admin)
    seat = GameSeat.objects.get(game=sub.game, seat=2)
    assert seat.player == reserve and sub.player_out == out
    assert Attendance.objects.get(match_day=day1, player=out).status == "withdrawn"
    page = client.get(f"/matchdays/{day1.pk}/").content.decode()
    assert "Reserve R substitutes for" in page
    with pytest.raises(ValidationError):  # a non-reserve cannot substitute
        services.substitution_make(
            match_day=day1,
            player_out=GameSeat.objects.get(player_id=plan.tables[1][0]).player,
            player_in=players[1],
            actor=admin,
        )
    assert Substitution.objects.count() == 1


def test_services_refuse_other_league_admin(day1, league, players):
    from kyoku.models import League, LeagueRole
    from tests.actors import make_role_user

    other = League.objects.create(name="Other", slug="other")
    stranger = make_role_user("stranger", other, LeagueRole.Role.ADMIN)
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.seating_generate(match_day=day1, seed=0, actor=stranger)


# ---------------------------------------------------------------- API


def test_api_flow_and_permissions(api, day1, admin, member, outsider, players):
    url = f"/api/matchdays/{day1.pk}/"
    assert api.get(url).status_code == 200
    assert api.get(url + "seating/").status_code == 404  # nothing published yet
    api.force_authenticate(outsider)
    assert api.post(url + "seating/", {"seed": 1}, format="json").status_code == 403
    api.force_authenticate(member)
    assert api.post(url + "seating/", {"seed": 1}, format="json").status_code == 403
    r = api.post(url + "attendance/", {"status": "absent"}, format="json")
    assert r.status_code == 200 and r.json()["player"] == players[0].pk
    # a player cannot mark someone else
    assert (
        api.post(url + "attendance/", {"status": "absent", "player": players[1].pk}, format="json").status_code == 403
    )
    api.force_authenticate(admin)
    assert (
        api.post(url + "attendance/", {"status": "attending", "player": players[0].pk}, format="json").status_code
        == 200
    )
    r = api.post(url + "seating/", {"seed": 5}, format="json", HTTP_IDEMPOTENCY_KEY="gen-1")
    assert r.status_code == 201
    r2 = api.post(url + "seating/", {"seed": 5}, format="json", HTTP_IDEMPOTENCY_KEY="gen-1")
    assert r2.json()["revision"] == r.json()["revision"] == 1  # replayed, not generated twice
    tables = r.json()["tables"]
    r = api.post(url + "swap/", {"player_a": tables[0][0], "player_b": tables[1][1]}, format="json")
    assert r.status_code == 200 and r.json()["tables"][0][0] == tables[1][1]
    r = api.post(url + "publish/", format="json")
    assert r.status_code == 200 and len(r.json()["games"]) == 2
    api.force_authenticate(None)
    assert api.get(url + "seating/").json()["published_revision"] == 2


def test_api_bad_input_names_the_field(api, day1, admin, division_a):
    api.force_authenticate(admin)
    url = f"/api/matchdays/{day1.pk}/"
    for body, field in [({"seed": 10**30}, "seed"), ({"seed": "x"}, "seed")]:
        r = api.post(url + "seating/", body, format="json")
        assert r.status_code == 400 and field in r.content.decode(), r.content
    r = api.post(url + "swap/", {"player_a": 1}, format="json")
    assert r.status_code in (400, 404)
    body = '{"division": %d, "number": 3, "date": "2026-12-19", "venue": "\\udfff"}' % division_a.pk
    r = api.post("/api/matchdays/", body, content_type="application/json")
    assert r.status_code == 400 and "venue" in r.content.decode()
    r = api.post(
        "/api/matchdays/", {"division": division_a.pk, "number": 3, "date": "2026-12-19", "colour": 1}, format="json"
    )
    assert r.status_code == 400 and "colour" in r.json()["errors"]
    r = api.post(
        "/api/matchdays/",
        {"division": division_a.pk, "number": 3, "date": "2026-12-19", "venue": "Hall"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="md-3",
    )
    assert r.status_code == 201
    r2 = api.post(
        "/api/matchdays/",
        {"division": division_a.pk, "number": 3, "date": "2026-12-19", "venue": "Hall"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="md-3",
    )
    assert r2.status_code == 201 and r2.json()["id"] == r.json()["id"]
    from matchdays.models import MatchDay

    assert MatchDay.objects.filter(number=3).count() == 1


# ---------------------------------------------------------------- pages


def test_pages_sheet_and_calendars(client, day1, admin, players, member):
    assert "The seating is not published yet." in client.get(f"/matchdays/{day1.pk}/").content.decode()
    plan = services.seating_generate(match_day=day1, seed=2, actor=admin)
    # drafts are for admins only
    assert client.get(f"/matchdays/{day1.pk}/tables/1/sheet/").status_code == 404
    services.seating_publish(plan=plan, actor=admin)
    sheet = client.get(f"/matchdays/{day1.pk}/tables/1/sheet/").content.decode()
    names = {p.pk: p.display_name for p in players}
    for pid in plan.tables[0]:
        assert names[pid] in sheet
    assert "East" in sheet and "North" in sheet
    assert sheet.count("<tr><td>") >= 24  # room for a long hanchan, not 12 hands
    assert client.get(f"/matchdays/{day1.pk}/tables/3/sheet/").status_code == 404
    cal = client.get(f"/seasons/{day1.season_id}/calendar.ics")
    assert cal["Content-Type"].startswith("text/calendar") and b"Wan Chai hall" in cal.content
    mine = client.get(f"/players/{players[0].pk}/calendar.ics").content.decode()
    table = next(i for i, t in enumerate(plan.tables, start=1) if players[0].pk in t)
    # 14:00 in Hong Kong is 06:00 UTC: an absolute time, not a floating one; stamped now, not 2000
    assert f"table {table}" in mine and "DTSTART:20261205T060000Z" in mine
    assert "DTSTAMP:2000" not in mine and "DTSTAMP:20" in mine
    unfolded = mine.replace("\r\n ", "")
    assert "Test League" in unfolded and "match day 1" in unfolded and "seat" in unfolded
    # a player marks attendance through the page
    client.force_login(member)
    r = client.post(f"/matchdays/{day1.pk}/attendance/", {"status": "absent"})
    assert r.status_code == 302
    assert Attendance.objects.get(match_day=day1, player=players[0]).status == "absent"


def test_admin_pages_post_forms(client, day1, admin, referee):
    client.force_login(referee)
    assert client.post(f"/matchdays/{day1.pk}/generate/", {"seed": 1}).status_code == 403
    client.force_login(admin)
    client.post(f"/matchdays/{day1.pk}/generate/", {"seed": 1})
    page = client.get(f"/matchdays/{day1.pk}/").content.decode()
    assert 'id="fig-repeats">0<' in page
    client.post(f"/matchdays/{day1.pk}/publish/")
    assert Game.objects.filter(match_day=1, division=day1.division).count() == 2


def test_republish_with_an_incident_on_a_game_is_a_409_in_words(day1, admin, referee):
    # the referee desk's incident names the game: its games are recorded facts, never deleted
    from rest_framework.test import APIClient

    from referee import services as referee_services

    plan = services.seating_generate(match_day=day1, seed=0, actor=admin)
    games = services.seating_publish(plan=plan, actor=admin)
    events = [{"t": 0, "seat": 0, "act": "discard"}, {"t": 900, "seat": 1, "act": "draw"}]
    referee_services.incident_log(
        game=games[0],
        hand_number=1,
        dealer=0,
        kind="conduct",
        events=events,
        description="a dispute at the first discard",
        reporter=referee,
    )
    services.seating_publish(plan=plan, actor=admin)  # unchanged: the game stays, nothing to remove
    # a seating that changes the game's table would remove it: refused
    plan = services.seating_swap(plan=plan, player_a=plan.tables[0][0], player_b=plan.tables[1][0], actor=admin)
    with pytest.raises(ValidationError) as err:
        services.seating_publish(plan=plan, actor=admin)
    assert "substitutions" in err.value.message_dict["seating"][0]
    api = APIClient()
    api.force_authenticate(admin)
    r = api.post(f"/api/matchdays/{day1.pk}/publish/", {}, format="json")
    assert r.status_code == 409 and "substitutions" in r.json()["errors"]["seating"][0]
    assert Game.objects.filter(pk=games[0].pk).exists()
