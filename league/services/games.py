"""Games and their results: a game seated, its final scores recorded (validated, serialised per
game, an existing different result replaced only explicitly) and its league points derived."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.db import transaction
from django.utils.translation import gettext

from kyoku.errors import Conflict
from kyoku import authz
from kyoku.authz import acting_user
from kyoku.principals import Actor
from kyoku.rows import instance_insert, instance_update, instances_where, rows_update
from league.locks import game_lock
from scoring.engine import SettlementError, game_end

from ..models import Division, Entry, Game, GameResult, GameSeat, Player, RuleSet, Season
from ..signals import game_facts_changed_now, game_result_changed_on_commit
from kyoku.errors import engine_error

from .common import actor_authorize, audit_log_write, standings_refresh
from .summary import division_summary_game_moved


@transaction.atomic
def game_create(
    *, division: Division, match_day: int, table: int, players: list[Player], actor: Actor, scheduled_at=None
) -> Game:
    if len(players) != 4:
        raise ValidationError({"players": [gettext("a game needs exactly four players, East, South, West, North")]})
    if len({p.pk for p in players}) != 4:
        raise ValidationError({"players": [gettext("the same player cannot take two seats")]})
    entered = set(Entry.objects.filter(division=division, player__in=players).values_list("player_id", flat=True))
    missing = [str(p) for p in players if p.pk not in entered]
    if missing:
        raise ValidationError(
            {
                "players": [
                    gettext("not entered in %(division)s: %(missing)s")
                    % {"division": division, "missing": ", ".join(missing)}
                ]
            }
        )
    if Game.objects.filter(division=division, match_day=match_day, table=table).exists():
        raise ValidationError(
            {"table": [gettext("match day %(day)s already has a table %(table)s") % {"day": match_day, "table": table}]}
        )
    game = Game.objects.create(
        season=division.season, division=division, match_day=match_day, table=table, scheduled_at=scheduled_at
    )
    GameSeat.objects.bulk_create(GameSeat(game=game, seat=i, player=p) for i, p in enumerate(players))
    division_summary_game_moved(game=game, before=None, after=game.status)
    audit_log_write(actor=actor, action="game.create", obj=game, data={"players": [p.pk for p in players]})
    return game


def game_points_compute(*, rule_set: RuleSet, scores, deposits_left: int) -> dict:
    """Engine call with engine errors turned into field errors."""
    try:
        return game_end(rule_set.spec, scores, deposits_left)
    except SettlementError as exc:
        raise engine_error(exc) from None


# Riichi sticks left on the table at the end: each stick is a riichi nobody won back, so more
# than a handful means a run of drawn hands with riichi; 20 is beyond any real game, and a
# larger number is a typing error (40 was once accepted).
MAX_DEPOSITS = 20
# Final scores: far beyond any real game (four yakuman tsumo chains stay under a million), well
# inside every column type.
MAX_ABS_SCORE = 10_000_000


def _validate_scores(scores) -> list[int]:
    if not isinstance(scores, (list, tuple)) or len(scores) != 4:
        raise ValidationError({"scores": [gettext("give four final scores, East, South, West, North")]})
    clean = []
    for i, value in enumerate(scores):
        if isinstance(value, bool) or not isinstance(value, int):
            try:
                value = int(str(value).replace(",", "").strip())
            except (ValueError, OverflowError):
                raise ValidationError(
                    {
                        f"scores[{i}]": [
                            gettext("%(value)s is not a whole number of points") % {"value": repr(str(value)[:20])}
                        ]
                    }
                ) from None
        if abs(value) > MAX_ABS_SCORE:
            raise ValidationError(
                {
                    f"scores[{i}]": [
                        gettext("must lie between -%(score)s and %(score)s") % {"score": format(MAX_ABS_SCORE, ",")}
                    ]
                }
            )
        clean.append(value)
    return clean


def _scores_unit_check(scores: list[int], options: dict) -> None:
    """Riichi scores move in 100-point steps (the smallest payment is 100; sticks are 1,000):
    a final score that is not a multiple of the rule set's unit is a typing error."""
    unit = options.get("score_unit", 100)
    for i, value in enumerate(scores):
        if unit and value % unit:
            raise ValidationError({f"scores[{i}]": [gettext("must be a multiple of %(unit)s") % {"unit": unit}]})


def game_scores_check(*, game: Game, scores, deposits_left: int = 0) -> list[int]:
    """Every check a result must pass, without storing it (a table's own report is checked
    when it is made, not only when the table confirms): the scores, the sticks, the unit, and
    the engine's settlement under the game's rules. Returns the scores as whole numbers."""
    scores = _validate_scores(scores)
    if isinstance(deposits_left, bool) or not isinstance(deposits_left, int) or not 0 <= deposits_left <= MAX_DEPOSITS:
        raise ValidationError(
            {
                "deposits_left": [
                    gettext("a whole number of riichi sticks, 0 to %(deposits)s") % {"deposits": MAX_DEPOSITS}
                ]
            }
        )
    rule_set = game.season.rule_set
    if rule_set.system == "riichi":
        _scores_unit_check(scores, rule_set.options)
    game_points_compute(rule_set=rule_set, scores=scores, deposits_left=deposits_left)
    return scores


