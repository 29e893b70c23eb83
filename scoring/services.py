"""Writes for hand-by-hand games. Each hand's raw record is the fact; its settlement and the
running scores after it are derived by the engine and stored. The engine state of a hand
(riichi: dealer, honba, deposits; Beijing: dealer, dealer streak, after a draw) follows from the
previous hand's settlement, so it is derived here and never retyped.

Every write runs in one transaction with its audit row; engine errors become Django
``ValidationError`` keyed by the record field (``result.winners[0].fu``) and store nothing.
"""

from __future__ import annotations

import gc
import json
import logging
import time
from contextlib import contextmanager
from decimal import Decimal
from importlib import import_module

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Count, F, Q

from league.models import Game, GameResult, GameSeat, Penalty, Player, Season
from league.signals import games_results_changed_on_commit
from league.services import (
    ResultConflict,
    _lock_game,
    audit_log_write,
    game_result_record,
    penalty_assign,
    penalty_cancel,
    rule_set_revise,
    standings_recompute,
)
from scoring.engine import SYSTEMS, SettlementError, game_end, hands_affected, resolve_rules, settle
from scoring.engine.replay import (
    STATE_KEYS,
    deposits_left_of,
    derived_digest,
    encode,
    scores_start,
    state_first,
    state_next,
)
from scoring.engine.replay import hands_replay as engine_hands_replay

from .models import HandRecord
from .record_gate import record_gate
from .parallel import BATCH_HANDS, copy_text, resettled_parts, whole_games

logger = logging.getLogger(__name__)

# ---------------------------------------------------------------- stateless settlement (CLI, /api/settle)


def settle_one(record) -> dict:
    """One contract record → its settlement, or ``{"error": "field: message"}``."""
    if isinstance(record, dict) and "game_end" not in record:
        try:
            record_gate(record)
        except ValidationError as exc:
            field, messages = next(iter(exc.message_dict.items()))
            return {"error": f"{field}: {messages[0]}"}
    try:
        return settle(record)
    except SettlementError as exc:
        return {"error": str(exc)}
    except Exception as exc:  # an engine bug must not take the whole list (or the endpoint) down
        logger.exception("engine failure on a record")
        return {"error": f"record: could not be settled ({type(exc).__name__})"}


def settle_document(data) -> tuple[object, bool]:
    """(output, every record valid) for one record or a list of records, in order."""
    if isinstance(data, list):
        out = [settle_one(record) for record in data]
        return out, not any(_is_error(o) for o in out)
    out = settle_one(data)
    return out, not _is_error(out)


def _is_error(out) -> bool:
    return isinstance(out, dict) and set(out) == {"error"}


# ---------------------------------------------------------------- engine state between hands


class HandConflict(ResultConflict):
    """A different record is already stored for this sequence; correcting it must be explicit."""


class Rules:
    """A rule set resolved once: its system, full options and engine module."""

    def __init__(self, rule_set):
        try:
            self.system, self.options = resolve_rules(rule_set.spec)
        except SettlementError as exc:
            raise ValidationError({"rule_set": [str(exc)]}) from None
        self.module = import_module(SYSTEMS[self.system])

    def settle(self, record: dict, prefix: str = "") -> dict:
        try:
            return self.module.settle(record, self.options)
        except SettlementError as exc:
            raise ValidationError({prefix + (exc.field or "record"): [exc.message]}) from None


def record_clean(record, state: dict) -> dict:
    """The admin's record with the derived state filled in; a state field typed differently is an error."""
    record_gate(record)
    if "rules" in record:
        raise ValidationError({"rules": ["leave rules out: the season's rule set applies"]})
    for key, value in state.items():
        if key in record and (record[key] != value or type(record[key]) is not type(value)):
            raise ValidationError({key: [f"the previous hand leaves {key} = {json.dumps(value)}, "
                                         f"not {json.dumps(record[key])}"]})
    return {**record, **state}


def scores_add(scores: list[int], deltas: list[int]) -> list[int]:
    return [s + d for s, d in zip(scores, deltas)]


