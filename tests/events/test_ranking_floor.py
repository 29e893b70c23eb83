"""Issue 35 (items 1, 7, parts of 9): who is ranked (players who played; withdrawn ones marked),
the tiebreaks chosen on the event form and listed in words, the "firsts" tiebreak comparing firsts
only, the round really current, and page messages without English field codes."""

import datetime as dt
from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from events import ranking, selectors, services
from events.models import Event, Registration
from kyoku.principals import SYSTEM
from league.forms import service_errors_to_form
from league.models import Game, Player

from .conftest import SCORES


def _client(user=None, lang="en"):
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        c.force_login(user)
    return c


def _play_round(event, n, actor=SYSTEM):
    for game in Game.objects.filter(season=event.season, match_day=n):
        services.table_result_enter(game=game, scores=SCORES, actor=actor)


def line(player, rnd, points, place, raw):
    return ranking.Line(player=player, round=rnd, points=D(points), place=place, raw_score=raw)


# 3. "firsts" compares firsts only


def test_firsts_compare_only_firsts_and_the_next_tiebreak_decides():
    # A (1): a first (+40.0, 45,000) and a second (+10.0, 35,000): 50.0 points, firsts 1, seconds 1
    # B (2): a first (+60.0, 50,000) and a third (−10.0, 20,000): 50.0 points, firsts 1, seconds 0
    # Level on points and on firsts. The old key compared seconds next and put A first; now the
    # next tiebreak, the best game, decides: B's 50,000 beats A's 45,000.
    lines = [line(1, 1, "40.0", 1, 45000), line(1, 2, "10.0", 2, 35000)]
    lines += [line(2, 1, "60.0", 1, 50000), line(2, 2, "-10.0", 3, 20000)]
    rows = ranking.qualifying_rank(lines, [1, 2], {}, ["firsts", "best_game"])
    assert [(r.player, r.rank, r.points, r.shared) for r in rows] == [
        (2, 1, D("50.0"), False),
        (1, 2, D("50.0"), False),
    ]
    only_firsts = ranking.qualifying_rank(lines, [1, 2], {}, ["firsts"])  # nothing after: they share 1st
    assert [(r.rank, r.shared) for r in only_firsts] == [(1, True), (1, True)]
    assert ranking.tiebreak_key(rows[0], "firsts") == (1.0,)


# 1. who is ranked


@pytest.fixture
def floor(league, admin, rules):
    """Eighteen registered, sixteen checked in and seated for two rounds; then player 16 checks in
    (checked in, never seated) and player 17 never checks in."""
    event = services.event_create(
        league=league,
        name="Winter Open",
        slug="winter-open",
        starts_on=dt.date(2026, 12, 5),
        ends_on=dt.date(2026, 12, 5),
        rule_set=rules,
        capacity=20,
        rounds=2,
        round_minutes=60,
        cut=0,
        tiebreaks=["fewest_fourths", "firsts"],
        actor=admin,
    )
    players = [
        Player.objects.create(display_name=f"Fl Player {i:02d}", membership_number=f"FL{i:03d}") for i in range(18)
    ]
    regs = [services.registration_add(event=event, player=p, actor=admin) for p in players]
    for reg in regs[:16]:
        services.checkin_set(registration=reg, present=True, actor=admin)
    services.event_status_set(event=event, status="running", actor=admin)
    services.seating_plan(event=event, actor=admin, time_limit=2)
    services.checkin_set(registration=regs[16], present=True, actor=admin)
    event.refresh_from_db()
    return event, players, regs


def test_a_player_who_never_played_is_neither_ranked_nor_exported(floor, admin):
    event, players, regs = floor
    assert selectors.event_standings(event) == []  # nobody has played: nobody is ranked
    _play_round(event, 1, admin)
    rows = selectors.event_standings(event)
    ranked = {r.player for r in rows}
    assert len(rows) == 16 and players[16].pk not in ranked and players[17].pk not in ranked
    assert all(r.games == 1 and not r.withdrawn for r in rows)
    # every table scored 48,000 / 32,000 / 12,000 / 8,000: four players share each place,
    # so the ranks are 1, 5, 9, 13 (each shared by four)
    assert sorted({r.rank for r in rows}) == [1, 5, 9, 13]
    placed = selectors.ema_placed(event)
    assert len(placed) == 16 and "Fl Player 16" not in {p.name for p in placed}
    csv = _client(admin).get(f"/events/{event.pk}/ema.csv").content.decode()
    assert "Fl Player 16" not in csv and "Fl Player 17" not in csv and len(csv.strip().split("\r\n")) == 17


