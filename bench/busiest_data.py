"""The busiest hour's data: a running event and many leagues, built with the bench builders.

    DATABASE_URL=... SECRET_KEY=... .venv/bin/python bench/busiest_data.py OUT.json
        [--event-players 300] [--leagues 100] [--league-players 40] [--league-games 200]
        [--results 4] [--hands 8]

Run by bench/busiest_hour.py and bench/live.py against the database they serve (after
``migrate``); by hand, it needs DATABASE_URL and the server's SECRET_KEY (the table codes derive
from it). It builds:

- an event of EVENT_PLAYERS players (bench/event_board.py's shape): every player checked in, the
  rounds seated, round 1 on the clock; each table's code, as printed on its sign;
- LEAGUES leagues of LEAGUE_PLAYERS players and LEAGUE_GAMES finished games each
  (bench/league_scale.py's ``build``, rated in full as a live league is), each with an admin
  (a league admin role and an API token), RESULTS scheduled games for the admin to enter and one
  game to enter hand by hand (HANDS hands, then finished).

It writes OUT.json, the manifest the load reads: the event's board, its tables and codes, and per
league its admin's token, the games to enter, the divisions and players to read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))
from kyoku.principals import System  # noqa: E402

BENCH = System("command:bench")  # who the benchmark acts as
SCORES = [[48000, 32000, 12000, 8000], [25000, 35000, 30000, 10000], [20000, 20000, 38000, 22000]]


def event_build(players_n: int, tag: str = "busy", rounds: int = 2) -> dict:
    """A running event of ``players_n`` players and ``rounds`` rounds, round 1 started: its board
    and its tables' codes (bench/event_board.py's event too)."""
    from django.utils import timezone

    from events import services
    from events.models import Round
    from kyoku.models import League
    from league import services as league_services
    from league.models import Game, Player

    league = League.objects.create(name=f"Bench Event League {tag}", slug=f"bench-event-{tag}", promotion_count=1)
    rules = league_services.rule_set_create(
        name="M-League", slug=f"mleague-event-{tag}", preset="mleague", is_template=True, actor=BENCH
    )
    players = Player.objects.bulk_create(
        Player(display_name=f"Event Player {i:03d}", membership_number=f"E{tag}{i:04d}") for i in range(players_n)
    )
    event = services.event_create(
        league=league,
        name=f"Bench Open {tag}",
        slug=f"bench-open-{tag}",
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate(),
        rule_set=rules,
        capacity=players_n,
        rounds=rounds,
        round_minutes=90,
        cut=4,
        actor=BENCH,
    )
    for p in players:
        services.checkin_set(
            registration=services.registration_add(event=event, player=p, actor=BENCH), present=True, actor=BENCH
        )
    services.event_status_set(event=event, status="running", actor=BENCH)
    services.seating_plan(event=event, time_limit=5, actor=BENCH)
    services.round_clock_set(round_=Round.objects.get(event=event, number=1), action="start", actor=BENCH)
    tables = Game.objects.filter(season=event.season, match_day=1).order_by("table")
    return {
        "id": event.pk,
        "board": f"/api/events/{event.pk}/board",
        "board_page": f"/events/{event.pk}/board/",
        "tables": [{"game": g.pk, "table": g.table, "code": services.table_code(g)} for g in tables],
    }


def league_build(i: int, players_n: int, games_n: int, results_n: int) -> dict:
    """One league of league_scale's shape, rated, with its admin and the games left to enter."""
    import league_scale
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from kyoku.models import LeagueRole
    from league import services
    from league.models import Game, Player
    from ratings import services as ratings

    season, divisions = league_scale.build(players_n, games_n, 2, tag=f"-busy{i}", analyse=False)
    ratings.league_ratings_rebuild(league=season.league, actor=BENCH)
    user = get_user_model().objects.create_user(f"busy-admin-{i}", password=None)
    LeagueRole.objects.create(league=season.league, user=user, role=LeagueRole.Role.ADMIN)
    token = Token.objects.create(user=user).key
    a = divisions[0]
    entrants = list(a.entries.order_by("player_id").values_list("player_id", flat=True))
    last_day = Game.objects.filter(division=a).order_by("-match_day").values_list("match_day", flat=True).first() or 0
    games = []
    for k in range(results_n + 1):  # the last one is played hand by hand
        seated = list(Player.objects.filter(pk__in=entrants[4 * k % (len(entrants) - 3) :][:4]))
        games.append(
            services.game_create(division=a, match_day=last_day + 1, table=k + 1, players=seated, actor=BENCH).pk
        )
    players = list(Player.objects.filter(entries__season=season).order_by("pk").values_list("pk", flat=True).distinct())
    return {
        "slug": season.league.slug,
        "season": season.pk,
        "divisions": [d.pk for d in divisions],
        "token": token,
        "results": games[:-1],
        "by_hand": games[-1],
        "players": players,
    }


def build(args: argparse.Namespace) -> dict:
    import league_scale

    t = time.perf_counter()
    manifest = {"event": event_build(args.event_players), "leagues": [], "hands": []}
    for i in range(args.leagues):
        manifest["leagues"].append(league_build(i, args.league_players, args.league_games, args.results))
    # the hand-by-hand game: the same hands for every league (random hands the engine settled)
    played, _ = league_scale.hand_games(1, args.hands)[0]
    manifest["hands"] = [record for record, _settlement, _after in played]
    manifest["scores"] = SCORES
    manifest["built_seconds"] = round(time.perf_counter() - t, 1)
    return manifest


def arguments(ap: argparse.ArgumentParser) -> None:
    """The data's flags (shared with bench/busiest_hour.py and bench/prodshape.py)."""
    ap.add_argument("--event-players", type=int, default=300)
    ap.add_argument("--leagues", type=int, default=100)
    ap.add_argument("--league-players", type=int, default=40)
    ap.add_argument("--league-games", type=int, default=200)
    ap.add_argument("--results", type=int, default=4, help="results each league's admin enters")
    ap.add_argument("--hands", type=int, default=8, help="hands of each league's hand-by-hand game")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    arguments(ap)
    args = ap.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    manifest = build(args)
    with open(args.out, "w") as f:
        json.dump(manifest, f)
    print(
        f"built in {manifest['built_seconds']} s: an event of {args.event_players} players "
        f"({len(manifest['event']['tables'])} tables), {args.leagues} leagues"
    )


if __name__ == "__main__":
    main()
