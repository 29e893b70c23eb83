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

from django.core.exceptions import ValidationError
from django.db import connection, transaction

from league.models import Game, GameResult, GameSeat, Penalty, Season
from league.services import (
    ResultConflict,
    _lock_game,
    audit_log_write,
    game_result_record,
    penalty_assign,
    standings_recompute,
)
from scoring.engine import SYSTEMS, SettlementError, game_end, resolve_rules, settle

from .models import HandRecord

logger = logging.getLogger(__name__)

# ---------------------------------------------------------------- stateless settlement (CLI, /api/settle)


def settle_one(record) -> dict:
    """One contract record → its settlement, or ``{"error": "field: message"}``."""
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

STATE_KEYS = {"riichi": ("dealer", "honba", "deposits"), "beijing": ("dealer", "dealer_streak", "after_draw"),
              "zung-jung": ()}


class HandConflict(ResultConflict):
    """A different record is already stored for this sequence; correcting it must be explicit."""


def state_first(system: str) -> dict:
    """The engine state of a game's first hand (seat 0 deals)."""
    if system == "riichi":
        return {"dealer": 0, "honba": 0, "deposits": 0}
    if system == "beijing":
        return {"dealer": 0, "dealer_streak": 1, "after_draw": False}
    return {}


def state_next(system: str, record: dict, settlement: dict) -> dict:
    """The engine state of the hand after ``record`` (settled as ``settlement``)."""
    if system == "riichi":
        dealer = record["dealer"] if settlement["dealer_repeats"] else (record["dealer"] + 1) % 4
        return {"dealer": dealer, "honba": settlement["honba_next"], "deposits": settlement["deposits_after"]}
    if system == "beijing":
        return {"dealer": settlement["dealer_next"], "dealer_streak": settlement["dealer_streak_next"],
                "after_draw": settlement.get("result") == "draw"}
    return {}


def scores_start(system: str, options: dict) -> list[int]:
    return [options["start_points"]] * 4 if system == "riichi" else [0, 0, 0, 0]


def deposits_left_of(system: str, settlement: dict) -> int:
    return settlement.get("deposits_after", 0) if system == "riichi" else 0


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
    if not isinstance(record, dict):
        raise ValidationError({"record": ["a hand record must be a JSON object"]})
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


def hands_replay(rules: Rules, hands: list[HandRecord], state: dict, scores: list[int]) -> list[HandRecord]:
    """Re-derive state, settlement and running scores of ``hands`` in order; returns the changed ones."""
    changed = []
    for hand in hands:
        record = {**hand.record, **state}
        settlement = rules.settle(record, prefix=f"hands[{hand.sequence}].")
        scores = scores_add(scores, settlement["deltas"])
        if (record, settlement, scores) != (hand.record, hand.settlement, hand.scores_after):
            hand.record, hand.settlement, hand.scores_after = record, settlement, scores
            changed.append(hand)
        state = state_next(rules.system, record, settlement)
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
    hand = HandRecord.objects.create(game=game, sequence=sequence, record=clean, settlement=settlement,
                                     scores_after=scores_add(scores, settlement["deltas"]),
                                     entered_by=_user(actor))
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
    HandRecord.objects.bulk_update(later, ["record", "settlement", "scores_after"])
    audit_log_write(actor=actor, action="hand.correct", obj=target,
                    data={"game": game.pk, "sequence": target.sequence, "previous": previous, "record": clean,
                          "resettled": [h.sequence for h in later]})
    if _closed_by_hands(hands):
        _result_from_hands(game, rules, hands, actor)
    return target


@transaction.atomic
def game_hands_resettle(*, game: Game) -> int:
    """Re-settle every stored hand of ``game`` (after an engine or rule fix). Returns the hands changed."""
    game = _lock_game(game.pk)
    rules = Rules(game.season.rule_set)
    hands = _hands(game)
    changed = hands_replay(rules, hands, *_position(rules, None))
    HandRecord.objects.bulk_update(changed, ["record", "settlement", "scores_after"])
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
    _chombo_penalties_sync(game, rules, hands, actor)
    return recorded