def test_a_player_who_withdrew_after_playing_is_ranked_and_marked(floor, admin):
    event, players, regs = floor
    _play_round(event, 1, admin)
    gone, out = regs[0], regs[1]
    services.registration_withdraw(registration=gone, actor=admin)  # withdrawn after round 1
    services.checkin_set(registration=out, present=False, actor=admin)  # checked out after round 1
    rows = {r.player: r for r in selectors.event_standings(event)}
    assert len(rows) == 16
    seat = Game.objects.get(season=event.season, match_day=1, seats__player=gone.player).seats.get(player=gone.player)
    assert rows[gone.player_id].withdrawn and rows[gone.player_id].games == 1
    assert rows[gone.player_id].points == seat.points  # the one game played counts
    assert rows[out.player_id].withdrawn and rows[out.player_id].games == 1
    assert sum(1 for r in rows.values() if r.withdrawn) == 2
    standings = {r["player"]: r for r in selectors.standings_rows(event, list(rows.values()))}
    assert standings[gone.player_id]["withdrawn"] is True
    assert Registration.objects.get(pk=gone.pk).status == Registration.Status.WITHDRAWN
    for path in (f"/events/{event.pk}/", f"/events/{event.pk}/results/", f"/events/{event.pk}/board/"):
        page = _client().get(path).content.decode()
        assert page.count("(withdrawn)") == 2, path
    assert "退出" in _client(lang="zh-hant").get(f"/events/{event.pk}/results/").content.decode()
    assert "棄権" in _client(lang="ja").get(f"/events/{event.pk}/results/").content.decode()
    board = selectors.board(event)
    assert sum(1 for r in board["standings"] if r["withdrawn"]) == 2


# 2. tiebreaks on the form, listed in words


def _new_event_data(league, rules, **extra):
    return {
        "league": league.pk,
        "name": "Spring Cup",
        "slug": "spring-cup",
        "rule_set": rules.pk,
        "venue": "",
        "starts_on": "2027-03-06",
        "ends_on": "2027-03-06",
        "capacity": "16",
        "rounds": "4",
        "round_minutes": "60",
        "seated_by_standings": "0",
        "cut": "4",
        "final_points": "carry",
        "time_rule": "finish_hand",
        "team_scoring": "none",
        "team_best": "3",
        "leftover": "substitutes",
        **extra,
    }


def test_the_event_form_sets_the_tiebreaks_in_the_order_chosen(league, rules, admin):
    data = _new_event_data(
        league, rules, tiebreak_1="places", tiebreak_2="", tiebreak_3="fewest_fourths", tiebreak_4="firsts"
    )
    response = _client(admin).post("/events/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(slug="spring-cup")
    assert event.tiebreaks == ["places", "fewest_fourths", "firsts"]
    for path in (f"/events/{event.pk}/", f"/events/{event.pk}/results/", f"/events/{event.pk}/desk/"):
        page = _client(admin).get(path).content.decode()
        assert "1. Best average place · 2. Fewest fourth places · 3. Most first places" in page, path
    page = _client(admin, "zh-hant").get(f"/events/{event.pk}/").content.decode()
    assert "Best average place" not in page


def test_the_event_form_refuses_a_tiebreak_twice_and_takes_none(league, rules, admin):
    twice = _new_event_data(league, rules, tiebreak_1="firsts", tiebreak_2="firsts")
    response = _client(admin).post("/events/new/", twice)
    assert response.status_code == 200 and "Each tiebreak at most once." in response.content.decode()
    none = _new_event_data(league, rules, slug="spring-none")
    assert _client(admin).post("/events/new/", none).status_code == 302
    assert Event.objects.get(slug="spring-none").tiebreaks == []  # what was chosen: none


def test_the_form_offers_the_default_tiebreaks(admin):
    page = _client(admin).get("/events/new/").content.decode()
    assert 'name="tiebreak_1"' in page and 'name="tiebreak_4"' in page
    assert '<option value="firsts" selected>' in page


# 4. the round really current; messages without the English field code


def test_the_current_round_follows_the_rounds_played(running, admin):
    assert selectors.current_round(running).number == 1  # nothing played, nothing started
    _play_round(running, 1, admin)
    _play_round(running, 2, admin)  # played without the clock: never "started"
    assert selectors.current_round(running).number == 3
    _play_round(running, 3, admin)
    _play_round(running, 4, admin)
    final = running.round_set.get(number=5)
    cut = selectors.cut_states(running)[0]
    if cut["undecided"]:  # the same scores at every table: level players at the cut, drawn by lots
        tied = [t["player"] for t in cut["tied"]]
        services.cut_decide(event=running, stage="final", order=tied, method="lots", actor=admin)
    services.seating_by_standings(round_=final, actor=admin)
    assert selectors.current_round(running) == final
    page = _client().get(f"/events/{running.pk}/").content.decode()
    assert "<h2>Final</h2>" in page and "Round 1</h2>" not in page
    _play_round(running, 5, admin)
    assert selectors.current_round(running) == final  # the last played


def test_page_messages_do_not_name_the_field_in_english(running, admin, field):
    reg = Registration.objects.get(event=running, player=field[0])
    services.registration_withdraw(registration=reg, actor=admin)
    # checking in a withdrawn player fails on the field "registration" (code not_confirmed)
    page = (
        _client(admin, "zh-hant")
        .post(f"/events/{running.pk}/desk/", {"action": "checkin", "registration": reg.pk}, follow=True)
        .content.decode()
    )
    assert "registration:" not in page
    with pytest.raises(ValidationError) as err:  # the code stays for the API
        services.checkin_set(registration=reg, present=True, actor=admin)
    assert err.value.error_dict["registration"][0].code == "not_confirmed"

    class Form:
        fields: dict = {}

        def __init__(self):
            self.added = []

        def add_error(self, target, msg):
            self.added.append((target, msg))

    form = Form()
    # on a form, an error on a field the form does not have keeps its path: it says where in a
    # record entered as JSON the error is (``events[3].kind``), which the message alone cannot
    service_errors_to_form(form, ValidationError({"events[3].kind": ["inconnu"]}))
    assert form.added == [(None, "events[3].kind: inconnu")]
