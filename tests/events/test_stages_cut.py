"""Issue 35 (items 2, 3 and events in stages): a semi-final and a final, points carried into each
as the event says; a tie at a cut that no tiebreak separates decided by the director (recorded,
audited, shown), never by the listing order; a correction after a cut warns, blocks the stage's
clock until it is seated again, and a started stage is left to the director.

The pure figures are worked by hand (module docstring of events.ranking: carried + stage points,
ties by the rank before the stage; everyone else keeps their place after the stage's players)."""

import datetime as dt
from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.test import APIClient

from events import ranking, selectors, services
from events.models import CutDecision
from kyoku.models import AuditLog
from league.models import Game, GameSeat, Player

# ---------------------------------------------------------------- pure, worked by hand


def row(player, points, rank, shared=False):
    return ranking.Row(player=player, points=D(points), game_points=D(points), rank=rank, shared=shared, games=2)


A, B, C, DD, E, F, G, H = range(1, 9)
QUALIFYING = [
    row(A, "60.0", 1),
    row(B, "45.0", 2),
    row(C, "30.0", 3, True),
    row(DD, "30.0", 3, True),
    row(E, "10.0", 5),
    row(F, "-5.0", 6),
    row(G, "-40.0", 7),
    row(H, "-100.0", 8),
]


def line(player, rnd, points):
    return ranking.Line(player=player, round=rnd, points=D(points), place=0, raw_score=0)


def test_a_cut_between_two_ranks_has_no_tie_and_one_inside_a_shared_rank_has():
    assert ranking.cut_tie(QUALIFYING, 4) == ([], 0)  # ranks 3, 3 | 5
    assert ranking.cut_tie(QUALIFYING, 3) == ([C, DD], 1)  # two level for the one place left
    assert ranking.entrants(QUALIFYING, 4) == [A, B, C, DD]
    with pytest.raises(ranking.CutUndecided) as exc:
        ranking.entrants(QUALIFYING, 3)
    assert (exc.value.tied, exc.value.places) == ([C, DD], 1)
    assert ranking.entrants(QUALIFYING, 3, [DD, C]) == [A, B, DD]  # the draw put D first
    with pytest.raises(ranking.CutUndecided):  # a decision for other players does not apply
        ranking.entrants(QUALIFYING, 3, [DD, E])


def test_a_semi_final_at_half_then_a_final_reset():
    # Semi-final of four, points at half: A 30.0, B 22.5, C 15.0, D 15.0 carried; the semi-final's
    # games: A −20.0, B +5.0, C +30.0, D −15.0 → C 45.0, B 27.5, A 10.0, D 0.0.
    semi = ranking.stage_rank(
        QUALIFYING, [A, B, C, DD], [line(A, 3, "-20.0"), line(B, 3, "5.0"), line(C, 3, "30.0"), line(DD, 3, "-15.0")], "half", "semi_final"
    )
    assert [(r.player, r.rank, r.carried, r.final_points, r.points) for r in semi[:4]] == [
        (C, 1, D("15.0"), D("30.0"), D("45.0")),
        (B, 2, D("22.5"), D("5.0"), D("27.5")),
        (A, 3, D("30.0"), D("-20.0"), D("10.0")),
        (DD, 4, D("15.0"), D("-15.0"), D("0.0")),
    ]
    assert [(r.player, r.rank, r.stage) for r in semi[4:]] == [(E, 5, ""), (F, 6, ""), (G, 7, ""), (H, 8, "")]
    # Final of two, reset: B +20.0, C −20.0 → B first; A and D keep 3rd and 4th from the semi-final.
    final = ranking.stage_rank(semi, [C, B], [line(B, 4, "20.0"), line(C, 4, "-20.0")], "reset", "final")
    assert [(r.player, r.rank, r.points, r.stage) for r in final] == [
        (B, 1, D("20.0"), "final"),
        (C, 2, D("-20.0"), "final"),
        (A, 3, D("10.0"), "semi_final"),
        (DD, 4, D("0.0"), "semi_final"),
        (E, 5, D("10.0"), ""),
        (F, 6, D("-5.0"), ""),
        (G, 7, D("-40.0"), ""),
        (H, 8, D("-100.0"), ""),
    ]
    # level after the final: the better semi-finalist (C, 1st) ranks first
    level = ranking.stage_rank(semi, [C, B], [line(B, 4, "0.0"), line(C, 4, "0.0")], "reset", "final")
    assert [r.player for r in level[:2]] == [C, B]


