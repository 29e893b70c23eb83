"""Benchmark: re-settle a whole season of stored hands and recompute its standings.

    .venv/bin/python bench/season_resettle.py [--games 2500] [--hands 40] [--runs 2]
    DATABASE_URL=postgres://postgres@127.0.0.1:55433/kyoku_bench .venv/bin/python bench/season_resettle.py

It works in a throwaway database: Django's test-database machinery creates ``test_<NAME>``
(PostgreSQL; the user needs CREATEDB) or an in-memory SQLite database, and drops it at the end,
so the configured database itself is never touched.

1. builds a season (M-League rules, divisions A and B of 40 players each) with GAMES games of
   HANDS hands each (default 2,500 × 40 = 100,000 hand records: ron, tsumo, draws with riichi
   sticks, abortive draws, chombo), each game finished from its hands, with ``bulk_create``;
   the stored settlements start empty;
2. times ``scoring.services.season_hands_resettle``: read every record, settle each through the
   engine (the engine state - dealer, honba, deposits - derived hand to hand), write records,
   settlements and running scores back (PostgreSQL: one ``UPDATE … FROM unnest(…)`` per 20,000
   rows), re-derive the 2,500 games' results and seats, recompute both divisions' standings;
3. prints each phase, the total and the goal (< 2 s on PostgreSQL). Run 1 is cold (every result
   changes); later runs re-write every hand but find the results unchanged.

Start a local PostgreSQL for measuring (as root):

    PGBIN=/usr/lib/postgresql/15/bin; d=$(mktemp -d); chown postgres $d
    su postgres -c "$PGBIN/initdb -D $d -A trust -U postgres"
    su postgres -c "$PGBIN/pg_ctl -D $d -o '-p 55433 -k /tmp -c listen_addresses=127.0.0.1' -l $d/log -w start"
    DATABASE_URL=postgres://postgres@127.0.0.1:55433/kyoku_bench .venv/bin/python bench/season_resettle.py
    su postgres -c "$PGBIN/pg_ctl -D $d stop"
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

PLAYERS_PER_DIVISION = 40
TABLES_PER_DAY = PLAYERS_PER_DIVISION // 4


def hand_record(rng: random.Random) -> dict:
    """One riichi hand record without rules or engine state (those are the season's / derived)."""
    seats = [0, 1, 2, 3]
    riichi = sorted(rng.sample(seats, rng.choice((0, 0, 1, 1, 2))))
    roll = rng.random()
    if roll < 0.45:
        winner, discarder = rng.sample(seats, 2)
        return {"riichi": riichi, "result": {"type": "ron", "from": discarder, "winners": [_value(rng, winner, False)]}}
    if roll < 0.75:
        return {"riichi": riichi, "result": {"type": "tsumo", "winner": _value(rng, rng.choice(seats), True)}}
    if roll < 0.95:
        return {"riichi": riichi, "result": {"type": "draw", "tenpai": sorted(rng.sample(seats, rng.randint(0, 4)))}}
    if roll < 0.98:
        return {"riichi": riichi, "result": {"type": "abortive", "reason": "four_winds"}}
    return {"result": {"type": "chombo", "seat": rng.choice(seats)}}


def _value(rng: random.Random, seat: int, tsumo: bool) -> dict:
    if rng.random() < 0.01:
        return {"seat": seat, "yakuman": 1}
    han = rng.choice((1, 1, 2, 2, 3, 3, 4, 5, 6, 8))
    if han >= 5:
        return {"seat": seat, "han": han}
    fu = rng.choice((20, 30, 40, 50) if tsumo and han > 1 else (30, 40, 50))
    return {"seat": seat, "han": han, "fu": fu}


def build(games: int, hands: int, seed: int = 2026):
    from django.contrib.auth import get_user_model

    from league import services as league_services
    from league.models import Entry, Game, GameResult, GameSeat, League, Player
    from scoring.models import HandRecord

    rng = random.Random(seed)
    league = League.objects.create(name="Bench League", slug="bench")
    template = league_services.rule_set_create(name="M-League", slug="bench-mleague", preset="mleague")
    season = league_services.season_create(league=league, year=2026, number=1, rule_set=template)
    league_services.season_status_set(season=season, status="open")
    divisions = list(season.divisions.order_by("order"))
    players = Player.objects.bulk_create(
        Player(display_name=f"Bench {i}", membership_number=f"B{i:05d}")
        for i in range(PLAYERS_PER_DIVISION * len(divisions)))
    by_division = {d.pk: players[i * PLAYERS_PER_DIVISION:(i + 1) * PLAYERS_PER_DIVISION]
                   for i, d in enumerate(divisions)}
    Entry.objects.bulk_create(Entry(season=season, division=d, player=p) for d in divisions for p in by_division[d.pk])
    game_rows = []
    for n in range(games):
        division = divisions[n % len(divisions)]
        k = n // len(divisions)
        game_rows.append(Game(season=season, division=division, match_day=k // TABLES_PER_DAY + 1,
                              table=k % TABLES_PER_DAY + 1, status=Game.Status.FINISHED))
    game_rows = Game.objects.bulk_create(game_rows, batch_size=2000)
    seats, results, hand_rows = [], [], []
    user = get_user_model().objects.create_user("bench-admin")
    for game in game_rows:
        for seat, player in enumerate(rng.sample(by_division[game.division_id], 4)):
            seats.append(GameSeat(game=game, seat=seat, player=player))
        results.append(GameResult(game=game, scores=[25000] * 4, deposits_left=0, rule_set=season.rule_set,
                                  entered_by=user, points=[0, 0, 0, 0], places=[1, 1, 1, 1]))
        for sequence in range(1, hands + 1):
            hand_rows.append(HandRecord(game=game, sequence=sequence, record=hand_record(rng), settlement={},
                                        scores_after=[], entered_by=user, ends_game=sequence == hands))
    GameSeat.objects.bulk_create(seats, batch_size=5000)
    GameResult.objects.bulk_create(results, batch_size=2000)
    HandRecord.objects.bulk_create(hand_rows, batch_size=5000)
    return season


def run(args) -> None:
    from django.db import connection

    from league.models import Standing
    from scoring.models import HandRecord
    from scoring.services import season_hands_resettle

    t0 = time.perf_counter()
    season = build(args.games, args.hands)
    print(f"database: {connection.vendor} ({connection.settings_dict['NAME']})")
    print(f"built {HandRecord.objects.filter(game__season=season).count():,} hand records in "
          f"{args.games:,} games in {time.perf_counter() - t0:.1f} s")
    for run_number in range(1, args.runs + 1):
        timings: dict[str, float] = {}
        start = time.perf_counter()
        summary = season_hands_resettle(season=season, timings=timings)
        total = time.perf_counter() - start
        phases = "  ".join(f"{k} {v:.3f}" for k, v in timings.items())
        print(f"run {run_number}: {summary['hands']:,} hands, {summary['results_changed']:,} results changed; "
              f"{phases}  total {total:.3f} s  ({summary['hands'] / total:,.0f} hands/s)")
    print(f"standings rows: {Standing.objects.filter(season=season).count()}; "
          f"goal < 2 s on PostgreSQL: {'met' if total < 2 else 'NOT met'} on the last run")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2500)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()

    import django
    from django.conf import settings

    django.setup()
    settings.DEBUG = False  # no query log: it would format every 20,000-row statement
    from django.test.utils import setup_databases, teardown_databases

    old = setup_databases(verbosity=0, interactive=False)
    try:
        run(args)
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
