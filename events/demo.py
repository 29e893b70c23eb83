"""Demo data for tournaments (called by demo's seed_demo).

The league's winter open: 40 seats over six rounds and a final table, run from the tables' phones.
One guest arrives late (after round 1) and a substitute fills the last table until then; a player
drops out after round 1; the rounds not started are seated again for the players present. Rounds
1 to 4 are played; round 5 is running on the clock, one table waiting for its players to confirm
(the demo player's), one disputed and on the referee desk, the others still playing or done.

The autumn cup, finished last month: twelve players, one qualifying round, a semi-final of eight
over two rounds (points carried at half) and a final of four. The qualifying round left three
players level for the last two places of the semi-final, which the director decided by a draw of
lots (recorded, and shown on the results)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Callable

from django.utils import timezone

from kyoku.principals import TablePhone
from league.models import Game, Player, RuleSet
from league.names import name_parts_propose
from league.services import player_name_confirm

from . import services
from .models import Round

GUESTS = [
    ("Anna Keller", "DEU", "05010233"),
    ("Pierre Morel", "FRA", "04010871"),
    ("Sofia Rossi", "ITA", "07000412"),
    ("Jan de Vries", "NLD", "08020114"),
    ("Emma Larsen", "DNK", "03000962"),
    ("Oliver Smith", "GBR", "11000347"),
    ("Ines Garcia", "ESP", "10000505"),
    ("Mika Virtanen", "FIN", "14000078"),
]
TEAMS = [
    "Wan Chai Dragons",
    "Kowloon Winds",
    "Sha Tin Bamboo",
    "Central Circles",
    "Mong Kok Characters",
    "Tsuen Wan Flowers",
    "Sai Kung Seasons",
    "Aberdeen Tiles",
    "Europe Guests",
    "Island Honours",
]


def _round_run(event, number: int, started: dt.datetime, minutes: int, actor) -> Round:
    round_ = Round.objects.get(event=event, number=number)
    services.round_clock_set(round_=round_, action="start", actor=actor, now=started)
    return Round.objects.get(pk=round_.pk)


def _table_report(game: Game, scores: list[int], confirm: tuple[int, ...]):
    """The table's phone (its code entered) reports and confirms, as on the floor."""
    phone = TablePhone(game_id=game.pk)
    report, _ = services.table_report_submit(game=game, scores=scores, seat=confirm[0], actor=phone)
    for seat in confirm[1:]:
        report = services.table_report_confirm(game=game, seat=seat, version=report.version, actor=phone)
    return report


def event_seed(
    *,
    league,
    rules: RuleSet,
    players: list[Player],
    demo_player: Player,
    admin,
    scores: Callable[[random.Random, int], list[int]],
    rng: random.Random,
) -> None:
    today = timezone.localdate()
    now = timezone.now().replace(microsecond=0)
    event = services.event_create(
        league=league,
        name="HKRL Winter Open 2026",
        slug="winter-open-2026",
        venue="Wan Chai Community Hall 灣仔社區會堂",
        starts_on=today,
        ends_on=today + dt.timedelta(days=1),
        rule_set=rules,
        capacity=40,
        rounds=6,
        round_minutes=75,
        cut=4,
        final_points="half",
        time_rule="finish_hand",
        team_scoring="best",
        team_best=3,
        tiebreaks=["firsts", "best_game"],
        actor=admin,
    )
    field = list(players[:32])
    for name, nation, ema_number in GUESTS:
        field.append(Player.objects.create(display_name=name, membership_number=f"GUEST{len(field):03d}"))
    regs = []
    for i, player in enumerate(field):
        guest = i >= 32
        reg = services.registration_add(
            event=event,
            player=player,
            team=TEAMS[8] if guest else TEAMS[i % 8 if i % 8 != 7 else 9],
            ema_number=GUESTS[i - 32][2] if guest else "",
            nationality=GUESTS[i - 32][1] if guest else "HKG",
            actor=admin,
        )
        regs.append(reg)
        if i < len(field) - 1:  # the last guest's train is late: not here for round 1
            services.checkin_set(registration=reg, present=True, actor=admin)
    substitute = Player.objects.create(display_name="Lau Ka Yan", membership_number="SUB-WO-1")
    services.registration_add(event=event, player=substitute, substitute=True, actor=admin)
    services.event_status_set(event=event, status="running", actor=admin)
    services.seating_plan(event=event, actor=admin, time_limit=5)
    start_points = event.season.rule_set.options["start_points"]
    # rounds 1 to 4 this morning, 90 minutes apart, every table reporting and confirming itself
    first = now - dt.timedelta(hours=6, minutes=35)
    for number in range(1, 5):
        started = first + dt.timedelta(minutes=90 * (number - 1))
        round_ = _round_run(event, number, started, 75, admin)
        for game in Game.objects.filter(season=event.season, match_day=number).order_by("table"):
            _table_report(game, scores(rng, 4 * start_points), (0, 1, 2, 3))
        services.round_clock_set(round_=round_, action="end", actor=admin, now=started + dt.timedelta(minutes=78))
        if number == 1:
            # the late guest arrives and a player drops out: rounds 2 to 6 are seated again
            services.checkin_set(registration=regs[-1], present=True, actor=admin)
            services.registration_withdraw(registration=regs[6], actor=admin)
            services.seating_plan(event=event, actor=admin, time_limit=5)
    # round 5: 35 minutes gone on the clock
    _round_run(event, 5, now - dt.timedelta(minutes=35), 75, admin)
    games = list(Game.objects.filter(season=event.season, match_day=5).order_by("table"))
    mine = next(g for g in games if g.seats.filter(player=demo_player).exists())
    others = [g for g in games if g.pk != mine.pk]
    seat = mine.seats.get(player=demo_player).seat
    _table_report(mine, scores(rng, 4 * start_points), ((seat + 1) % 4,))  # the demo player has yet to confirm
    disputed = _table_report(others[0], scores(rng, 4 * start_points), (0, 1))
    services.table_report_dispute(
        game=disputed.game,
        seat=3,
        actor=TablePhone(game_id=disputed.game_id),
        note="North says the last hand was a 12,000 ron, not 8,000.",
    )
    for game in others[1:4]:
        _table_report(game, scores(rng, 4 * start_points), (0, 1, 2, 3))