def _chombo_penalties_sync(game: Game, rules: Rules, hands: list[HandRecord], actor) -> None:
    """A chombo deducted from the final score goes to the penalty ledger (standings apply it after uma)."""
    if rules.system != "riichi":
        return
    players = {s.seat: s.player for s in GameSeat.objects.filter(game=game).select_related("player")}
    booked = set(Penalty.objects.filter(game=game, sanction=Penalty.Sanction.CHOMBO, cancelled_at__isnull=True)
                 .values_list("hand_number", "player_id"))
    for hand in hands:
        for penalty in hand.settlement.get("penalties", []):
            player = players[penalty["seat"]]
            if (hand.sequence, player.pk) in booked:
                continue
            penalty_assign(season=game.season, player=player, offence="chombo", sanction=Penalty.Sanction.CHOMBO,
                           points=Decimal(penalty["points"]) / 1000, game=game, hand_number=hand.sequence,
                           actor=actor, note=f"hand {hand.sequence}: {penalty.get('why', 'chombo')}")


def _user(actor):
    return actor if getattr(actor, "is_authenticated", False) else None


# ---------------------------------------------------------------- a whole season (bulk)


@transaction.atomic
def season_hands_resettle(*, season: Season, actor=None, batch_size: int = 20000,
                          timings: dict | None = None) -> dict:
    """Re-settle every stored hand of ``season`` through the engine, write the settlements back,
    re-derive the results of games finished from their hands and recompute the standings.

    Bulk: one read, the engine alone in the loop, batched writes, no query per row. ``timings``
    (optional) receives the seconds spent in each phase.
    """
    clock = _Clock(timings)
    season = Season.objects.select_for_update().get(pk=season.pk)
    if season.status == Season.Status.CLOSED:
        raise ValidationError({"season": ["the season is closed; its hands can no longer change"]})
    rules = Rules(season.rule_set)
    with _gc_paused():  # 100,000s of short-lived dicts: the cyclic collector would rescan them again and again
        rows = _season_hand_rows(season)
        clock.lap("read")
        settled, finals = _season_replay(rules, rows)
        del rows
        clock.lap("engine")
        hands_write(settled, batch_size=batch_size)
        hands = len(settled)
        del settled
        clock.lap("write")
        results = _season_results_apply(season, rules, finals)
        clock.lap("results")
        for division in season.divisions.all():
            standings_recompute(division=division)
        clock.lap("standings")
    summary = {"hands": hands, "games_finished_from_hands": len(finals), "results_changed": results}
    audit_log_write(actor=actor, action="season.hands_resettle", obj=season, data=summary)
    return summary


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


def _season_hand_rows(season: Season) -> list[tuple]:
    """(id, game id, record, ends game) of every hand of the season in play order: one raw query."""
    hands, games = HandRecord._meta.db_table, Game._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT h.id, h.game_id, h.record, h.ends_game FROM {hands} h "
                       f"JOIN {games} g ON g.id = h.game_id WHERE g.season_id = %s "
                       "ORDER BY h.game_id, h.sequence", [season.pk])
        loads = json.loads
        return [(i, g, loads(r) if isinstance(r, str) else r, bool(e)) for i, g, r, e in cursor.fetchall()]


def _season_replay(rules: Rules, rows) -> tuple[list[tuple], dict]:
    """The hot loop: (id, record if its state changed else None, settlement, scores) per hand, and
    {game id: (final scores, sticks left)} of the games finished from their hands."""
    settle, options, system = rules.module.settle, rules.options, rules.system
    first, start = state_first(system), scores_start(system, options)
    out, finals = [], {}
    game_id = None
    for hand_id, hand_game, record, ends_game in rows:
        if hand_game != game_id:
            game_id, state, scores = hand_game, first, start
        stale = any(record.get(k) != v for k, v in state.items())
        record.update(state)
        try:
            settlement = settle(record, options)
        except SettlementError as exc:
            raise ValidationError({f"hands[{hand_id}].{exc.field}": [exc.message]}) from None
        deltas = settlement["deltas"]
        scores = [scores[0] + deltas[0], scores[1] + deltas[1], scores[2] + deltas[2], scores[3] + deltas[3]]
        out.append((hand_id, record if stale else None, settlement, scores))
        state = state_next(system, record, settlement)
        if ends_game:
            finals[game_id] = (scores, deposits_left_of(system, settlement))
    return out, finals


