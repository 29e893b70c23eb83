"""A whole season at once (bulk): every hand re-settled, every result re-scored, the season's rules
revised with everything derived from them, and the standings recomputed, each in one transaction."""

from __future__ import annotations

import gc
import time
from contextlib import contextmanager

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q

from kyoku.errors import engine_error
from kyoku.principals import Actor
from league.models import GameResult, GameSeat, Season
from league.signals import games_results_changed_on_commit, season_facts_changed_now
from league.services import audit_log_write, rule_set_revise, standings_recompute
from scoring.engine import SettlementError, game_end, hands_affected

from ..models import HandRecord
from ..parallel import BATCH_HANDS, copy_text, resettled_parts
from .bulk_sql import HandsWriter, season_hand_batches, rows_update
from .chombo import chombo_ledger_sync
from .state import Rules


@transaction.atomic
def season_hands_resettle(
    *,
    season: Season,
    actor: Actor,
    workers: int | None = None,
    batch_hands: int = BATCH_HANDS,
    timings: dict | None = None,
) -> dict:
    """Re-settle every stored hand of ``season`` under its rule set, write back the hands whose
    derived data changed, re-derive every result (games finished from their hands take their final
    scores from them; every result's points follow the season's rule set) and recompute the
    standings. One transaction.

    Bulk: one streamed read, the engine on ``workers`` processes meanwhile (default: the CPU
    cores, see :mod:`scoring.parallel`), the changed rows written in a few statements, no query
    per row; on PostgreSQL each part is written while the workers settle the next ones.
    ``timings`` (optional) receives the seconds spent in each phase.
    """
    clock = _Clock(timings)
    season = _season_locked(season, "the season is closed; its hands can no longer change")
    rules = Rules(season.rule_set)
    with _gc_paused():  # 100,000s of short-lived dicts: the cyclic collector would rescan them again and again
        try:
            changed, finals, hands = _season_hands_settle_and_write(season, rules, workers, batch_hands)
        except SettlementError as exc:
            raise engine_error(exc, f"hands[{exc.hand_id}].") from None
        clock.lap("read_engine_write")
        results = _season_results_apply(season, finals, actor)
        clock.lap("results")
        _season_standings_recompute(season)
        clock.lap("standings")
        if changed or results:
            season_facts_changed_now(season.pk)  # the statistics, in this transaction
            clock.lap("statistics")
    summary = {
        "hands": hands,
        "hands_changed": changed,
        "hands_resettled": True,
        "games_finished_from_hands": len(finals),
        "results_changed": results,
    }
    audit_log_write(actor=actor, action="season.hands_resettle", obj=season, data=summary)
    return summary


def _season_hands_settle_and_write(
    season: Season, rules: Rules, workers: int | None, batch_hands: int
) -> tuple[int, dict, int]:
    """Every hand of the season through the engine, the changed ones written back (streamed to
    the database part by part while the next parts are settled, see :class:`HandsWriter`).
    Returns ``(hands changed, finals, hands)``."""
    writer = HandsWriter()
    finals, changed, hands = {}, 0, 0
    for part_changed, part_count, part_finals, part_hands in resettled_parts(
        rules.system,
        rules.options,
        season_hand_batches(season, batch_hands),
        workers=workers or settings.RESETTLE_WORKERS or None,
        encode=copy_text if writer.streaming else None,
    ):
        writer.add(part_changed)
        changed += part_count
        finals.update(part_finals)
        hands += part_hands
    writer.finish()
    return changed, finals, hands


@transaction.atomic
def season_results_rescore(*, season: Season, actor: Actor, timings: dict | None = None) -> dict:
    """Recompute every result's league points and places of ``season`` from its stored final
    scores under the season's rule set, then the standings; the hands stay as stored. This is all
    a revision of game-end options (uma, oka, ...) needs: no hand's settlement reads them
    (:func:`scoring.engine.hands_affected`). ``timings`` as in :func:`season_hands_resettle`."""
    clock = _Clock(timings)
    season = _season_locked(season, "the season is closed; its results can no longer change")
    results = _season_results_apply(season, {}, actor)
    clock.lap("results")
    _season_standings_recompute(season)
    clock.lap("standings")
    if results:
        season_facts_changed_now(season.pk)  # places may have moved: the statistics follow
        clock.lap("statistics")
    counts = HandRecord.objects.filter(game__season=season).aggregate(
        hands=Count("id"), finished=Count("id", filter=Q(ends_game=True))
    )
    summary = {
        "hands": counts["hands"],
        "hands_changed": 0,
        "hands_resettled": False,
        "games_finished_from_hands": counts["finished"],
        "results_changed": results,
    }
    audit_log_write(actor=actor, action="season.results_rescore", obj=season, data=summary)
    return summary