def _position(rules: Rules, previous: HandRecord | None) -> tuple[dict, list[int]]:
    """(state, running scores) before the hand that follows ``previous``."""
    if previous is None:
        return state_first(rules.system), scores_start(rules.system, rules.options)
    return state_next(rules.system, previous.record, previous.settlement), list(previous.scores_after)


def _state_of(rules: Rules, hand: HandRecord) -> dict:
    return {k: hand.record[k] for k in STATE_KEYS[rules.system] if k in hand.record}


def _derived_set(hand: HandRecord, record: dict, settlement: dict, scores: list[int]) -> HandRecord:
    """Set a hand's record and derived fields, with the digest a season re-settle compares."""
    hand.record, hand.settlement, hand.scores_after = record, settlement, scores
    hand.derived_digest = derived_digest(encode(settlement), encode(scores))
    return hand


DERIVED_FIELDS = ["record", "settlement", "scores_after", "derived_digest"]


def hands_replay(rules: Rules, hands: list[HandRecord], state: dict, scores: list[int]) -> list[HandRecord]:
    """Re-derive state, settlement and running scores of ``hands`` in order; returns the changed ones."""
    changed = []
    replay = engine_hands_replay(rules.system, rules.options, [h.record for h in hands], state, scores)
    try:
        for hand, (record, settlement, scores) in zip(hands, replay):
            if (record, settlement, scores) != (hand.record, hand.settlement, hand.scores_after) \
                    or hand.derived_digest is None:
                changed.append(_derived_set(hand, record, settlement, scores))
    except SettlementError as exc:
        sequence = hands[exc.index].sequence
        raise ValidationError({f"hands[{sequence}].{exc.field or 'record'}": [exc.message]}) from None
    return changed


# ---------------------------------------------------------------- checks


def _game_check_writable(game: Game) -> None:
    if game.status == Game.Status.VOID:
        raise ValidationError({"game": ["this game is void"]})
    if game.season.status == Season.Status.CLOSED:
        raise ValidationError({"game": ["the season is closed; hands can no longer change"]})


def _sequence_check(sequence, next_sequence: int) -> int:
    if isinstance(sequence, bool) or not isinstance(sequence, int) or sequence < 1:
        raise ValidationError({"sequence": ["a hand number 1, 2, 3 ..."]})
    if sequence > next_sequence:
        raise ValidationError({"sequence": [f"the next hand of this game is {next_sequence}"]})
    return sequence


def _hands(game: Game) -> list[HandRecord]:
    return list(HandRecord.objects.filter(game=game).order_by("sequence"))


def _closed_by_hands(hands: list[HandRecord]) -> bool:
    return bool(hands) and hands[-1].ends_game


# ---------------------------------------------------------------- hands


def hand_preview(*, game: Game, record, sequence: int | None = None) -> dict:
    """Settle a hand at ``sequence`` (default: the next one) without storing anything."""
    rules = Rules(game.season.rule_set)
    hands = _hands(game)
    sequence = _sequence_check(len(hands) + 1 if sequence is None else sequence, len(hands) + 1)
    state, scores = _position(rules, hands[sequence - 2] if sequence > 1 else None)
    clean = record_clean(record, state)
    settlement = rules.settle(clean)
    return {"sequence": sequence, "record": clean, "settlement": settlement, "scores_before": scores,
            "scores_after": scores_add(scores, settlement["deltas"])}


@transaction.atomic
def hand_record_add(*, game: Game, record, actor, sequence: int | None = None) -> tuple[HandRecord, bool]:
    """Settle and store the next hand of ``game``. Returns (hand, created).

    Submitting the record already stored under ``sequence`` again changes nothing.
    """
    game = _lock_game(game.pk)
    rules = Rules(game.season.rule_set)
    hands = _hands(game)
    sequence = _sequence_check(len(hands) + 1 if sequence is None else sequence, len(hands) + 1)
    if sequence <= len(hands):
        return _hand_repeat(rules, hands[sequence - 1], record), False
    _game_check_writable(game)
    if _closed_by_hands(hands):
        raise ValidationError({"game": ["this game was finished from its hands; correct a hand instead"]})
    state, scores = _position(rules, hands[-1] if hands else None)
    clean = record_clean(record, state)
    settlement = rules.settle(clean)
    hand = _derived_set(HandRecord(game=game, sequence=sequence, entered_by=_user(actor)),
                        clean, settlement, scores_add(scores, settlement["deltas"]))
    hand.save(force_insert=True)
    if game.status == Game.Status.SCHEDULED:
        game.status = Game.Status.IN_PROGRESS
        game.save(update_fields=["status"])
    audit_log_write(actor=actor, action="hand.add", obj=hand,
                    data={"game": game.pk, "sequence": sequence, "record": clean, "deltas": settlement["deltas"]})
    return hand, True