def hands_write(settled: list[tuple], *, batch_size: int = 20000) -> None:
    """Write (id, record or None if unchanged, settlement, scores_after) back. PostgreSQL: COPY into a
    temporary table and one UPDATE that skips rows whose stored values are already equal."""
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    rows = [(i, None if r is None else dumps(r), dumps(s), f"[{a[0]},{a[1]},{a[2]},{a[3]}]")
            for i, r, s, a in settled]
    if connection.vendor == "postgresql":
        _pg_hands_update(rows)
        return
    for start in range(0, len(rows), batch_size):
        batch = rows[start:start + batch_size]
        rows_update(HandRecord, [("settlement", "jsonb"), ("scores_after", "jsonb")],
                    [(i, s, a) for i, _, s, a in batch])
        rows_update(HandRecord, [("record", "jsonb")], [(i, r) for i, r, _, _ in batch if r is not None])


def _pg_hands_update(rows: list[tuple]) -> None:
    table = HandRecord._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE scoring_hand_resettle "
                       "(id bigint, record jsonb, settlement jsonb, scores_after jsonb)")
        try:
            copy_sql = "COPY scoring_hand_resettle (id, record, settlement, scores_after) FROM STDIN"
            with cursor.cursor.copy(copy_sql) as copy:
                for row in rows:
                    copy.write_row(row)
            cursor.execute(
                f"UPDATE {table} AS h SET record = COALESCE(x.record, h.record), settlement = x.settlement, "
                "scores_after = x.scores_after FROM scoring_hand_resettle AS x WHERE h.id = x.id AND "
                "(h.settlement IS DISTINCT FROM x.settlement OR h.scores_after IS DISTINCT FROM x.scores_after "
                "OR (x.record IS NOT NULL AND h.record IS DISTINCT FROM x.record))")
        finally:
            cursor.execute("DROP TABLE scoring_hand_resettle")


def rows_update(model, columns: list[tuple[str, str]], rows: list[tuple]) -> None:
    """Set ``columns`` (name, PostgreSQL type; JSON given as text) of many rows ``(pk, *values)``:
    one ``UPDATE … FROM unnest(…)`` on PostgreSQL, ``executemany`` elsewhere. No model signals."""
    if not rows:
        return
    qn = connection.ops.quote_name
    table = qn(model._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            arrays = [list(column) for column in zip(*rows)]
            unnest = ", ".join(["%s::bigint[]"] + [f"%s::{'text' if t == 'jsonb' else t}[]" for _, t in columns])
            names = ", ".join(["id"] + [qn(c) for c, _ in columns])
            sets = ", ".join(f"{qn(c)} = v.{qn(c)}" + ("::jsonb" if t == "jsonb" else "") for c, t in columns)
            cursor.execute(f"UPDATE {table} AS t SET {sets} FROM unnest({unnest}) AS v({names}) WHERE t.id = v.id",
                           arrays)
        else:
            sets = ", ".join(f"{qn(c)} = %s" for c, _ in columns)
            cursor.executemany(f"UPDATE {table} SET {sets} WHERE id = %s", [(*r[1:], r[0]) for r in rows])


def _season_results_apply(season: Season, rules: Rules, finals: dict) -> int:
    """Store the re-derived results of games finished from their hands; returns how many changed."""
    stored = GameResult.objects.filter(game_id__in=finals).values_list("id", "game_id", "scores", "deposits_left")
    dumps = json.dumps
    results, changed = [], {}
    for result_id, game_id, scores_before, deposits_before in stored:
        scores, deposits_left = finals[game_id]
        if (scores_before, deposits_before) == (scores, deposits_left):
            continue
        try:
            computed = rules.module.game_end(rules.options, scores, deposits_left) if rules.system == "riichi" \
                else game_end(season.rule_set.spec, scores, deposits_left)
        except SettlementError as exc:
            raise ValidationError({f"games[{game_id}].{exc.field}": [exc.message]}) from None
        results.append((result_id, dumps(scores), deposits_left, dumps(computed["points"]), dumps(computed["places"])))
        changed[game_id] = (scores, computed)
    rows_update(GameResult, [("scores", "jsonb"), ("deposits_left", "integer"), ("points", "jsonb"),
                             ("places", "jsonb")], results)
    _season_seats_apply(changed)
    return len(changed)


def _season_seats_apply(changed: dict) -> None:
    rows = []
    for seat_id, game_id, seat in GameSeat.objects.filter(game_id__in=changed).values_list("id", "game_id", "seat"):
        scores, computed = changed[game_id]
        rows.append((seat_id, scores[seat], Decimal(str(computed["points"][seat])).quantize(Decimal("0.1")),
                     computed["places"][seat]))
    rows_update(GameSeat, [("raw_score", "integer"), ("points", "numeric"), ("place", "integer")], rows)
