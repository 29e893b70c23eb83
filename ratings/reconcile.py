"""Reconciliation: find derived rows a lost task (a killed worker, a broker that was down) or a
change made around the services left stale, and repair them from the raw facts.

Nothing waits for a task that was lost: the Celery beat runs :func:`derived_reconcile` every few
minutes (config/celery.py) and ``manage.py derived_reconcile`` runs it by hand. Each check reads
the stored rows and what the raw facts give, and repairs only what differs, so a second run
finds nothing and writes nothing (idempotent). Checked, in dependency order:

1. settlements: each seat's score, points and place as its game's stored result gives them;
2. standings: each division's table as the full recompute gives it;
3. season page summaries: each division's counts of entrants and games as the full recount
   gives them;
4. ratings: each league's rating events (the games rated, their places, each player's chain of
   before/after states) and current ratings; a league is replayed from its earliest
   disagreement only, not from its first game.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from django.db import transaction

from kyoku.models import League
from kyoku.principals import Actor
from league.models import Division, GameResult, GameSeat, Standing
from league.models import DivisionSummary
from league.services import STANDING_FIELDS, SUMMARY_FIELDS, division_summary_recompute, standings_recompute
from league.summary import division_summary_rows
from league.standings import standings_rows

from . import engine
from .models import PlayerRating, RatingEvent
from .services import league_ratings_rebuild, order_key, rated_games


def division_seats_stale(*, division: Division) -> dict[int, tuple]:
    """Seats whose score, points or place differ from their game's stored result (the result is
    what was settled and audited), each with the figures it should hold: ``{seat id: (score,
    points, place)}``."""
    results = {
        gid: (scores, points, places)
        for gid, scores, points, places in GameResult.objects.filter(game__division=division).values_list(
            "game_id", "scores", "points", "places"
        )
    }
    stale = {}
    for pk, game_id, seat, score, points, place in (
        GameSeat.objects.filter(game__division=division, game_id__in=list(results))
        .order_by()
        .values_list("pk", "game_id", "seat", "raw_score", "points", "place")
    ):
        want_scores, want_points, want_places = results[game_id]
        if seat >= min(len(want_scores), len(want_points), len(want_places)):
            continue  # a malformed stored result is not a derived row to repair here
        want = (want_scores[seat], Decimal(str(want_points[seat])), want_places[seat])
        if (score, points, place) != want:
            stale[pk] = want
    return stale


@transaction.atomic
def division_settlements_reconcile(*, division: Division) -> int:
    """Give stale seats their result's figures. Returns how many were repaired."""
    stale = division_seats_stale(division=division)
    for pk, (score, points, place) in stale.items():
        GameSeat.objects.filter(pk=pk).update(raw_score=score, points=points, place=place)
    return len(stale)


def division_standings_stale(*, division: Division) -> bool:
    """Whether the stored table differs from the full recompute."""
    want = {row["player_id"]: tuple(row[f] for f in STANDING_FIELDS) for row in standings_rows(division=division)}
    stored = {
        row[0]: tuple(row[1:])
        for row in Standing.objects.filter(division=division).order_by().values_list("player_id", *STANDING_FIELDS)
    }
    return not _standings_equal(stored, want)


def division_standings_reconcile(*, division: Division) -> bool:
    """Recompute the division's standings when they are stale. Returns whether it did."""
    if not division_standings_stale(division=division):
        return False
    standings_recompute(division=division)
    return True


def division_summary_reconcile(*, division: Division) -> bool:
    """Recount the division's season-page summary when its stored row differs from the recount.
    Returns whether it did."""
    want = division_summary_rows(season_id=division.season_id, division_ids=[division.pk])[division.pk]
    stored = DivisionSummary.objects.filter(division=division).values(*SUMMARY_FIELDS).first()
    if stored == {f: want[f] for f in SUMMARY_FIELDS}:
        return False
    division_summary_recompute(division=division)
    return True


def _standings_equal(stored: dict, want: dict) -> bool:
    if stored.keys() != want.keys():
        return False
    # averages are stored rounded; compare them as the table shows them
    return all(tuple(_comparable(v) for v in stored[p]) == tuple(_comparable(v) for v in want[p]) for p in want)


def _comparable(value):
    if isinstance(value, (float, Decimal)):
        return round(float(value), 3)
    return value


def league_ratings_disagreement(*, league: League) -> tuple[str | None, set[int]]:
    """The earliest order key from which the stored rating events disagree with the league's
    rated games (a game missing, extra, moved or with other places; a player's before-state not
    their previous after-state), and the players whose current rating row disagrees with their
    last event. ``(None, set())`` when everything agrees."""
    first_bad: str | None = None

    def note(key: str) -> None:
        nonlocal first_bad
        first_bad = key if first_bad is None or key < first_bad else first_bad

    current = {gid: (key, sorted(seats)) for key, gid, seats in rated_games(league=league)}
    stored = defaultdict(list)
    state: dict[int, tuple[float, float]] = {}
    last: dict[int, tuple[str, int, int]] = {}  # player -> (key, game, count)
    for key, gid, player, place, mu0, s0, mu1, s1 in (
        RatingEvent.objects.filter(league=league)
        .order_by("order_key", "player_id")
        .values_list(
            "order_key", "game_id", "player_id", "place", "mu_before", "sigma_before", "mu_after", "sigma_after"
        )
        .iterator(chunk_size=5000)
    ):
        stored[gid].append((key, player, place))
        if state.get(player, engine.START) != (mu0, s0):
            note(key)
        state[player] = (mu1, s1)
        last[player] = (key, gid, last.get(player, ("", 0, 0))[2] + 1)
    for gid in current.keys() | stored.keys():
        rows = stored.get(gid, [])
        key, seats = current.get(gid, (None, []))
        if sorted((p, place) for _, p, place in rows) != seats or any(k != key for k, _, _ in rows):
            note(min([k for k, _, _ in rows] + ([key] if key else [])))
    players = set()
    rated = {r.player_id: r for r in PlayerRating.objects.filter(league=league)}
    for player in rated.keys() | last.keys():
        row, (last_key, last_gid, count) = rated.get(player), last.get(player, (None, None, 0))
        if (
            row is None
            or last_key is None
            or (row.mu, row.sigma, row.games, row.last_game_id) != (*state[player], count, last_gid)
        ):
            players.add(player)  # restored from their last event: nothing to replay
    return first_bad, players


def league_ratings_reconcile(*, league: League, actor: Actor) -> dict | None:
    """Replay the league's ratings from their earliest disagreement. None when they agree."""
    from_key, players = league_ratings_disagreement(league=league)
    if from_key is None and not players:
        return None
    if from_key is None:  # only current-rating rows disagree: restore them, replay nothing
        from_key = order_key(year=9999, number=9, match_day=99999, table=99999, game_id=10**12 - 1)
    return league_ratings_rebuild(league=league, from_key=from_key, players=players, reason="reconcile", actor=actor)


def derived_reconcile(*, actor: Actor, leagues=None) -> dict:
    """Every check over every league (or those given). Returns what was repaired, by league."""
    report = {}
    for league in leagues if leagues is not None else League.objects.order_by("slug"):
        seats = standings = summaries = 0
        for division in Division.objects.filter(season__league=league).order_by("pk"):
            seats += division_settlements_reconcile(division=division)
            standings += division_standings_reconcile(division=division)
            summaries += division_summary_reconcile(division=division)
        rated = league_ratings_reconcile(league=league, actor=actor)
        report[league.slug] = {"seats": seats, "standings": standings, "summaries": summaries, "ratings": rated}
    return report