def _hand_repeat(rules: Rules, hand: HandRecord, record) -> HandRecord:
    if record_clean(record, _state_of(rules, hand)) != hand.record:
        raise HandConflict({"sequence": [f"hand {hand.sequence} is already entered with a different record; "
                                         f"correct it explicitly"]})
    return hand


@transaction.atomic
def hand_record_correct(*, hand: HandRecord, record, actor) -> HandRecord:
    """Replace one hand's record and re-settle it and every later hand of the game."""
    game = _lock_game(hand.game_id)
    _game_check_writable(game)
    rules = Rules(game.season.rule_set)
    hands = _hands(game)
    index = hand.sequence - 1
    state, scores = _position(rules, hands[index - 1] if index else None)
    target = hands[index]
    clean = record_clean(record, state)
    previous = target.record
    if clean == previous:
        return target
    rules.settle(clean)  # the corrected hand's own errors name its fields without a prefix
    target.record, target.entered_by = clean, _user(actor)
    target.save(update_fields=["record", "entered_by", "entered_at"])
    later = hands_replay(rules, hands[index:], state, scores)
    HandRecord.objects.bulk_update(later, DERIVED_FIELDS)
    audit_log_write(actor=actor, action="hand.correct", obj=target,
                    data={"game": game.pk, "sequence": target.sequence, "previous": previous, "record": clean,
                          "resettled": [h.sequence for h in later]})
    if _closed_by_hands(hands):
        _result_from_hands(game, rules, hands, actor)
    return target


def hand_expected(*, game: Game, sequence: int, hand_id) -> HandRecord:
    """The hand stored as number ``sequence`` of ``game``, provided it is hand ``hand_id``: when a
    hand is deleted the later ones move up, so a repeated or stale request must name the hand it
    means rather than hit the one that moved into its place."""
    hand = HandRecord.objects.filter(game=game, sequence=sequence).first()
    if hand is None or str(hand.pk) != str(hand_id):
        raise HandConflict({"hand_id": [f"hand {sequence} of this game is not hand #{hand_id} (it was deleted "
                                        "already, or the hands have moved); reload the hands"]})
    return hand


@transaction.atomic
def hand_record_delete(*, hand: HandRecord, actor) -> dict:
    """Delete one hand entered by mistake: the hands after it move up one number and are re-settled
    from the position before it (dealer, honba, sticks, running scores). A game finished from its
    hands stays finished at its new last hand, its result and chombo deductions re-derived; its
    only hand cannot be deleted. Returns ``{"sequence", "record", "resettled"}``."""
    game = _lock_game(hand.game_id)
    _game_check_writable(game)
    rules = Rules(game.season.rule_set)
    hands = _hands(game)
    target = next((h for h in hands if h.pk == hand.pk), None)
    if target is None:
        raise HandConflict({"hand": [f"hand {hand.sequence} is no longer stored; it was deleted already"]})
    finished = _closed_by_hands(hands)
    if finished and len(hands) == 1:
        raise ValidationError({"hand": ["this game was finished from its only hand; correct that hand instead"]})
    index = target.sequence - 1
    later = hands[index + 1:]
    target.delete()
    _sequences_shift_down(game, target.sequence)
    for h in later:
        h.sequence -= 1
    kept = hands[:index] + later
    resettled = hands_replay(rules, later, *_position(rules, kept[index - 1] if index else None))
    HandRecord.objects.bulk_update(resettled, DERIVED_FIELDS)
    if finished and not kept[-1].ends_game:
        kept[-1].ends_game = True
        kept[-1].save(update_fields=["ends_game"])
    audit_log_write(actor=actor, action="hand.delete", obj=game,
                    data={"sequence": target.sequence, "record": target.record, "deltas": target.settlement.get("deltas"),
                          "resettled": [h.sequence for h in resettled]})
    if finished:
        _result_from_hands(game, rules, kept, actor)
    return {"sequence": target.sequence, "record": target.record, "resettled": [h.sequence for h in resettled]}