def test_half_points_are_rounded_to_a_tenth():
    assert ranking.carried_points(D("45.5"), "half") == D("22.8")  # 22.75, to the even tenth
    assert ranking.carried_points(D("-12.3"), "half") == D("-6.2")  # −6.15, to the even tenth


# ---------------------------------------------------------------- an event in stages

# M-League: 30,000 returned, uma +30/+10/−10/−30, the 20.0 oka to first:
# 48,000 → +68.0; 32,000 → +12.0; 12,000 → −28.0; 8,000 → −52.0
SCORES = [48000, 32000, 12000, 8000]


def _enter(game, scores, actor):
    services.table_result_enter(game=game, scores=scores, actor=actor)


def _play(event, number, actor):
    for game in Game.objects.filter(season=event.season, match_day=number).order_by("table"):
        _enter(game, SCORES, actor)


@pytest.fixture
def staged(league, admin, rules):
    """Twelve players, one qualifying round (three tables), a semi-final of eight at half, a final
    of four carried in full; no tiebreak, so the same scores at every table tie three players on
    each figure."""
    event = services.event_create(
        league=league,
        name="Stage Open",
        slug="stage-open",
        starts_on=dt.date(2026, 12, 12),
        ends_on=dt.date(2026, 12, 12),
        rule_set=rules,
        capacity=12,
        rounds=1,
        round_minutes=60,
        semi_final_cut=8,
        semi_final_rounds=1,
        semi_final_points="half",
        cut=4,
        final_points="carry",
        tiebreaks=[],
        actor=admin,
    )
    players = [Player.objects.create(display_name=f"St {i:02d}", membership_number=f"ST{i:03d}") for i in range(12)]
    for p in players:
        services.checkin_set(registration=services.registration_add(event=event, player=p, actor=admin), present=True, actor=admin)
    services.event_status_set(event=event, status="running", actor=admin)
    services.seating_plan(event=event, actor=admin, time_limit=1)
    event.refresh_from_db()
    return event


def _seat_points(event, number):
    return {
        s.player_id: s.seat for s in GameSeat.objects.filter(game__season=event.season, game__match_day=number)
    }


def test_the_event_has_its_stages_in_order(staged):
    assert [(r.number, r.stage) for r in staged.round_set.order_by("number")] == [
        (1, "qualifying"),
        (2, "semi_final"),
        (3, "final"),
    ]
    assert [(s.name, s.cut, s.points, s.rounds) for s in selectors.event_stages(staged)] == [
        ("semi_final", 8, "half", (2,)),
        ("final", 4, "carry", (3,)),
    ]


def test_a_tie_at_the_cut_is_decided_by_the_director_never_by_id(staged, admin):
    _play(staged, 1, admin)
    seats = _seat_points(staged, 1)
    thirds = sorted(p for p, s in seats.items() if s == 2)  # three players on −28.0 for 2 places
    cut = selectors.cut_states(staged)[0]
    assert cut["stage"] == "semi_final" and cut["undecided"]
    assert sorted(t["player"] for t in cut["tied"]) == thirds and cut["places"] == 2
    semi = staged.round_set.get(number=2)
    with pytest.raises(ValidationError) as exc:
        services.seating_by_standings(round_=semi, actor=admin)
    assert exc.value.error_dict["cut"][0].code == "cut_undecided"
    assert not Game.objects.filter(season=staged.season, match_day=2).exists()
    # the desk shows it, in words, with the form to record the decision
    desk = _client(admin).get(f"/events/{staged.pk}/desk/").content.decode()
    assert "are level at the cut for 2 places" in desk and 'value="cut_decide"' in desk
    # the draw of lots: the highest id first, then the lowest (not the listing order)
    order = [thirds[2], thirds[0], thirds[1]]
    response = _client(admin).post(
        f"/events/{staged.pk}/desk/",
        {
            "action": "cut_decide",
            "stage": "semi_final",
            "method": "lots",
            "note": "drawn at the desk",
            "tied": thirds,
            **{f"place_{p}": str(order.index(p) + 1) for p in thirds},
        },
    )
    assert response.status_code == 302
    decision = CutDecision.objects.get(event=staged)
    assert decision.order == order and decision.method == "lots" and decision.by == admin
    log = AuditLog.objects.get(action="event.cut_decide")
    assert log.data["order"] == order and log.data["places"] == 2
    services.seating_by_standings(round_=semi, actor=admin)
    seated = set(_seat_points(staged, 2))
    assert thirds[2] in seated and thirds[0] in seated and thirds[1] not in seated
    assert len(seated) == 8
    # the results say how the tie was decided; the one left out ranks 9th, after the semi-finalists
    results = _client().get(f"/events/{staged.pk}/results/").content.decode()
    assert "decided by the director (Draw of lots)" in results
    rows = {r.player: r for r in selectors.event_standings(staged)}
    assert rows[thirds[1]].rank == 9 and not rows[thirds[1]].finalist


