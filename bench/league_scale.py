"""Benchmark: the pages everybody opens and entering one result, on a league of league size.

    .venv/bin/python bench/league_scale.py [--players 2000] [--games 50000] [--divisions 2]
                                           [--requests 40] [--growth]

Builds, in a throwaway database (Django's test-database machinery; DATABASE_URL picks SQLite or
PostgreSQL), a league of PLAYERS players in DIVISIONS divisions and GAMES finished games (bulk
inserts through the project's models; league points from the scoring engine's game_end), brings
the standings and the season page's division summaries up to date with the full recompute, then prints for each page and action the
p50 / p95 / p99 time, the number of queries and the bytes of the answer:

- division standings page (cold: first request after a change; warm: the following ones)
- standings API (warm, and a conditional request answered 304)
- player page (the busiest player)
- season page
- the statistics page and API of the busiest player, a leaderboard page and API (stats/): warm,
  and the pages cold as well (the first request after a change: cached figures and board slices
  are keyed on the league's figures version)
- entering one result with everything the request runs on the embedded default (tasks
  in-process: standings and ratings included): a result for a new game (the latest of the
  league) and a correction of the latest game
- the same split as the production shape runs it: the request alone (ratings queued) and the
  ratings task alone
- entering one hand of a game played hand by hand (its figures included)

A tenth of the games are played hand by hand (``--hands``: the fraction), so the statistics
have hands to count; the league's statistics are rebuilt in full (timed) after the bulk load.

The league is rated (the full rebuild, timed) before anything is measured, as a live league is.

Where a result's time goes: ``BENCH_QUERIES=N`` prints each statement of N more new results, N
more hands and N more corrections of the latest game (the medians of each statement's time and
of the time before it, outside statements); ``BENCH_PROFILE=tottime`` (or ``cumtime``) profiles one more, ``BENCH_PROFILE_FILTER`` narrows the
listing (a regular expression on the file and function) and ``BENCH_PROFILE_CALLEES`` lists what
the named functions call.

``--growth`` runs 2,000 players / 50,000 games, 10,000 / 250,000 and 100 leagues of 2,000
players (2,500 games each, 250,000 in the database), then prints one table of the p95 figures
(``--scale 0.1`` for a toy run of the same shapes). Runs with DEBUG off, as in production.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from kyoku.principals import System  # noqa: E402

BENCH = System("command:bench")  # who the benchmark acts as
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")

SCORE_SETS = [
    [45000, 30000, 15000, 10000],
    [25000, 25000, 30000, 20000],
    [10000, 40000, 30000, 20000],
    [20000, 20000, 20000, 40000],
    [33100, 28400, 21500, 17000],
    [52000, 24000, 14000, 10000],
]


def hand_games(n: int = 6, hands_per_game: int = 10) -> list[tuple[list, list[int]]]:
    """A few games played hand by hand (random hands settled by the engine under M-League
    rules): ``[(hands as (record, settlement, scores after), final scores)]``, reused for the
    bench's hand-by-hand games."""
    from scoring.engine import resolve_rules
    from scoring.engine.replay import hands_replay

    rng = random.Random(36)
    _, options = resolve_rules({"preset": "mleague"})
    out = []
    for _ in range(n):
        records = []
        for _ in range(hands_per_game):
            kind = rng.choice(["ron", "ron", "tsumo", "draw"])
            riichi = sorted(rng.sample(range(4), rng.choice([0, 0, 1, 2])))
            winner = rng.randrange(4)
            han = rng.choice([1, 2, 3, 4])
            if kind == "ron":
                result = {
                    "type": "ron",
                    "from": (winner + rng.randrange(1, 4)) % 4,
                    "winners": [{"seat": winner, "han": han, "fu": 30}],
                }
            elif kind == "tsumo":
                result = {"type": "tsumo", "winner": {"seat": winner, "han": han, "fu": 30}}
            else:
                result = {"type": "draw", "tenpai": sorted(rng.sample(range(4), rng.randrange(5)))}
            records.append({"riichi": riichi, "result": result} if riichi else {"result": result})
        replayed = list(hands_replay("riichi", options, records))
        out.append(([(r, s, a) for r, s, a in replayed], list(replayed[-1][2])))
    return out