def _sequences_shift_down(game: Game, after: int) -> None:
    """Renumber the hands after ``after`` one down, through numbers no hand uses, so the unique
    (game, sequence) index never sees two hands on one number mid-statement."""
    later = HandRecord.objects.filter(game=game, sequence__gt=after)
    later.update(sequence=F("sequence") + SHIFT_THROUGH)
    HandRecord.objects.filter(game=game, sequence__gt=SHIFT_THROUGH).update(sequence=F("sequence") - SHIFT_THROUGH - 1)


SHIFT_THROUGH = 10000  # above any real hand number (a game has tens of hands; the column holds up to 32,767)


@transaction.atomic
def game_hands_resettle(*, game: Game) -> int:
    """Re-settle every stored hand of ``game`` (after an engine or rule fix). Returns the hands changed."""
    game = _lock_game(game.pk)
    rules = Rules(game.season.rule_set)
    hands = _hands(game)
    changed = hands_replay(rules, hands, *_position(rules, None))
    HandRecord.objects.bulk_update(changed, DERIVED_FIELDS)
    if changed:
        audit_log_write(actor=None, action="game.hands_resettle", obj=game,
                        data={"resettled": [h.sequence for h in changed]})
        if _closed_by_hands(hands) and game.season.status != Season.Status.CLOSED:
            _result_from_hands(game, rules, hands, None)
    return len(changed)


# ---------------------------------------------------------------- game end


def final_scores(rules: Rules, hands: list[HandRecord]) -> tuple[list[int], int]:
    """(raw final scores, riichi sticks left on the table) after the last hand."""
    last = hands[-1]
    return list(last.scores_after), deposits_left_of(rules.system, last.settlement)


@transaction.atomic
def game_hands_finish(*, game: Game, actor) -> tuple[GameResult, bool]:
    """End the game at its last hand: derive the final scores and record the result (standings follow)."""
    game = _lock_game(game.pk)
    _game_check_writable(game)
    rules = Rules(game.season.rule_set)
    hands = _hands(game)
    if not hands:
        raise ValidationError({"hands": ["no hand has been entered for this game"]})
    scores, deposits_left = final_scores(rules, hands)
    existing = GameResult.objects.filter(game=game).first()
    if existing and not _closed_by_hands(hands):
        _typed_totals_check(existing, scores, deposits_left)
    result, created = _result_from_hands(game, rules, hands, actor)
    if not hands[-1].ends_game:
        hands[-1].ends_game = True
        hands[-1].save(update_fields=["ends_game"])
        audit_log_write(actor=actor, action="game.hands_finish", obj=game,
                        data={"hands": len(hands), "scores": scores, "deposits_left": deposits_left})
    return result, created


def _typed_totals_check(result: GameResult, scores: list[int], deposits_left: int) -> None:
    if result.scores != scores:
        raise ValidationError({"scores": [f"the totals already entered {result.scores} differ from the hands' "
                                          f"{scores}; correct the hands or the result"]})
    if result.deposits_left != deposits_left:
        raise ValidationError({"deposits_left": [f"{result.deposits_left} riichi sticks were entered as left on "
                                                 f"the table; the hands leave {deposits_left}"]})


def _result_from_hands(game: Game, rules: Rules, hands: list[HandRecord], actor) -> tuple[GameResult, bool]:
    scores, deposits_left = final_scores(rules, hands)
    recorded = game_result_record(game=game, scores=scores, deposits_left=deposits_left, actor=actor,
                                  replace=_closed_by_hands(hands))
    _chombo_penalties_sync(game, hands, actor)
    return recorded


def _chombo_penalties_sync(game: Game, hands: list[HandRecord], actor) -> int:
    """A chombo deducted from the final score goes to the penalty ledger (standings apply it after uma)."""
    penalties = [(hand.sequence, p["seat"], p["points"], p.get("why", ""))
                 for hand in hands for p in hand.settlement.get("penalties", [])]
    return chombo_ledger_sync(season=game.season, penalties_by_game={game.pk: penalties}, actor=actor)


