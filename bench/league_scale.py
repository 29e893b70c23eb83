"""Benchmark: the pages everybody opens and entering one result, on a league of league size.

    .venv/bin/python bench/league_scale.py [--players 2000] [--games 50000] [--divisions 2]
                                           [--requests 40] [--growth]

Builds, in a throwaway database (Django's test-database machinery; DATABASE_URL picks SQLite or
PostgreSQL), a league of PLAYERS players in DIVISIONS divisions and GAMES finished games (bulk
inserts through the project's models; league points from the scoring engine's game_end), brings
the standings up to date with the full recompute, then prints for each page and action the
p50 / p95 / p99 time, the number of queries and the bytes of the answer:

- division standings page (cold: first request after a change; warm: the following ones)
- standings API (warm, and a conditional request answered 304)
- player page (the busiest player)
- season page
- entering one result, standings included (a correction of a finished game)

``--growth`` repeats the run at a quarter of the size, so what grows with the league shows.
Runs with DEBUG off, as in production.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")

SCORE_SETS = [[45000, 30000, 15000, 10000], [25000, 25000, 30000, 20000], [10000, 40000, 30000, 20000],
              [20000, 20000, 20000, 40000], [33100, 28400, 21500, 17000], [52000, 24000, 14000, 10000]]


def build(players_n: int, games_n: int, divisions_n: int):
    from league import services
    from league.models import Division, Game, GameResult, GameSeat, League, Player
    from scoring.engine import game_end

    rng = random.Random(10)
    league = League.objects.create(name=f"Bench {players_n}", slug=f"bench-{players_n}-{games_n}")
    rules = services.rule_set_create(name="M-League", slug=f"mleague-{players_n}-{games_n}", preset="mleague")
    codes = [(chr(65 + i), f"{chr(65 + i)} Division", "") for i in range(divisions_n)]
    season = services.season_create(league=league, year=2026, number=1, rule_set=rules, divisions=codes)
    divisions = list(Division.objects.filter(season=season).order_by("order"))
    players = Player.objects.bulk_create(Player(display_name=f"Player {i:05d}", native_name=f"選手{i}",
                                                membership_number=f"S{players_n}-{i}") for i in range(players_n))
    per = players_n // divisions_n
    groups = [players[i * per:(i + 1) * per] for i in range(divisions_n)]
    from league.models import Entry

    Entry.objects.bulk_create(Entry(season=season, division=d, player=p) for d, g in zip(divisions, groups) for p in g)
    points_of = {tuple(s): game_end({"preset": "mleague"}, s) for s in SCORE_SETS}
    tables = max(1, per // 4)
    batch_games, batch_seats, batch_results = [], [], []

    def flush():
        Game.objects.bulk_create(batch_games, batch_size=2000)
        GameSeat.objects.bulk_create(batch_seats, batch_size=5000)
        GameResult.objects.bulk_create(batch_results, batch_size=2000)
        batch_games.clear(), batch_seats.clear(), batch_results.clear()

    for n in range(games_n):
        d = n % divisions_n
        day, table = divmod(n // divisions_n, tables)
        game = Game(season=season, division=divisions[d], match_day=day + 1, table=table + 1,
                    status=Game.Status.FINISHED)
        scores = list(rng.choice(SCORE_SETS))
        rng.shuffle(scores)
        computed = points_of.get(tuple(scores)) or game_end({"preset": "mleague"}, scores)
        points_of[tuple(scores)] = computed
        seated = rng.sample(groups[d], 4)
        batch_games.append(game)
        batch_seats += [GameSeat(game=game, seat=i, player=p, raw_score=scores[i], points=computed["points"][i],
                                 place=computed["places"][i]) for i, p in enumerate(seated)]
        batch_results.append(GameResult(game=game, scores=scores, rule_set=rules, points=computed["points"],
                                        places=computed["places"]))
        if len(batch_games) >= 2000:
            flush()
    flush()
    for d in divisions:
        services.standings_recompute(division=d)
    settle_statistics()
    return season, divisions


def settle_statistics() -> None:
    """PostgreSQL: a freshly bulk-loaded table has no statistics and autovacuum would analyse it
    in the middle of the measurements; a live league's tables are analysed. Do it now."""
    from django.db import connection

    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def measure(label, fn, n, rows):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, queries, size = [], 0, 0
    fn()  # once unmeasured: a worker's first request compiles templates and loads catalogues
    for _ in range(n):
        with CaptureQueriesContext(connection) as ctx:
            t = time.perf_counter()
            size = fn()
            times.append((time.perf_counter() - t) * 1000)
        queries = len(ctx.captured_queries)
    times.sort()
    pct = lambda p: times[min(len(times) - 1, int(round(p / 100 * (len(times) - 1))))]  # noqa: E731
    rows.append((label, statistics.median(times), pct(95), pct(99), queries, size))