def test_a_decision_is_refused_for_players_not_tied_and_once_the_stage_started(staged, admin):
    _play(staged, 1, admin)
    cut = selectors.cut_states(staged)[0]
    tied = [t["player"] for t in cut["tied"]]
    with pytest.raises(ValidationError) as exc:
        services.cut_decide(event=staged, stage="semi_final", order=tied[:2], method="lots", actor=admin)
    assert exc.value.error_dict["order"][0].code == "cut_order"
    with pytest.raises(ValidationError) as exc:
        services.cut_decide(event=staged, stage="final", order=tied, method="lots", actor=admin)
    assert exc.value.error_dict["stage"][0].code == "stage_before_unseated"
    response = APIClient().post(f"/api/events/{staged.pk}/cut", {"stage": "semi_final", "order": tied, "method": "lots"}, format="json")
    assert response.status_code in (401, 403)
    api = APIClient()
    api.force_authenticate(admin)
    response = api.post(f"/api/events/{staged.pk}/cut", {"stage": "semi_final", "order": tied, "method": "coin"}, format="json")
    assert response.status_code == 400 and "method" in response.json()["errors"]
    response = api.post(f"/api/events/{staged.pk}/cut", {"stage": "semi_final", "order": tied, "method": "playoff"}, format="json")
    assert response.status_code == 201 and not response.json()["undecided"]
    assert api.get(f"/api/events/{staged.pk}/cut").json()[0]["decision"]["order"] == tied


def test_a_correction_after_the_cut_warns_and_the_stage_is_seated_again(staged, admin):
    _play(staged, 1, admin)
    tied = [t["player"] for t in selectors.cut_states(staged)[0]["tied"]]
    services.cut_decide(event=staged, stage="semi_final", order=tied, method="playoff", actor=admin)
    semi = staged.round_set.get(number=2)
    services.seating_by_standings(round_=semi, actor=admin)
    out = tied[2]  # drawn last: not in the semi-final
    # a correction at the table of one who went through (South, 3rd): 12,000 was 11,000 and North's
    # 8,000 was 9,000, so they have −29.0 (−19.0 − 10) and no longer tie: the two left on −28.0 go
    # through, the one left out by the draw among them
    lucky = tied[0]
    game = Game.objects.get(season=staged.season, match_day=1, seats__player_id=lucky)
    assert game.seats.get(player_id=lucky).seat == 2
    _enter(game, [48000, 32000, 11000, 9000], admin)
    assert GameSeat.objects.get(game=game, player_id=lucky).points == D("-29.0")
    cut = selectors.cut_states(staged)[0]
    assert cut["stale"] and not cut["started"] and not cut["undecided"]
    assert [p["player"] for p in cut["now_in"]] == [out] and lucky in [p["player"] for p in cut["now_out"]]
    desk = _client(admin).get(f"/events/{staged.pk}/desk/").content.decode()
    assert "A correction changed who goes through" in desk and "Seat the stage again" in desk
    with pytest.raises(ValidationError) as exc:
        services.round_clock_set(round_=semi, action="start", actor=admin)
    assert exc.value.error_dict["action"][0].code == "stage_seating_stale"
    services.seating_by_standings(round_=semi, actor=admin)
    seated = set(_seat_points(staged, 2))
    assert out in seated and lucky not in seated
    assert not selectors.cut_states(staged)[0]["stale"]
    services.round_clock_set(round_=semi, action="start", actor=admin)