def game_chombo_ledger_sync(*, game: Game, actor=None) -> int:
    """Bring the chombo deductions booked from ``game``'s hands in line with the ledger as it now
    stands, e.g. after a referee's ruling booked a chombo for one of its hands. A game entered
    only as final scores has nothing to sync."""
    hands = _hands(game)
    return _chombo_penalties_sync(game, hands, actor) if hands else 0


def chombo_ledger_sync(*, season: Season, penalties_by_game: dict, actor=None) -> int:
    """Make the ledger's chombo deductions booked from hands match the hands of these games:
    ``{game id: [(hand number, seat, points, why)]}``. A deduction no longer in the hands (the hand
    was corrected, or the rules changed its amount) is cancelled, never deleted; a missing one is
    booked. Deductions a referee booked through a ruling are left alone, and a hand's chombo that
    such a ruling already deducts (same game, hand and player) is not booked twice: the ruling's
    stands, and a deduction booked from the hand before it is cancelled. Returns the changes."""
    if not penalties_by_game:
        return 0
    with_penalties = [game_id for game_id, penalties in penalties_by_game.items() if penalties]
    seats = GameSeat.objects.filter(game_id__in=with_penalties).values_list("game_id", "seat", "player_id")
    player_at = {(g, s): p for g, s, p in seats}
    wanted = {(game_id, number, player_at[game_id, seat]): (Decimal(points) / 1000, why)
              for game_id in with_penalties for number, seat, points, why in penalties_by_game[game_id]}
    chombos = Penalty.objects.filter(season=season, sanction=Penalty.Sanction.CHOMBO, cancelled_at__isnull=True,
                                     game__isnull=False)
    if len(penalties_by_game) < 100:  # a game or a few (a correction): not the whole season's ledger
        chombos = chombos.filter(game_id__in=penalties_by_game)
    active = list(chombos)
    ruled = {(p.game_id, p.hand_number, p.player_id) for p in active if p.ruling_id is not None}
    stale = []
    for penalty in active:
        key = (penalty.game_id, penalty.hand_number, penalty.player_id)
        if penalty.ruling_id is not None or penalty.game_id not in penalties_by_game:
            continue
        if key in ruled:
            stale.append((penalty, f"hand {penalty.hand_number}: the referee's ruling deducts this chombo"))
        elif wanted.get(key, (None,))[0] == penalty.points:
            del wanted[key]
        else:
            stale.append((penalty, f"hand {penalty.hand_number} no longer deducts {penalty.points} points "
                                   "for this player"))
    for penalty, reason in stale:
        penalty_cancel(penalty=penalty, actor=actor, reason=reason)
    changes = len(stale)
    wanted = {key: value for key, value in wanted.items() if key not in ruled}
    players = Player.objects.in_bulk({player_id for _, _, player_id in wanted})
    games = Game.objects.in_bulk({game_id for game_id, _, _ in wanted})
    for (game_id, number, player_id), (points, why) in wanted.items():
        penalty_assign(season=season, player=players[player_id], offence="chombo", sanction=Penalty.Sanction.CHOMBO,
                       points=points, game=games[game_id], hand_number=number, actor=actor,
                       note=f"hand {number}: {why or 'chombo'}")
        changes += 1
    return changes


def _user(actor):
    return actor if getattr(actor, "is_authenticated", False) else None


# ---------------------------------------------------------------- a whole season (bulk)


@transaction.atomic
def season_hands_resettle(*, season: Season, actor=None, workers: int | None = None,
                          batch_hands: int = BATCH_HANDS, timings: dict | None = None) -> dict:
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
            raise ValidationError({f"hands[{exc.hand_id}].{exc.field or 'record'}": [exc.message]}) from None
        clock.lap("read_engine_write")
        results = _season_results_apply(season, finals, actor)
        clock.lap("results")
        _season_standings_recompute(season)
        clock.lap("standings")
    summary = {"hands": hands, "hands_changed": changed, "hands_resettled": True,
               "games_finished_from_hands": len(finals), "results_changed": results}
    audit_log_write(actor=actor, action="season.hands_resettle", obj=season, data=summary)
    return summary