def run(args, players_n, games_n):
    from django.core.cache import cache
    from django.test import Client

    from league import services
    from league.models import Game, GameSeat, Player

    t = time.perf_counter()
    season, divisions = build(players_n, games_n, args.divisions)
    built = time.perf_counter() - t
    client = Client()
    a = divisions[0]
    busiest = (GameSeat.objects.filter(game__season=season).values("player_id")
               .order_by().annotate(n=__import__("django.db.models", fromlist=["Count"]).Count("id"))
               .order_by("-n").first())
    player = Player.objects.get(pk=busiest["player_id"])
    admin = __import__("django.contrib.auth", fromlist=["get_user_model"]).get_user_model().objects.create_superuser(
        f"bench{players_n}", password="x")
    # the latest game of the division: a correction on the evening it was played (a correction of the
    # first game of the season would also replay every later rating: see bench/ratings_recompute.py)
    game = Game.objects.filter(division=a).order_by("-match_day", "-table").first()
    rows = []
    n = args.requests

    def cold_standings():
        cache.clear()
        return len(client.get(f"/seasons/{season.pk}/divisions/A/").content)

    measure("standings page, cold (after a change)", cold_standings, max(5, n // 4), rows)
    measure("standings page, warm", lambda: len(client.get(f"/seasons/{season.pk}/divisions/A/").content), n, rows)
    api = f"/api/divisions/{a.pk}/standings/"
    etag = client.get(api)["ETag"]
    measure("standings API, warm", lambda: len(client.get(api).content), n, rows)
    measure("standings API, 304 (If-None-Match)", lambda: len(client.get(api, HTTP_IF_NONE_MATCH=etag).content), n,
            rows)
    measure(f"player page ({busiest['n']} games)", lambda: len(client.get(f"/players/{player.pk}/").content), n, rows)
    measure("season page", lambda: len(client.get(f"/seasons/{season.pk}/").content), max(5, n // 4), rows)
    flip = iter(range(10 ** 6))

    def enter_result():
        scores = SCORE_SETS[next(flip) % len(SCORE_SETS)]
        services.game_result_record(game=game, scores=scores, actor=admin, replace=True)
        return 0

    # the request's own work, as in the production shape where the ratings follow in a Celery task
    from league.signals import game_result_changed
    from ratings.receivers import on_game_result_changed

    game_result_changed.disconnect(on_game_result_changed, dispatch_uid="ratings.game_result_changed")
    if os.environ.get("BENCH_PROFILE"):  # where one result's time goes
        import cProfile
        import pstats

        enter_result()
        profile = cProfile.Profile()
        profile.runcall(enter_result)
        pstats.Stats(profile).sort_stats(os.environ["BENCH_PROFILE"]).print_stats(40)
    measure("enter one result, standings included", enter_result, max(5, n // 4), rows)
    game_result_changed.connect(on_game_result_changed, dispatch_uid="ratings.game_result_changed")
    from ratings import services as ratings

    t0 = time.perf_counter()
    ratings.league_ratings_rebuild(league=season.league)
    rows.append(("ratings: full rebuild of the league (once)", (time.perf_counter() - t0) * 1000, 0, 0, 0, 0))
    measure("ratings: sync after one corrected result (task)", lambda: ratings.game_ratings_sync(
        league=season.league, game_id=game.pk, kind="replaced") and 0 or 0, 3, rows)
    seats = [s.player_id for s in game.seats.all()]
    measure("standings update alone (4 rows, re-rank)", lambda: services.standings_update(division=a, player_ids=seats) and 0 or 0,
            max(5, n // 4), rows)
    measure("full standings recompute (the audit)", lambda: services.standings_recompute(division=a) and 0 or 0, 3,
            rows)
    print(f"\n{players_n} players, {games_n} games, {args.divisions} divisions (built in {built:.1f} s)")
    print(f"{'page / action':44} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'queries':>8} {'bytes':>9}")
    for label, p50, p95, p99, q, size in rows:
        print(f"{label:44} {p50:8.1f} {p95:8.1f} {p99:8.1f} {q:8d} {size:9d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=50000)
    parser.add_argument("--divisions", type=int, default=2)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--growth", action="store_true", help="also run at a quarter of the size")
    args = parser.parse_args()

    import django
    from django.conf import settings

    django.setup()
    settings.DEBUG = False
    from django.db import connection
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.SECURE_SSL_REDIRECT = False  # production sits behind a TLS proxy; the bench talks plain HTTP
    # the hashed-name manifest exists only after collectstatic: plain names measure the same work
    settings.STORAGES = {**settings.STORAGES,
                         "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    old = setup_databases(verbosity=0, interactive=False)
    try:
        print(f"database: {connection.vendor}")
        if args.growth:
            run(args, args.players // 4, args.games // 4)
        run(args, args.players, args.games)
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
