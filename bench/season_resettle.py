"""Benchmark: re-settle a whole season of stored hands and recompute its standings.

    .venv/bin/python bench/season_resettle.py [--games 2500] [--hands 40] [--workers N]
    DATABASE_URL=postgres://postgres@127.0.0.1:55433/kyoku_bench .venv/bin/python bench/season_resettle.py

It works in a throwaway database: Django's test-database machinery creates ``test_<NAME>``
(PostgreSQL; the user needs CREATEDB) or an in-memory SQLite database, and drops it at the end,
so the configured database itself is never touched.

1. builds a season (M-League rules, divisions A and B of 40 players each) with GAMES games of
   HANDS hands each (default 2,500 × 40 = 100,000 hand records: ron, tsumo, draws with riichi
   sticks, abortive draws, chombo), each game finished from its hands, stored as hand-by-hand
   entry stores them (record, settlement, running scores, digest), with ``bulk_create``;
2. times ``scoring.services.season_hands_resettle`` (read every record, settle each through the
   engine on the worker processes, write back the hands that changed, re-derive the 2,500 games'
   results and seats, recompute both divisions' standings), in these cases:
   - nothing changed (an engine upgrade's audit): twice, then once on a single process;
   - the season's rules revised with ``scoring.services.season_rules_revise`` (revision included):
     uma 20/10 (every result changes, no hand: only the results are rescored), then honba worth 1,500 (most hands change: a
     hand with honba pays more, and every later running score in its game moves);
3. prints each phase, the total and the goal (< 2 s on PostgreSQL).

Start a local PostgreSQL for measuring (as root):

    PGBIN=/usr/lib/postgresql/15/bin; d=$(mktemp -d); chown postgres $d
    su postgres -c "$PGBIN/initdb -D $d -A trust -U postgres"
    su postgres -c "$PGBIN/pg_ctl -D $d -o '-p 55433 -k /tmp -c listen_addresses=127.0.0.1' -l $d/log -w start"
    DATABASE_URL=postgres://postgres@127.0.0.1:55433/kyoku_bench .venv/bin/python bench/season_resettle.py
    su postgres -c "$PGBIN/pg_ctl -D $d stop"
"""

from __future__ import annotations

import argparse
from decimal import Decimal
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from kyoku.principals import System  # noqa: E402

BENCH = System("command:bench")  # who the benchmark acts as
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# DEBUG off, as in production (DEBUG on keeps every query's SQL in memory)
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")

PLAYERS_PER_DIVISION = 40
# M.League plays no abortive draws (途中流局なし); the bench's records include four-winds draws,
# so this league's rules allow that one (kept in every revision below)
LEAGUE_OVERRIDES = {"abortive_draws": ["four_winds"]}
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
    from kyoku.models import League
    from league.models import Entry, Game, GameResult, GameSeat, Penalty, Player
    from scoring.engine.replay import derived_digest, encode, hands_replay
    from scoring.engine.riichi import game_end
    from scoring.models import HandRecord

    rng = random.Random(seed)
    league = League.objects.create(name="Bench League", slug="bench")
    template = league_services.rule_set_create(
        name="M-League",
        slug="bench-mleague",
        preset="mleague",
        overrides=LEAGUE_OVERRIDES,
        actor=BENCH,
    )
    season = league_services.season_create(league=league, year=2026, number=1, rule_set=template, actor=BENCH)
    league_services.season_status_set(season=season, status="open", actor=BENCH)
    options = season.rule_set.options
    divisions = list(season.divisions.order_by("order"))
    players = Player.objects.bulk_create(
        Player(display_name=f"Bench {i}", membership_number=f"B{i:05d}")
        for i in range(PLAYERS_PER_DIVISION * len(divisions))
    )
    by_division = {
        d.pk: players[i * PLAYERS_PER_DIVISION : (i + 1) * PLAYERS_PER_DIVISION] for i, d in enumerate(divisions)
    }
    Entry.objects.bulk_create(Entry(season=season, division=d, player=p) for d in divisions for p in by_division[d.pk])
    game_rows = []
    for n in range(games):
        division = divisions[n % len(divisions)]
        k = n // len(divisions)
        game_rows.append(
            Game(
                season=season,
                division=division,
                match_day=k // TABLES_PER_DAY + 1,
                table=k % TABLES_PER_DAY + 1,
                status=Game.Status.FINISHED,
            )
        )
    game_rows = Game.objects.bulk_create(game_rows, batch_size=2000)
    seats, results, hand_rows, penalties = [], [], [], []
    user = get_user_model().objects.create_user("bench-admin")
    for game in game_rows:
        for seat, player in enumerate(rng.sample(by_division[game.division_id], 4)):
            seats.append(GameSeat(game=game, seat=seat, player=player))
        replay = hands_replay("riichi", options, [hand_record(rng) for _ in range(hands)])
        players_at = {seat.seat: seat.player for seat in seats[-4:]}
        for sequence, (record, settlement, scores) in enumerate(replay, 1):
            for p in settlement["penalties"]:  # booked to the ledger as finishing a game from its hands books them
                penalties.append(
                    Penalty(
                        season=season,
                        player=players_at[p["seat"]],
                        game=game,
                        hand_number=sequence,
                        offence="chombo",
                        sanction=Penalty.Sanction.CHOMBO,
                        points=Decimal(p["points"]) / 1000,
                        note=f"hand {sequence}: chombo",
                    )
                )
            hand_rows.append(
                HandRecord(
                    game=game,
                    sequence=sequence,
                    record=record,
                    settlement=settlement,
                    scores_after=scores,
                    entered_by=user,
                    ends_game=sequence == hands,
                    derived_digest=derived_digest(encode(settlement), encode(scores)),
                )
            )
        computed = game_end(options, scores, settlement["deposits_after"])
        results.append(
            GameResult(
                game=game,
                scores=scores,
                deposits_left=settlement["deposits_after"],
                rule_set=season.rule_set,
                entered_by=user,
                points=computed["points"],
                places=computed["places"],
            )
        )
    GameSeat.objects.bulk_create(seats, batch_size=5000)
    GameResult.objects.bulk_create(results, batch_size=2000)
    HandRecord.objects.bulk_create(hand_rows, batch_size=5000)
    Penalty.objects.bulk_create(penalties, batch_size=5000)
    return season