class ResultConflict(Conflict):
    """A different result is already stored; replacing it must be explicit (409)."""


@transaction.atomic
def game_result_record(
    *, game: Game, scores, actor: Actor, deposits_left: int = 0, replace: bool = False
) -> tuple[GameResult, bool]:
    """Store a game's final scores and derive league points. Returns (result, created).

    Submitting the same result again changes nothing; a different one needs ``replace``.
    """
    actor_authorize(actor, game, authz.Need.ADMIN)
    scores = _validate_scores(scores)
    if isinstance(deposits_left, bool) or not isinstance(deposits_left, int) or not 0 <= deposits_left <= MAX_DEPOSITS:
        raise ValidationError(
            {
                "deposits_left": [
                    gettext("a whole number of riichi sticks, 0 to %(deposits)s") % {"deposits": MAX_DEPOSITS}
                ]
            }
        )
    game = game_lock(game.pk)
    if game.status == Game.Status.VOID:
        raise ValidationError({"game": [ValidationError(_("this game is void"), code="game_void")]})
    if game.season.status == Season.Status.CLOSED:
        raise ValidationError({"game": [gettext("the season is closed; results can no longer change")]})
    # read after the lock, in a statement of its own: read with the lock's query, a result a
    # concurrent writer committed while this one waited would not be seen (PostgreSQL re-checks
    # only the locked row), and both would create it (tests/league/test_concurrency.py)
    existing = next(iter(instances_where(GameResult, "game_id", game.pk)), None)
    if existing and existing.scores == scores and existing.deposits_left == deposits_left:
        return existing, False
    if existing and not replace:
        raise ResultConflict(
            {
                "scores": [
                    ValidationError(
                        _("this game already has a different result; correct it explicitly"), code="result_conflict"
                    )
                ]
            }
        )
    rule_set = game.season.rule_set
    if rule_set.system == "riichi":
        _scores_unit_check(scores, rule_set.options)
    computed = game_points_compute(rule_set=rule_set, scores=scores, deposits_left=deposits_left)
    values = dict(
        scores=scores,
        deposits_left=deposits_left,
        entered_by=acting_user(actor),
        rule_set=rule_set,
        points=computed["points"],
        places=computed["places"],
    )
    # the game is locked and its result read above: write it directly (update_or_create would
    # read it again, in a savepoint of its own), by plain statements (kyoku.rows; no receiver
    # listens to a result's or a game's save: game_facts_changed below tells the figures)
    created = existing is None
    previous = existing and {"scores": existing.scores, "deposits_left": existing.deposits_left}
    result = existing or GameResult(game=game)
    for field, value in values.items():
        setattr(result, field, value)
    result.game = game  # the locked game, so the audit entry reads no game and season again
    if existing is None:
        instance_insert(result)
    else:
        instance_update(result, [*values, "entered_at"])
    seats, earlier = _seats_apply(game, scores, computed)
    before, game.status = game.status, Game.Status.FINISHED
    instance_update(game, ["status"])
    division_summary_game_moved(game=game, before=before, after=game.status)
    audit_log_write(
        actor=actor,
        action="game_result.create" if created else "game_result.replace",
        obj=result,
        data={
            "scores": scores,
            "deposits_left": deposits_left,
            "points": computed["points"],
            "previous": previous,
        },
    )
    # each player's seat as it counted in the standings (a finished game's), and as it counts now
    counted = before == Game.Status.FINISHED
    moves = {
        seat.player_id: (earlier[seat.pk] if counted else None, (seat.points, seat.place))
        for seat in seats
        if seat.place is not None
    }
    if len(moves) != len(seats):  # a player twice at the table, or no place: read their seats again
        moves = {}
    standings_refresh(game.division_id, [seat.player_id for seat in seats], moves=moves)
    game_facts_changed_now(game.pk)
    game_result_changed_on_commit(game.pk, "created" if created else "replaced", league_id=game.season.league_id)
    return result, True


def _seats_apply(game: Game, scores: list[int], computed: dict) -> tuple[list[GameSeat], dict]:
    """Write each seat's score, points and place; returns the seats, and by seat id its points
    and place as they were (None where it had no place)."""
    seats = instances_where(GameSeat, "game_id", game.pk, order_by="seat")
    earlier = {seat.pk: (seat.points, seat.place) if seat.place is not None else None for seat in seats}
    for seat in seats:
        seat.raw_score = scores[seat.seat]
        seat.points = Decimal(str(computed["points"][seat.seat])).quantize(Decimal("0.1"))
        seat.place = computed["places"][seat.seat]
    # one statement (kyoku.rows): bulk_update's CASE per seat and column costs more to build
    # than the database takes to run it
    rows_update(GameSeat, ("raw_score", "points", "place"), [(s.pk, (s.raw_score, s.points, s.place)) for s in seats])
    return seats, earlier


@transaction.atomic
def game_result_recompute(*, game: Game) -> None:
    """Re-derive a stored result's points from its raw scores (audit / rule fixes)."""
    result = game.result
    computed = game_points_compute(rule_set=result.rule_set, scores=result.scores, deposits_left=result.deposits_left)
    result.points, result.places = computed["points"], computed["places"]
    result.save(update_fields=["points", "places"])
    _seats_apply(game, result.scores, computed)
