"""Benchmark: rate a league's games from scratch, then one new result on top, then a late
correction of the first season's first game (a rebuild of almost everything).

    .venv/bin/python bench/ratings_recompute.py [--seasons 4] [--days 20] [--players 64]

Works in a throwaway database (Django's test-database machinery, as bench/season_resettle.py).
Builds a league of SEASONS seasons, one division of PLAYERS players, DAYS match days of
PLAYERS/4 tables each, every game finished (random places, ties included) with bulk_create,
and prints the seconds each step takes.
"""

from __future__ import annotations

import argparse
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


def build(args):
    from league import services
    from kyoku.models import League
    from league.models import Game, GameResult, GameSeat, Player

    rng = random.Random(14)
    league = League.objects.create(name="Bench", slug="bench")
    rules = services.rule_set_create(name="M-League", slug="mleague", preset="mleague", actor=BENCH)
    players = Player.objects.bulk_create(
        Player(display_name=f"P{i}", membership_number=f"B{i}") for i in range(args.players)
    )
    for number in range(1, args.seasons + 1):
        season = services.season_create(
            league=league,
            year=2026,
            number=number,
            rule_set=rules,
            divisions=(("A", "A", "甲"),),
            actor=BENCH,
        )
        division = season.divisions.get()
        games = Game.objects.bulk_create(
            Game(season=season, division=division, match_day=d, table=t, status=Game.Status.FINISHED)
            for d in range(1, args.days + 1)
            for t in range(1, args.players // 4 + 1)
        )
        seats, results = [], []
        for game in games:
            table = rng.sample(players, 4)
            scores = rng.choice(
                [
                    [45000, 30000, 15000, 10000],
                    [25000, 25000, 30000, 20000],
                    [10000, 40000, 30000, 20000],
                    [20000, 20000, 20000, 40000],
                ]
            )
            places = [1 + sum(o > s for o in scores) for s in scores]
            seats += [
                GameSeat(game=game, seat=i, player=p, raw_score=scores[i], points=0, place=places[i])
                for i, p in enumerate(table)
            ]
            results.append(GameResult(game=game, scores=scores, rule_set=season.rule_set, places=places))
        GameSeat.objects.bulk_create(seats)
        GameResult.objects.bulk_create(results)
    return league


def run(args):
    from league.models import Game, GameSeat
    from ratings import services
    from ratings.models import RatingEvent

    league = build(args)
    games = Game.objects.filter(season__league=league).count()
    t = time.perf_counter()
    services.league_ratings_rebuild(league=league, actor=BENCH)
    print(f"full recompute: {games} games, {RatingEvent.objects.count()} events: {time.perf_counter() - t:.2f} s")
    last = Game.objects.filter(season__league=league).order_by("-season__number", "-match_day", "-table").first()
    RatingEvent.objects.filter(game=last).delete()
    t = time.perf_counter()
    services.game_ratings_sync(league=league, game_id=last.pk, kind="created", actor=BENCH)
    print(f"one new result (incremental): {time.perf_counter() - t:.3f} s")
    first = Game.objects.filter(season__league=league).order_by("season__number", "match_day", "table").first()
    seats = list(GameSeat.objects.filter(game=first).order_by("seat"))
    for seat, place in zip(seats, [4, 3, 2, 1]):
        seat.place = place
    GameSeat.objects.bulk_update(seats, ["place"])
    t = time.perf_counter()
    services.game_ratings_sync(league=league, game_id=first.pk, kind="replaced", actor=BENCH)
    print(f"correction of the first game (rebuild of everything after it): {time.perf_counter() - t:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seasons", type=int, default=4)
    parser.add_argument("--days", type=int, default=20)
    parser.add_argument("--players", type=int, default=64)
    args = parser.parse_args()

    import django
    from django.conf import settings

    django.setup()
    settings.DEBUG = False
    from django.test.utils import setup_databases, teardown_databases

    old = setup_databases(verbosity=0, interactive=False)
    try:
        run(args)
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