def run(args) -> None:
    from django.db import connection

    from league.models import Standing
    from scoring.models import HandRecord
    from scoring.services import season_hands_resettle

    t0 = time.perf_counter()
    season = build(args.games, args.hands)
    print(f"database: {connection.vendor} ({connection.settings_dict['NAME']})")
    print(
        f"built {HandRecord.objects.filter(game__season=season).count():,} hand records in "
        f"{args.games:,} games in {time.perf_counter() - t0:.1f} s"
    )
    workers = args.workers
    cases = [
        ("nothing changed", lambda t: season_hands_resettle(season=season, workers=workers, timings=t, actor=BENCH)),
        ("nothing changed", lambda t: season_hands_resettle(season=season, workers=workers, timings=t, actor=BENCH)),
        (
            "nothing changed, 1 process",
            lambda t: season_hands_resettle(season=season, workers=1, timings=t, actor=BENCH),
        ),
        ("rules revised: uma 20/10", lambda t: _revise(season, {"uma": [20, 10, -10, -20]}, workers, t)),
        (
            "rules revised: honba 1,500",
            lambda t: _revise(season, {"uma": [20, 10, -10, -20], "honba_points": 1500}, workers, t),
        ),
    ]
    # The ratings follow a revision in a Celery task on the worker (after the commit), not in
    # the request: measured apart, as the task's own line.
    from league.signals import games_results_changed
    from ratings.receivers import on_games_results_changed
    from ratings.services import games_ratings_sync

    games_results_changed.disconnect(on_games_results_changed, dispatch_uid="ratings.games_results_changed")
    game_ids = list(season.games.values_list("pk", flat=True))
    worst = 0.0
    for name, case in cases:
        timings: dict[str, float] = {}
        start = time.perf_counter()
        summary = case(timings)
        total = time.perf_counter() - start
        worst = max(worst, total)
        phases = "  ".join(f"{k} {v:.3f}" for k, v in timings.items())
        print(
            f"{name:28} {summary['hands']:,} hands, {summary['hands_changed']:,} written, "
            f"{summary['results_changed']:,} results changed; {phases}  total {total:.3f} s"
        )
        if summary["results_changed"]:
            t1 = time.perf_counter()
            rebuilt = games_ratings_sync(
                league=season.league, game_ids=game_ids, season_id=season.pk, kind="replaced", actor=BENCH
            )
            print(
                f"{'  then the ratings task':28} {'no place moved' if rebuilt is None else rebuilt}: "
                f"{time.perf_counter() - t1:.3f} s"
            )
    print(
        f"standings rows: {Standing.objects.filter(season=season).count()}; "
        f"goal < 2 s on PostgreSQL: {'met' if worst < 2 else 'NOT met'} in every case (slowest {worst:.3f} s)"
    )


def _revise(season, overrides, workers, timings):
    from scoring.services import season_rules_revise

    return season_rules_revise(
        season=season,
        overrides={**LEAGUE_OVERRIDES, **overrides},
        workers=workers,
        timings=timings,
        actor=BENCH,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2500)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--workers", type=int, default=None, help="engine processes (default: CPU cores)")
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