def _season_hands_settle_and_write(season: Season, rules: Rules, workers: int | None,
                                   batch_hands: int) -> tuple[int, dict, int]:
    """Every hand of the season through the engine, the changed ones written back (streamed to
    the database part by part while the next parts are settled, see :class:`HandsWriter`).
    Returns ``(hands changed, finals, hands)``."""
    writer = HandsWriter()
    finals, changed, hands = {}, 0, 0
    for part_changed, part_count, part_finals, part_hands in resettled_parts(
            rules.system, rules.options, _season_hand_batches(season, batch_hands),
            workers=workers or settings.RESETTLE_WORKERS or None, encode=copy_text if writer.streaming else None):
        writer.add(part_changed)
        changed += part_count
        finals.update(part_finals)
        hands += part_hands
    writer.finish()
    return changed, finals, hands


@transaction.atomic
def season_results_rescore(*, season: Season, actor=None, timings: dict | None = None) -> dict:
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
    counts = HandRecord.objects.filter(game__season=season).aggregate(
        hands=Count("id"), finished=Count("id", filter=Q(ends_game=True)))
    summary = {"hands": counts["hands"], "hands_changed": 0, "hands_resettled": False,
               "games_finished_from_hands": counts["finished"], "results_changed": results}
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
def season_rules_revise(*, season: Season, overrides: dict, actor=None, notes: str = "",
                        workers: int | None = None, timings: dict | None = None) -> dict:
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
    audit_log_write(actor=actor, action="season.rules_revise", obj=season,
                    data={"from_version": before.version, "to_version": revised.version, "overrides": overrides})
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


def _season_hand_batches(season: Season, batch_hands: int):
    """Batches of whole games, each row ``(id, game id, record JSON, ends game, derived digest)``,
    every hand of the season in play order: one query, read in batches (a server-side cursor on
    PostgreSQL, so the engine works on one batch while the next is read), the JSON left as text
    for the workers to parse."""
    hands, games = HandRecord._meta.db_table, Game._meta.db_table
    record = "h.record::text" if connection.vendor == "postgresql" else "h.record"
    with connection.chunked_cursor() as cursor:
        cursor.execute(f"SELECT h.id, h.game_id, {record}, h.ends_game, h.derived_digest FROM {hands} h "
                       f"JOIN {games} g ON g.id = h.game_id WHERE g.season_id = %s "
                       "ORDER BY h.game_id, h.sequence", [season.pk])
        yield from whole_games(_fetched(cursor, batch_hands), batch_hands)


def _fetched(cursor, size: int):
    while rows := cursor.fetchmany(size):
        yield from rows


class HandsWriter:
    """Writes re-settled hands back, given part by part: rows ``(id, record JSON or None if
    unchanged, settlement JSON, scores JSON, digest)``, or on PostgreSQL their COPY text
    (:func:`scoring.parallel.copy_text`, made by the workers). PostgreSQL: each part is streamed by
    COPY into a temporary table as it comes (while the engine settles the next parts), then
    :meth:`finish` runs one UPDATE; elsewhere ``finish`` runs one executemany."""

    COPY_SQL = "COPY scoring_hand_resettle (id, record, settlement, scores_after, digest) FROM STDIN"

    def __init__(self):
        self.streaming = connection.vendor == "postgresql"
        self.table_made = False
        self.unwritten: list[tuple] = []

    def add(self, changed: list[tuple] | bytes) -> None:
        if not changed:
            return
        if not self.streaming:
            self.unwritten += changed
            return
        with connection.cursor() as cursor:
            if not self.table_made:
                # typed as the table's columns, so COPY parses each part while the workers settle
                # the next (the UPDATE then only moves values: 0.93 → 0.52 s for 93,000 hands);
                # the derived columns are json (scoring.fields), which only checks the syntax
                cursor.execute("CREATE TEMPORARY TABLE scoring_hand_resettle (id bigint, record jsonb, "
                               "settlement json, scores_after json, digest bigint) ON COMMIT DROP")
                self.table_made = True
            with cursor.cursor.copy(self.COPY_SQL) as copy:
                copy.write(changed if isinstance(changed, bytes) else copy_text(changed))

    def finish(self) -> None:
        table = connection.ops.quote_name(HandRecord._meta.db_table)
        with connection.cursor() as cursor:
            if self.table_made:
                try:
                    # the hash join of ~100,000 rows stays in memory instead of spilling to disk
                    cursor.execute("SET LOCAL work_mem = '256MB'")
                    cursor.execute(
                        f"UPDATE {table} AS h SET record = COALESCE(x.record, h.record), "
                        "settlement = x.settlement, scores_after = x.scores_after, "
                        "derived_digest = x.digest FROM scoring_hand_resettle AS x WHERE h.id = x.id")
                finally:
                    cursor.execute("DROP TABLE scoring_hand_resettle")
                    self.table_made = False
            elif self.unwritten:
                cursor.executemany(
                    f"UPDATE {table} SET record = COALESCE(%s, record), settlement = %s, scores_after = %s, "
                    "derived_digest = %s WHERE id = %s",
                    [(_text(r), s.decode(), a.decode(), d, i) for i, r, s, a, d in self.unwritten])
                self.unwritten = []