def test_a_started_stage_is_left_to_the_director(staged, admin):
    _play(staged, 1, admin)
    tied = [t["player"] for t in selectors.cut_states(staged)[0]["tied"]]
    services.cut_decide(event=staged, stage="semi_final", order=tied, method="lots", actor=admin)
    semi = staged.round_set.get(number=2)
    services.seating_by_standings(round_=semi, actor=admin)
    services.round_clock_set(round_=semi, action="start", actor=admin)
    lucky = tied[0]
    game = Game.objects.get(season=staged.season, match_day=1, seats__player_id=lucky)
    _enter(game, [48000, 32000, 11000, 9000], admin)
    cut = selectors.cut_states(staged)[0]
    assert cut["stale"] and cut["started"]
    desk = _client(admin).get(f"/events/{staged.pk}/desk/").content.decode()
    assert "The stage has started as it was seated" in desk
    with pytest.raises(ValidationError) as exc:
        services.seating_by_standings(round_=semi, actor=admin)
    assert exc.value.error_dict["round"][0].code == "round_started"
    # the ranking follows the stage as it was seated
    rows = {r.player: r for r in selectors.event_standings(staged)}
    assert rows[lucky].stage == "semi_final"


def test_the_semi_final_carries_half_and_the_final_carries_in_full(staged, admin):
    _play(staged, 1, admin)
    tied = [t["player"] for t in selectors.cut_states(staged)[0]["tied"]]
    services.cut_decide(event=staged, stage="semi_final", order=tied, method="lots", actor=admin)
    services.seating_by_standings(round_=staged.round_set.get(number=2), actor=admin)
    qualifying = {r.player: r.points for r in selectors.qualifying_standings(staged)}
    _play(staged, 2, admin)
    semi_seats = _seat_points(staged, 2)
    semi_points = {0: D("68.0"), 1: D("12.0"), 2: D("-28.0"), 3: D("-52.0")}
    rows = {r.player: r for r in selectors.event_standings(staged)}
    for p, seat in semi_seats.items():
        assert rows[p].carried == qualifying[p] / 2
        assert rows[p].points == qualifying[p] / 2 + semi_points[seat]
    # the semi-final's two East players lead on 34.0 + 68.0 or 6.0 + 68.0 …; the final seats its top four
    cut = selectors.cut_states(staged)[1]
    if cut["undecided"]:
        services.cut_decide(
            event=staged, stage="final", order=[t["player"] for t in cut["tied"]], method="playoff", actor=admin
        )
    services.seating_by_standings(round_=staged.round_set.get(number=3), actor=admin)
    finalists = set(_seat_points(staged, 3))
    before = selectors.standings_by_stage(staged)[1][1]
    assert finalists == set(ranking.entrants(before, 4, CutDecision.objects.filter(stage="final").values_list("order", flat=True).first()))
    _play(staged, 3, admin)
    final_seats = _seat_points(staged, 3)
    rows = {r.player: r for r in selectors.event_standings(staged)}
    semi_total = {r.player: r.points for r in before}
    for p, seat in final_seats.items():
        assert rows[p].carried == semi_total[p] and rows[p].points == semi_total[p] + semi_points[seat]
        assert rows[p].rank <= 4 and rows[p].stage == "final"


def _client(user=None, lang="en"):
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        c.force_login(user)
    return c


def test_players_level_in_a_stage_and_before_it_share_the_rank():
    # C and D were level before (=3) and score the same in the stage: they share 3rd, never by id
    semi = ranking.stage_rank(
        QUALIFYING, [A, B, C, DD], [line(A, 3, "10.0"), line(B, 3, "10.0"), line(C, 3, "-10.0"), line(DD, 3, "-10.0")], "carry", "semi_final"
    )
    assert sorted((r.player, r.rank, r.shared) for r in semi[:4]) == [(A, 1, False), (B, 2, False), (C, 3, True), (DD, 3, True)]
    tied, places = ranking.cut_tie(semi, 3)
    assert sorted(tied) == [C, DD] and places == 1  # a final of three would need the director