def _season_locked(season: Season, closed_message: str) -> Season:
    season = Season.objects.select_for_update().select_related("rule_set").get(pk=season.pk)
    if season.status == Season.Status.CLOSED:
        raise ValidationError({"season": [closed_message]})
    return season


def _season_standings_recompute(season: Season) -> None:
    for division in season.divisions.all():
        standings_recompute(division=division)


@transaction.atomic
def season_rules_revise(
    *,
    season: Season,
    overrides: dict,
    actor: Actor,
    notes: str = "",
    workers: int | None = None,
    timings: dict | None = None,
) -> dict:
    """Give the season a new version of its own rule set (same preset, these ``overrides``; the
    old version stays, and the results stored under it say so) and bring everything derived from
    the rules up to date in the same transaction: every hand re-settled (unless only game-end
    options changed, which no hand reads), every result's league points, the standings.
    ``workers`` and ``timings`` as in :func:`season_hands_resettle`."""
    started = time.perf_counter()
    season = _season_locked(season, "the season is closed; its rules can no longer change")
    before = season.rule_set
    revised = rule_set_revise(rule_set=before, overrides=overrides, actor=actor, notes=notes)
    season.rule_set = revised
    season.save(update_fields=["rule_set"])
    audit_log_write(
        actor=actor,
        action="season.rules_revise",
        obj=season,
        data={"from_version": before.version, "to_version": revised.version, "overrides": overrides},
    )
    if timings is not None:
        timings["revise"] = time.perf_counter() - started
    if hands_affected(before.spec, revised.spec):
        summary = season_hands_resettle(season=season, actor=actor, workers=workers, timings=timings)
    else:
        summary = season_results_rescore(season=season, actor=actor, timings=timings)
    return {"rule_set": {"slug": revised.slug, "version": revised.version}, **summary}


@contextmanager
def _gc_paused():
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Clock:
    def __init__(self, timings: dict | None):
        self.timings = timings
        self.last = time.perf_counter()

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        if self.timings is not None:
            self.timings[phase] = now - self.last
        self.last = now


def _season_results_apply(season: Season, finals: dict, actor: Actor) -> int:
    """Bring every stored result of the season up to date: a game finished from its hands takes
    its final scores from them, and every result's points follow the season's current rule set.
    Returns how many results changed."""
    stored = GameResult.objects.filter(game__season=season).values_list(
        "id", "game_id", "scores", "deposits_left", "rule_set_id", "points", "places"
    )
    results, changed = [], {}
    for result_id, game_id, scores_before, deposits_before, rule_set_id, points_before, places_before in stored:
        scores, deposits_left = finals[game_id][:2] if game_id in finals else (scores_before, deposits_before)
        if (scores_before, deposits_before, rule_set_id) == (scores, deposits_left, season.rule_set_id):
            continue
        try:
            computed = game_end(season.rule_set.spec, scores, deposits_left)
        except SettlementError as exc:
            raise engine_error(exc, f"games[{game_id}].") from None
        # every result records the rule set it was computed under; only a different figure is a change
        results.append((result_id, scores, deposits_left, computed["points"], computed["places"], season.rule_set_id))
        same = (scores, deposits_left, _points_key(computed["points"]), computed["places"]) == (
            scores_before,
            deposits_before,
            _points_key(points_before),
            places_before,
        )
        if not same:
            changed[game_id] = (scores, computed)
    rows_update(
        GameResult,
        [
            ("scores", "jsonb"),
            ("deposits_left", "integer"),
            ("points", "jsonb"),
            ("places", "jsonb"),
            ("rule_set_id", "bigint"),
        ],
        results,
    )
    _season_seats_apply(season, changed)
    if changed:  # places may have moved: ratings follow after the commit, once for the batch
        games_results_changed_on_commit(season.pk, sorted(changed), "replaced")
    chombo_ledger_sync(season=season, penalties_by_game={g: final[2] for g, final in finals.items()}, actor=actor)
    return len(changed)


def _points_key(points) -> list:
    """League points compared by value, whatever their stored type (float, Decimal or string)."""
    return [None if p is None else round(float(p), 1) for p in (points or [])]


def _season_seats_apply(season: Season, changed: dict) -> None:
    if not changed:
        return
    rows = []
    for seat_id, game_id, seat in GameSeat.objects.filter(game__season=season).values_list("id", "game_id", "seat"):
        if game_id in changed:
            scores, computed = changed[game_id]
            # points are already rounded to one decimal; the numeric(…, 1) column keeps them exact
            rows.append((seat_id, scores[seat], computed["points"][seat], computed["places"][seat]))
    rows_update(GameSeat, [("raw_score", "integer"), ("points", "numeric"), ("place", "integer")], rows)