def build(players_n: int, games_n: int, divisions_n: int, tag: str = "", analyse: bool = True, hands: float = 0.1):
    from league import services
    from scoring.models import HandRecord
    from kyoku.models import League
    from league.models import Division, Game, GameResult, GameSeat, Player
    from scoring.engine import game_end

    rng = random.Random(10)
    league = League.objects.create(name=f"Bench {players_n}{tag}", slug=f"bench-{players_n}-{games_n}{tag}")
    rules = services.rule_set_create(
        name="M-League", slug=f"mleague-{players_n}-{games_n}{tag}", preset="mleague", actor=BENCH
    )
    codes = [(chr(65 + i), f"{chr(65 + i)} Division", "") for i in range(divisions_n)]
    season = services.season_create(league=league, year=2026, number=1, rule_set=rules, divisions=codes, actor=BENCH)
    divisions = list(Division.objects.filter(season=season).order_by("order"))
    players = Player.objects.bulk_create(
        Player(
            display_name=f"Player {i:05d}", native_name=f"選手{i}", membership_number=f"S{players_n}-{games_n}{tag}-{i}"
        )
        for i in range(players_n)
    )
    per = players_n // divisions_n
    groups = [players[i * per : (i + 1) * per] for i in range(divisions_n)]
    from league.models import Entry

    Entry.objects.bulk_create(Entry(season=season, division=d, player=p) for d, g in zip(divisions, groups) for p in g)
    points_of = {tuple(s): game_end({"preset": "mleague"}, s) for s in SCORE_SETS}
    tables = max(1, per // 4)
    batch_games, batch_seats, batch_results, batch_hands = [], [], [], []
    played = hand_games()
    every = int(round(1 / hands)) if hands else 0  # every n-th game is played hand by hand
    next_game = (Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    constant = {"season": season, "status": Game.Status.FINISHED}

    def flush():
        rows_insert(Game, batch_games, **constant)
        rows_insert(GameSeat, batch_seats)
        rows_insert(GameResult, batch_results, rule_set=rules)
        rows_insert(HandRecord, batch_hands)
        batch_games.clear(), batch_seats.clear(), batch_results.clear(), batch_hands.clear()

    for n in range(games_n):
        d = n % divisions_n
        day, table = divmod(n // divisions_n, tables)
        game_id = next_game + n
        by_hand = every and n % every == 0
        if by_hand:
            game_hands, scores = played[n % len(played)]
            scores = list(scores)
        else:
            scores = list(rng.choice(SCORE_SETS))
            rng.shuffle(scores)
        computed = points_of.get(tuple(scores)) or game_end({"preset": "mleague"}, scores)
        points_of[tuple(scores)] = computed
        seated = rng.sample(groups[d], 4)
        batch_games.append({"id": game_id, "division_id": divisions[d].pk, "match_day": day + 1, "table": table + 1})
        batch_seats += [
            {
                "game_id": game_id,
                "seat": i,
                "player_id": p.pk,
                "raw_score": scores[i],
                "points": computed["points"][i],
                "place": computed["places"][i],
            }
            for i, p in enumerate(seated)
        ]
        batch_results.append(
            {"game_id": game_id, "scores": scores, "points": computed["points"], "places": computed["places"]}
        )
        if by_hand:
            batch_hands += [
                {
                    "game_id": game_id,
                    "sequence": i,
                    "record": r,
                    "settlement": st,
                    "scores_after": after,
                    "ends_game": i == len(game_hands),
                }
                for i, (r, st, after) in enumerate(game_hands, start=1)
            ]
        if len(batch_games) >= 2000:
            flush()
    flush()
    sequences_reset([Game])
    for d in divisions:  # the bulk load went around the services: their derived rows in full
        services.standings_recompute(division=d)
        services.division_summary_recompute(division=d)
    from stats.services import stats_recompute

    t0 = time.perf_counter()
    stats_recompute(actor=BENCH, league=league)
    STATS_BUILT.append(time.perf_counter() - t0)
    if analyse:
        settle_statistics()
    return season, divisions


def rows_insert(model, rows: list[dict], **constant) -> None:
    """Insert ``rows`` (attribute name → value; the same names in every row) in batches of one
    plain parameterised INSERT each, the other columns as a model instance built from
    ``constant`` has them (defaults, ``auto_now``). The same rows as ``bulk_create`` writes,
    without its per-instance preparation (most of the bulk load's time at 250,000 games): each
    value goes through its field's ``get_db_prep_save`` only where the field adapts it (JSON,
    decimals), and the database numbers the rows unless the rows give ``id``."""
    from django.db import connection
    from django.db.models import BooleanField, CharField, IntegerField
    from django.db.models.fields.related import ForeignKey

    if not rows:
        return
    names = list(rows[0])
    template = model(**constant)
    fields = [f for f in model._meta.concrete_fields if f.attname in names or not f.primary_key]
    plain = (IntegerField, CharField, BooleanField, ForeignKey)  # passed to the driver as they are
    fixed = {
        f.attname: f.get_db_prep_save(f.pre_save(template, True), connection) for f in fields if f.attname not in names
    }
    adapt = {f.attname: f for f in fields if f.attname in names and not isinstance(f, plain)}
    q = connection.ops.quote_name
    sql = (
        f"INSERT INTO {q(model._meta.db_table)} ({', '.join(q(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    order = [f.attname for f in fields]
    params = [
        [
            (adapt[a].get_db_prep_save(row[a], connection) if a in adapt else row[a]) if a in row else fixed[a]
            for a in order
        ]
        for row in rows
    ]
    with connection.cursor() as cursor:
        for i in range(0, len(params), 5000):
            cursor.executemany(sql, params[i : i + 5000])


def sequences_reset(models: list) -> None:
    """PostgreSQL: the id sequences past the ids given explicitly (SQLite's AUTOINCREMENT
    follows the largest id by itself)."""
    from django.core.management.color import no_style
    from django.db import connection

    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(statement)


STATS_BUILT: list[float] = []  # seconds of each league's full statistics recompute


def settle_statistics() -> None:
    """PostgreSQL: a freshly bulk-loaded table has no statistics and autovacuum would analyse it
    in the middle of the measurements; a live league's tables are analysed. Do it now."""
    from django.db import connection

    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def measure(label, fn, n, rows):
    from django.db import connection

    times, cpu, size = [], [], 0
    sent = [0]

    def count(execute, sql, params, many, context):
        # a counter, not CaptureQueriesContext: capturing formats and keeps every statement
        # (about 45 µs each here), which the request itself does not pay
        sent[0] += 1
        return execute(sql, params, many, context)

    fn()  # once unmeasured: a worker's first request compiles templates and loads catalogues
    for _ in range(n):
        with connection.execute_wrapper(count):
            sent[0] = 0
            t, c = time.perf_counter(), time.process_time()
            size = fn()
            times.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
        queries = sent[0]
    rows.append((label, statistics.median(times), pct(times, 95), pct(times, 99), queries, size, pct(cpu, 95)))


def statements_print(label: str, fn, runs_n: int) -> None:
    """Each statement of ``runs_n`` calls of ``fn`` (medians per position, over the calls that
    sent the statements the first one sent), with the time outside statements before each."""
    from django.db import connection

    runs: list[list[tuple[float, float, str]]] = []  # per run: (ms before it outside queries, ms in it, sql)
    totals: list[float] = []
    for _ in range(runs_n):
        timed: list[tuple[float, float, str]] = []
        last = [0.0]

        def timer(execute, sql, params, many, context, timed=timed, last=last):
            t0 = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                t1 = time.perf_counter()
                timed.append(((t0 - last[0]) * 1000, (t1 - t0) * 1000, sql))
                last[0] = t1

        with connection.execute_wrapper(timer):
            t0 = last[0] = time.perf_counter()
            fn()
            totals.append((time.perf_counter() - t0) * 1000)
        runs.append(timed)
    same = [r for r in runs if [q for _, _, q in r] == [q for _, _, q in runs[0]]]
    med = statistics.median
    rows_ = [(med([r[i][0] for r in same]), med([r[i][1] for r in same]), runs[0][i][2]) for i in range(len(runs[0]))]
    total, in_queries = med(totals), sum(t for _, t, _ in rows_)
    print(
        f"{label} ({len(same)} of {len(runs)} runs alike, medians): {total:.1f} ms, {len(rows_)} queries, {in_queries:.1f} ms in them"
    )
    print("  before   in it  (ms: the time before each query outside queries, then the query's own)")
    for gap, ms, sql in rows_:
        print(f"{gap:7.2f} {ms:7.2f}  {' '.join(sql.split())[:300]}")
    print(f"{sum(g for g, _, _ in rows_):7.2f}          outside queries, in all")


def pct(values: list[float], p: float) -> float:
    """The p-th percentile, nearest rank (with 40 samples p95 is the 38th, not the slowest)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def run(args, players_n: int, games_n: int, leagues_n: int = 1) -> dict:
    from django.core.cache import cache
    from django.db.models import Count
    from django.test import Client

    from league import services
    from league.models import Game, GameSeat, Player
    from league.signals import game_result_changed
    from ratings import services as ratings
    from ratings.receivers import on_game_result_changed
    from ratings.tasks import ratings_game_sync

    t = time.perf_counter()
    rated = 0.0
    kept = kept_league(players_n, games_n) if args.keep and leagues_n == 1 else None
    for i in range(0 if kept else leagues_n):  # the other leagues share the tables; the last one is measured
        last = i == leagues_n - 1
        season, divisions = build(
            players_n, games_n, args.divisions, tag=f"-l{i}" if leagues_n > 1 else "", analyse=False, hands=args.hands
        )
        t0 = time.perf_counter()
        ratings.league_ratings_rebuild(league=season.league, actor=BENCH)
        rated = time.perf_counter() - t0 if last else rated
    if kept:
        season, divisions = kept
    settle_statistics()
    built = time.perf_counter() - t
    client = Client()
    a = divisions[0]
    busiest = (
        GameSeat.objects.filter(game__season=season)
        .values("player_id")
        .order_by()
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()
    )
    player = Player.objects.get(pk=busiest["player_id"])
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    name = f"bench{players_n}-{games_n}"
    admin = users.filter(username=name).first() or users.create_superuser(name, password="x")
    # the latest game of the league: a correction on the evening it was played (a correction of the
    # first game of the season would also replay every later rating: see bench/ratings_recompute.py)
    game = Game.objects.filter(season=season).order_by("-match_day", "-table", "-pk").first()
    rows = []
    n = args.requests

    def cold(url: str):
        def get() -> int:
            cache.clear()  # what the first reader after a change gets: nothing cached for its version
            return len(client.get(url).content)

        return get

    if not args.writes_only:  # the pages
        measure(
            "standings page, cold (after a change)", cold(f"/seasons/{season.pk}/divisions/A/"), max(5, n // 4), rows
        )
        measure("standings page, warm", lambda: len(client.get(f"/seasons/{season.pk}/divisions/A/").content), n, rows)
        api = f"/api/divisions/{a.pk}/standings/"
        etag = client.get(api)["ETag"]
        measure("standings API, warm", lambda: len(client.get(api).content), n, rows)
        measure(
            "standings API, 304 (If-None-Match)", lambda: len(client.get(api, HTTP_IF_NONE_MATCH=etag).content), n, rows
        )
        measure(
            f"player page ({busiest['n']} games)", lambda: len(client.get(f"/players/{player.pk}/").content), n, rows
        )
        measure("season page", lambda: len(client.get(f"/seasons/{season.pk}/").content), max(5, n // 4), rows)
        slug = season.league.slug
        measure(
            "statistics page (the busiest player)",
            lambda: len(client.get(f"/players/{player.pk}/statistics/?league={slug}").content),
            n,
            rows,
        )

        measure(
            "statistics page, cold (after a change)",
            cold(f"/players/{player.pk}/statistics/?league={slug}"),
            max(5, n // 4),
            rows,
        )
        measure(
            "statistics API (the busiest player)",
            lambda: len(client.get(f"/api/players/{player.pk}/statistics/?league={slug}").content),
            n,
            rows,
        )
        measure(
            "leaderboard page (win rate, min 0)",
            lambda: len(client.get(f"/leagues/{slug}/statistics/?rate=win_rate&min=0").content),
            n,
            rows,
        )
        measure(
            "leaderboard page, cold (after a change)",
            cold(f"/leagues/{slug}/statistics/?rate=win_rate&min=0"),
            max(5, n // 4),
            rows,
        )
        measure(
            "leaderboard API (average placement)",
            lambda: len(client.get(f"/api/leagues/{slug}/statistics/?rate=average_place&min=1").content),
            n,
            rows,
        )
    flip = iter(range(10**6))

    def enter_result():
        scores = SCORE_SETS[next(flip) % len(SCORE_SETS)]
        services.game_result_record(game=game, scores=scores, actor=admin, replace=True)
        return 0

    # new games, each on a match day after every game so far: each result is the league's latest
    entries = list(a.entries.values_list("player_id", flat=True)[: 4 * max(1, n)])
    groups = [entries[i : i + 4] for i in range(0, len(entries) - 3, 4)]
    # BENCH_QUERIES=N: each statement of N more new results (medians); 1 when set to anything else
    query_runs = (
        int(os.environ.get("BENCH_QUERIES", "0"))
        if os.environ.get("BENCH_QUERIES", "").isdigit()
        else int(bool(os.environ.get("BENCH_QUERIES")))
    )
    fresh = iter(
        [
            services.game_create(
                division=a,
                match_day=game.match_day + 1 + i,
                table=1,
                players=list(Player.objects.filter(pk__in=groups[i % len(groups)])),
                actor=BENCH,
            )
            for i in range(n + 3 + query_runs)
        ]
    )
    fresh_flip = iter(range(10**6))
    entered: list = []

    def enter_new_result():
        scores = SCORE_SETS[next(fresh_flip) % len(SCORE_SETS)]
        entered.append(next(fresh))
        services.game_result_record(game=entered[-1], scores=scores, actor=admin, replace=True)
        return 0

    # everything the request runs on the embedded default: the on-commit hooks run the ratings
    # task in-process (no receiver disconnected)
    measure("enter one result, new latest game (all incl.)", enter_new_result, n, rows)
    if os.environ.get("BENCH_QUERIES"):  # each query of more new results, with its time
        statements_print("one new result", enter_new_result, query_runs)
    if os.environ.get("BENCH_PROFILE"):  # where one more new result's time goes
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(enter_new_result)
        stats = pstats.Stats(profile)
        stats.sort_stats(os.environ["BENCH_PROFILE"]).print_stats(os.environ.get("BENCH_PROFILE_FILTER", ""), 60)
        if os.environ.get("BENCH_PROFILE_CALLEES"):  # what these functions' time goes to
            stats.print_callees(os.environ["BENCH_PROFILE_CALLEES"])
        by_package: dict[str, float] = defaultdict(float)  # own time, by where the code lives
        for (path, _line, _name), (_cc, _nc, own, _cum, _callers) in stats.stats.items():  # type: ignore[attr-defined]
            parts = path.split("site-packages/")
            where = parts[1].split("/")[0] if len(parts) > 1 else path.replace(ROOT + "/", "").split("/")[0]
            by_package[where] += own * 1000
        for where, ms in sorted(by_package.items(), key=lambda kv: -kv[1])[:15]:
            print(f"{ms:7.2f} ms  {where}")
    game = entered[
        -1
    ]  # the league's latest game, and its players' (before any hands below): the evening's last result, corrected
    measure("correct the latest game (all incl. ratings)", enter_result, n, rows)
    if os.environ.get("BENCH_QUERIES"):
        statements_print("one correction of the latest game", enter_result, query_runs)

    # the production shape: the request queues the ratings task, a worker runs it; timed apart
    game_result_changed.disconnect(on_game_result_changed, dispatch_uid="ratings.game_result_changed")
    league_id = season.league_id
    try:
        request_times, task_times, request_cpu, task_cpu = [], [], [], []
        for _ in range(n):
            t0, c0 = time.perf_counter(), time.process_time()
            enter_result()
            request_times.append((time.perf_counter() - t0) * 1000)
            request_cpu.append((time.process_time() - c0) * 1000)
            t0, c0 = time.perf_counter(), time.process_time()
            ratings_game_sync.run(league_id, game.pk, "replaced")
            task_times.append((time.perf_counter() - t0) * 1000)
            task_cpu.append((time.process_time() - c0) * 1000)
    finally:
        game_result_changed.connect(on_game_result_changed, dispatch_uid="ratings.game_result_changed")
    for label, times, cpu in (
        ("  worker shape: the request alone", request_times, request_cpu),
        ("  worker shape: the ratings task alone", task_times, task_cpu),
    ):
        rows.append((label, statistics.median(times), pct(times, 95), pct(times, 99), 0, 0, pct(cpu, 95)))
    from scoring import services as hand_services

    hand_record = {"riichi": [1], "result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 3, "fu": 30}]}}
    by_hand = iter(
        [
            services.game_create(
                division=a,
                match_day=game.match_day + 4 + n + query_runs + i,
                table=1,
                players=list(Player.objects.filter(pk__in=groups[i % len(groups)])),
                actor=BENCH,
            )
            for i in range(n + 1 + query_runs)
        ]
    )

    def enter_hand():
        hand_services.hand_record_add(game=next(by_hand), record=hand_record, actor=admin)
        return 0

    measure("enter one hand (all incl. figures)", enter_hand, n, rows)
    if os.environ.get("BENCH_QUERIES"):
        statements_print("one hand", enter_hand, query_runs)
    # the common case at a table scored hand by hand: the next hand of a game already started
    # (the game is its players' latest, and its figures change in place)
    started = [
        services.game_create(
            division=a,
            match_day=game.match_day + 5 + 2 * n + 2 * query_runs + i,
            table=1,
            players=list(Player.objects.filter(pk__in=groups[i % len(groups)])),
            actor=BENCH,
        )
        for i in range(n + 1 + query_runs)
    ]
    for started_game in started:
        hand_services.hand_record_add(game=started_game, record=hand_record, actor=admin)
    next_of = iter(started)

    def enter_next_hand():
        hand_services.hand_record_add(game=next(next_of), record=hand_record, actor=admin)
        return 0

    measure("enter the next hand of a game (all incl.)", enter_next_hand, n, rows)
    if os.environ.get("BENCH_QUERIES"):
        statements_print("the next hand of a game", enter_next_hand, query_runs)
    rows.append(("ratings: full rebuild of the league (once)", rated * 1000, 0, 0, 0, 0, 0))
    if STATS_BUILT:
        rows.append(("statistics: full recompute of the league (once)", STATS_BUILT[-1] * 1000, 0, 0, 0, 0, 0))
    seats = [s.player_id for s in game.seats.all()]
    measure(
        "standings update alone (4 rows, re-rank)",
        lambda: services.standings_update(division=a, player_ids=seats) and 0 or 0,
        max(5, n // 4),
        rows,
    )
    measure(
        "full standings recompute (the audit)", lambda: services.standings_recompute(division=a) and 0 or 0, 3, rows
    )
    shape = f"{leagues_n} leagues x " if leagues_n > 1 else ""
    print(
        f"\n{shape}{players_n} players, {games_n} games, {args.divisions} divisions (built and rated in {built:.1f} s)"
    )
    print(
        f"{'page / action':46} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'queries':>8} {'bytes':>9} " f"{'CPU p95':>8}"
    )
    for label, p50, p95, p99, q, size, cpu95 in rows:
        print(f"{label:46} {p50:8.1f} {p95:8.1f} {p99:8.1f} {q:8d} {size:9d} {cpu95:8.1f}")
    print(f"(CPU: this process's time, so on PostgreSQL it leaves out the server's; load average {load()})")
    sys.stdout.flush()
    # (a --writes-only run has no pages: their cells are blank)
    p95 = defaultdict(lambda: (math.nan, math.nan), {label.split(" (")[0]: (p, c) for label, _, p, _, _, _, c in rows})
    return {
        "league": f"{shape}{players_n:,} / {games_n:,}",
        "standings": p95["standings page, warm"],
        "api": p95["standings API, warm"],
        "player": p95["player page"],
        "season": p95["season page"],
        "stats": p95["statistics page"],
        "stats_api": p95["statistics API"],
        "board": p95["leaderboard page"],
        "hand": p95["enter one hand"],
        "new": p95["enter one result, new latest game"],
        "correct": p95["correct the latest game"],
        "task": p95["  worker shape: the ratings task alone"],
    }


def kept_league(players_n: int, games_n: int):
    """The league of this shape built by an earlier ``--keep`` run, or None (its season and divisions)."""
    from league.models import Division, Season

    season = Season.objects.filter(league__slug=f"bench-{players_n}-{games_n}").first()
    if season is None:
        return None
    print(f"reusing the league built by an earlier --keep run (season {season.pk})")
    return season, list(Division.objects.filter(season=season).order_by("order"))


def load() -> str:
    return f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def growth_table(vendor: str, results: list[dict]) -> None:
    """p95 wall-clock time, and in brackets this process's CPU time (the figure a busy machine
    does not inflate; on PostgreSQL it leaves out the server's share)."""
    print(
        f"\n| league ({vendor}), p95 ms: wall (CPU) | standings | API | player page | season page | "
        "one result, ratings included: new | correction | ratings task alone | statistics page | "
        "statistics API | leaderboard | one hand |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")

    def cell(key: str, r: dict) -> str:
        wall, cpu = r[key]
        return f"{wall:.1f} ({cpu:.1f})"

    keys = ("standings", "api", "player", "season", "new", "correct", "task", "stats", "stats_api", "board", "hand")
    for r in results:
        print(f"| {r['league']} | " + " | ".join(cell(k, r) for k in keys) + " |")
    print(f"load average {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=50000)
    parser.add_argument("--divisions", type=int, default=2)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--hands", type=float, default=0.1, help="the fraction of games played hand by hand")
    parser.add_argument(
        "--growth",
        action="store_true",
        help="2,000/50,000, 10,000/250,000 and 100 leagues of 2,000 players, then one table",
    )
    parser.add_argument("--scale", type=float, default=1.0, help="--growth at this fraction of its sizes")
    parser.add_argument(
        "--keep",
        action="store_true",
        help="PostgreSQL: keep the database (test_<name>) and reuse a league of the same shape built by an "
        "earlier --keep run (for profiling; the measured actions add games to it)",
    )
    parser.add_argument(
        "--writes-only", action="store_true", help="skip the pages: only the writes are measured (for profiling)"
    )
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
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # nothing restores the database's contents from a copy: don't serialise it (a kept league
    # of 250,000 games took seven minutes to write out)
    old = setup_databases(verbosity=0, interactive=False, keepdb=args.keep, serialized_aliases=set())
    try:
        print(f"database: {connection.vendor}")
        if args.growth:
            f = args.scale
            shapes = [(2000, 50000, 1), (10000, 250000, 1), (2000, 2500, 100)]
            results = [
                run(args, max(8, int(p * f)), max(8, int(g * f)), max(1, int(n * f)) if n > 1 else 1)
                for p, g, n in shapes
            ]
            growth_table(connection.vendor, results)
        else:
            run(args, args.players, args.games)
    finally:
        if not args.keep:
            teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