def _text(json_bytes: bytes | None) -> str | None:
    return None if json_bytes is None else json_bytes.decode()


def rows_update(model, columns: list[tuple[str, str]], rows: list[tuple]) -> None:
    """Set ``columns`` (name, PostgreSQL type) of many rows ``(pk, *values)``, values as Python
    objects (lists for JSON columns): on PostgreSQL one ``UPDATE … FROM json_to_recordset(…)``
    with every row in one compact JSON parameter, elsewhere ``executemany``. No model signals."""
    if not rows:
        return
    qn = connection.ops.quote_name
    table = qn(model._meta.db_table)
    names = [c for c, _ in columns]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            document = encode([dict(zip(["id", *names], row)) for row in rows]).decode()
            record_type = ", ".join(["id bigint"] + [f"{qn(c)} {t}" for c, t in columns])
            sets = ", ".join(f"{qn(c)} = v.{qn(c)}" for c in names)
            cursor.execute(f"UPDATE {table} AS t SET {sets} FROM json_to_recordset(%s::json) AS v({record_type}) "
                           "WHERE t.id = v.id", [document])
        else:
            json_columns = [t == "jsonb" for _, t in columns]
            sets = ", ".join(f"{qn(c)} = %s" for c in names)
            values = [[json.dumps(v) if j else v for v, j in zip(row[1:], json_columns)] + [row[0]] for row in rows]
            cursor.executemany(f"UPDATE {table} SET {sets} WHERE id = %s", values)


def _season_results_apply(season: Season, finals: dict, actor=None) -> int:
    """Bring every stored result of the season up to date: a game finished from its hands takes
    its final scores from them, and every result's points follow the season's current rule set.
    Returns how many results changed."""
    stored = GameResult.objects.filter(game__season=season).values_list(
        "id", "game_id", "scores", "deposits_left", "rule_set_id")
    results, changed = [], {}
    for result_id, game_id, scores_before, deposits_before, rule_set_id in stored:
        scores, deposits_left = finals[game_id][:2] if game_id in finals else (scores_before, deposits_before)
        if (scores_before, deposits_before, rule_set_id) == (scores, deposits_left, season.rule_set_id):
            continue
        try:
            computed = game_end(season.rule_set.spec, scores, deposits_left)
        except SettlementError as exc:
            raise ValidationError({f"games[{game_id}].{exc.field}": [exc.message]}) from None
        results.append((result_id, scores, deposits_left, computed["points"], computed["places"], season.rule_set_id))
        changed[game_id] = (scores, computed)
    rows_update(GameResult, [("scores", "jsonb"), ("deposits_left", "integer"), ("points", "jsonb"),
                             ("places", "jsonb"), ("rule_set_id", "bigint")], results)
    _season_seats_apply(season, changed)
    if changed:  # places may have moved: ratings follow after the commit, once for the batch
        games_results_changed_on_commit(season.pk, sorted(changed), "replaced")
    chombo_ledger_sync(season=season, penalties_by_game={g: final[2] for g, final in finals.items()}, actor=actor)
    return len(changed)


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