# The same scores at every table of the cup's qualifying round (in seat order, from the start
# points): the three players in each seat are level, so three are level on the last two places of
# the semi-final.
CUP_SPREAD = [18000, 2000, -8000, -12000]


def _desk_round(event, number: int, admin, scores: Callable[[int], list[int]]) -> None:
    for game in Game.objects.filter(season=event.season, match_day=number).order_by("table"):
        services.table_result_enter(game=game, scores=scores(game.table), actor=admin)


def _cut_by_lots(event, stage: str, admin, rng: random.Random) -> None:
    from .selectors import cut_states

    state = next((c for c in cut_states(event) if c["stage"] == stage), None)
    if state and state["undecided"]:
        tied = [t["player"] for t in state["tied"]]
        rng.shuffle(tied)
        services.cut_decide(
            event=event,
            stage=stage,
            order=tied,
            method="lots",
            actor=admin,
        )


def cup_seed(
    *,
    league,
    rules: RuleSet,
    players: list[Player],
    admin,
    scores: Callable[[random.Random, int], list[int]],
    rng: random.Random,
) -> None:
    """The autumn cup, finished: a tie at the semi-final's cut decided by lots, the semi-final and
    the final played."""
    day = timezone.localdate() - dt.timedelta(days=35)
    event = services.event_create(
        league=league,
        name="HKRL Autumn Cup 2026",
        slug="autumn-cup-2026",
        venue="Kowloon Bay Mahjong Centre 九龍灣麻雀中心",
        city="Hong Kong",
        country="HKG",
        starts_on=day,
        ends_on=day,
        rule_set=rules,
        capacity=12,
        rounds=1,
        round_minutes=75,
        semi_final_cut=8,
        semi_final_rounds=2,
        semi_final_points="half",
        cut=4,
        final_points="carry",
        tiebreaks=[],
        actor=admin,
    )
    for player in players[:12]:
        reg = services.registration_add(event=event, player=player, nationality="HKG", actor=admin)
        services.checkin_set(registration=reg, present=True, actor=admin)
    services.event_status_set(event=event, status="running", actor=admin)
    services.seating_plan(event=event, actor=admin, time_limit=2)
    start_points = event.season.rule_set.options["start_points"]
    _desk_round(event, 1, admin, lambda table: [start_points + d for d in CUP_SPREAD])
    _cut_by_lots(event, Round.Stage.SEMI_FINAL, admin, rng)
    for number in (2, 3, 4):
        round_ = Round.objects.get(event=event, number=number)
        if round_.stage == Round.Stage.FINAL:
            _cut_by_lots(event, Round.Stage.FINAL, admin, rng)
        services.seating_by_standings(round_=round_, actor=admin)
        _desk_round(event, number, admin, lambda table: scores(rng, 4 * start_points))
    services.event_status_set(event=event, status="finished", actor=admin)
    # before the EMA file went out the director checked each player's family and given name (the
    # Winter Open's are still proposals: its desk lists them)
    for player in players[:12]:
        family, given, order = name_parts_propose(player.display_name, player.native_name)
        player.family_name, player.given_name, player.name_order = family, given, order
        player.save(update_fields=["family_name", "given_name", "name_order"])
        player_name_confirm(player=player, actor=admin)
