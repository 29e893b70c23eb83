"""Writes. Every function runs in one transaction and writes its audit row in it; the standings
follow incrementally in the same transaction (ratings follow in a task after the commit)."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from kyoku import audit as kyoku_audit
from kyoku import authz
from kyoku.errors import engine_error
from kyoku.locks import game_lock
from kyoku.safe_json import check_field
from kyoku.uploads import evidence_file_check, random_name
from scoring.engine import SettlementError, game_end, resolve_rules

from . import qualification
from .signals import game_result_changed_on_commit
from .models import (
    Division,
    Entry,
    Game,
    GameResult,
    GameSeat,
    League,
    Penalty,
    Player,
    QualificationApplication,
    QualificationTier,
    RuleSet,
    Season,
)


# ---------------------------------------------------------------- audit


# The audit log is shared plumbing (kyoku.audit); kept importable from here for the services.
audit_log_write = kyoku_audit.audit_log_write


def actor_authorize(actor, obj, need: authz.Need) -> None:
    """Services re-check the actor in the object's league (defence in depth behind the views).
    A system action (task, command, migration) passes no user and is not checked here."""
    if getattr(actor, "is_authenticated", False):
        authz.authorize(actor, obj, need)


def _engine_error(exc: SettlementError, prefix: str = "") -> ValidationError:
    return engine_error(exc, prefix)


def _standings_refresh(division_id: int, player_ids) -> None:
    """Bring the standings up to date inside the change's transaction (incrementally: only these
    players' rows and the ranks), so a stored change and its standings never disagree and no
    work is left for after the commit."""
    standings_update(division=Division(pk=division_id), player_ids=player_ids)


# ---------------------------------------------------------------- rule sets


def _rules_resolve(*, preset: str, overrides: dict) -> tuple[str, dict]:
    if not isinstance(overrides, dict):
        raise ValidationError({"overrides": ["must be an object of option: value"]})
    check_field(overrides, "overrides", max_depth=6, max_nodes=500, max_string=200)
    try:
        return resolve_rules({"preset": preset, **overrides})
    except SettlementError as exc:
        if exc.field == "rules.preset":
            raise ValidationError({"preset": [exc.message]}) from None
        raise _engine_error(exc) from None


@transaction.atomic
def rule_set_create(*, name: str, slug: str, preset: str, overrides: dict | None = None,
                    is_template: bool = False, actor=None, notes: str = "") -> RuleSet:
    overrides = overrides or {}
    system, options = _rules_resolve(preset=preset, overrides=overrides)
    rule_set = RuleSet.objects.create(
        name=name, slug=slug, version=1, system=system, preset=preset, overrides=overrides,
        options=options, is_template=is_template, notes=notes,
    )
    audit_log_write(actor=actor, action="rule_set.create", obj=rule_set, data={"preset": preset, "overrides": overrides})
    return rule_set


@transaction.atomic
def rule_set_revise(*, rule_set: RuleSet, overrides: dict, actor=None, notes: str = "") -> RuleSet:
    """A new version; earlier versions (and the seasons that use them) never change."""
    system, options = _rules_resolve(preset=rule_set.preset, overrides=overrides)
    latest = RuleSet.objects.select_for_update().filter(slug=rule_set.slug).order_by("-version").first()
    revised = RuleSet.objects.create(
        name=rule_set.name, slug=rule_set.slug, version=latest.version + 1, system=system,
        preset=rule_set.preset, overrides=overrides, options=options, is_template=rule_set.is_template,
        notes=notes,
    )
    audit_log_write(actor=actor, action="rule_set.revise", obj=revised,
                    data={"from_version": rule_set.version, "overrides": overrides})
    return revised


# ---------------------------------------------------------------- seasons and divisions

DEFAULT_DIVISIONS = (("A", "A Division", "甲組"), ("B", "B Division", "乙組"))


@transaction.atomic
def season_create(*, league: League, year: int, number: int, rule_set: RuleSet, starts_on=None,
                  ends_on=None, divisions=DEFAULT_DIVISIONS, actor=None) -> Season:
    """Create a season with its own copy of the rule set, so later edits of the template
    never change the meaning of this season's results."""
    if not 1 <= int(number) <= 4:
        raise ValidationError({"number": ["a season number is 1 to 4"]})
    if Season.objects.filter(league=league, year=year, number=number).exists():
        raise ValidationError({"number": [f"{year} S{number} already exists in this league"]})
    if starts_on and ends_on and ends_on < starts_on:
        raise ValidationError({"ends_on": ["ends before it starts"]})
    season_rules = RuleSet.objects.create(
        name=f"{league.name} {year} S{number}", slug=f"{league.slug}-{year}-s{number}", version=1,
        system=rule_set.system, preset=rule_set.preset, overrides=dict(rule_set.overrides),
        options=dict(rule_set.options), notes=f"copied from {rule_set}",
    )
    season = Season.objects.create(league=league, year=year, number=number, rule_set=season_rules,
                                   starts_on=starts_on, ends_on=ends_on)
    for order, (code, name, name_zh) in enumerate(divisions):
        Division.objects.create(season=season, code=code, name=name, name_zh=name_zh, order=order)
    audit_log_write(actor=actor, action="season.create", obj=season, data={"rule_set": str(rule_set)})
    return season


@transaction.atomic
def season_status_set(*, season: Season, status: str, actor=None) -> Season:
    if status not in Season.Status.values:
        raise ValidationError({"status": [f"unknown status {status!r}"]})
    old = season.status
    season.status = status
    season.save(update_fields=["status"])
    audit_log_write(actor=actor, action="season.status", obj=season, data={"from": old, "to": status})
    return season


@transaction.atomic
def entry_create(*, division: Division, player: Player, basis: str = Entry.Basis.OPEN,
                 application: QualificationApplication | None = None, actor=None) -> Entry:
    if Entry.objects.filter(season=division.season, player=player).exists():
        raise ValidationError({"player": [f"{player} already has an entry in {division.season}"]})
    entry = Entry.objects.create(season=division.season, division=division, player=player, basis=basis,
                                 application=application)
    audit_log_write(actor=actor, action="entry.create", obj=entry, data={"division": division.code, "basis": basis})
    _standings_refresh(division.pk, [player.pk])  # an entrant is listed (last, no games) from the start
    return entry


# ---------------------------------------------------------------- games and results


@transaction.atomic
def game_create(*, division: Division, match_day: int, table: int, players: list[Player],
                scheduled_at=None, actor=None) -> Game:
    if len(players) != 4:
        raise ValidationError({"players": ["a game needs exactly four players, East, South, West, North"]})
    if len({p.pk for p in players}) != 4:
        raise ValidationError({"players": ["the same player cannot take two seats"]})
    entered = set(Entry.objects.filter(division=division, player__in=players).values_list("player_id", flat=True))
    missing = [str(p) for p in players if p.pk not in entered]
    if missing:
        raise ValidationError({"players": [f"not entered in {division}: {', '.join(missing)}"]})
    if Game.objects.filter(division=division, match_day=match_day, table=table).exists():
        raise ValidationError({"table": [f"match day {match_day} already has a table {table}"]})
    game = Game.objects.create(season=division.season, division=division, match_day=match_day, table=table,
                               scheduled_at=scheduled_at)
    GameSeat.objects.bulk_create(GameSeat(game=game, seat=i, player=p) for i, p in enumerate(players))
    audit_log_write(actor=actor, action="game.create", obj=game, data={"players": [p.pk for p in players]})
    return game


def game_points_compute(*, rule_set: RuleSet, scores, deposits_left: int) -> dict:
    """Engine call with engine errors turned into field errors."""
    try:
        return game_end(rule_set.spec, scores, deposits_left)
    except SettlementError as exc:
        raise _engine_error(exc) from None


# Riichi sticks left on the table at the end: each stick is a riichi nobody won back, so more
# than a handful means a run of drawn hands with riichi; 20 is beyond any real game, and a
# larger number is a typing error (40 was once accepted).
MAX_DEPOSITS = 20
# Final scores: far beyond any real game (four yakuman tsumo chains stay under a million), well
# inside every column type.
MAX_ABS_SCORE = 10_000_000


def _validate_scores(scores) -> list[int]:
    if not isinstance(scores, (list, tuple)) or len(scores) != 4:
        raise ValidationError({"scores": ["give four final scores, East, South, West, North"]})
    clean = []
    for i, value in enumerate(scores):
        if isinstance(value, bool) or not isinstance(value, int):
            try:
                value = int(str(value).replace(",", "").strip())
            except (ValueError, OverflowError):
                raise ValidationError({f"scores[{i}]": [f"{str(value)[:20]!r} is not a whole number of points"]}) from None
        if abs(value) > MAX_ABS_SCORE:
            raise ValidationError({f"scores[{i}]": [f"must lie between -{MAX_ABS_SCORE:,} and {MAX_ABS_SCORE:,}"]})
        clean.append(value)
    return clean


def _scores_unit_check(scores: list[int], options: dict) -> None:
    """Riichi scores move in 100-point steps (the smallest payment is 100; sticks are 1,000):
    a final score that is not a multiple of the rule set's unit is a typing error."""
    unit = options.get("score_unit", 100)
    for i, value in enumerate(scores):
        if unit and value % unit:
            raise ValidationError({f"scores[{i}]": [f"must be a multiple of {unit}"]})


def _lock_game(game_id: int) -> Game:
    """Serialise result entry for one game (kyoku.locks)."""
    return game_lock(game_id)


class ResultConflict(ValidationError):
    """A different result is already stored; replacing it must be explicit."""


@transaction.atomic
def game_result_record(*, game: Game, scores, deposits_left: int = 0, actor=None,
                       replace: bool = False) -> tuple[GameResult, bool]:
    """Store a game's final scores and derive league points. Returns (result, created).

    Submitting the same result again changes nothing; a different one needs ``replace``.
    """
    actor_authorize(actor, game, authz.Need.ADMIN)
    scores = _validate_scores(scores)
    if isinstance(deposits_left, bool) or not isinstance(deposits_left, int) or not 0 <= deposits_left <= MAX_DEPOSITS:
        raise ValidationError({"deposits_left": [f"a whole number of riichi sticks, 0 to {MAX_DEPOSITS}"]})
    game = _lock_game(game.pk)
    if game.status == Game.Status.VOID:
        raise ValidationError({"game": ["this game is void"]})
    if game.season.status == Season.Status.CLOSED:
        raise ValidationError({"game": ["the season is closed; results can no longer change"]})
    existing = GameResult.objects.filter(game=game).first()
    if existing and existing.scores == scores and existing.deposits_left == deposits_left:
        return existing, False
    if existing and not replace:
        raise ResultConflict({"scores": ["this game already has a different result; correct it explicitly"]})
    rule_set = game.season.rule_set
    if rule_set.system == "riichi":
        _scores_unit_check(scores, rule_set.options)
    computed = game_points_compute(rule_set=rule_set, scores=scores, deposits_left=deposits_left)
    result, created = GameResult.objects.update_or_create(
        game=game,
        defaults=dict(scores=scores, deposits_left=deposits_left, entered_by=_user(actor), rule_set=rule_set,
                      points=computed["points"], places=computed["places"]),
    )
    _seats_apply(game, scores, computed)
    game.status = Game.Status.FINISHED
    game.save(update_fields=["status"])
    audit_log_write(actor=actor, action="game_result.create" if created else "game_result.replace", obj=result,
                    data={"scores": scores, "deposits_left": deposits_left, "points": computed["points"],
                          "previous": existing and {"scores": existing.scores, "deposits_left": existing.deposits_left}})
    _standings_refresh(game.division_id, [seat.player_id for seat in game.seats.all()])
    game_result_changed_on_commit(game.pk, "created" if created else "replaced")
    return result, True


def _user(actor):
    return actor if getattr(actor, "is_authenticated", False) else None


def _seats_apply(game: Game, scores: list[int], computed: dict) -> None:
    seats = list(game.seats.all())
    for seat in seats:
        seat.raw_score = scores[seat.seat]
        seat.points = Decimal(str(computed["points"][seat.seat])).quantize(Decimal("0.1"))
        seat.place = computed["places"][seat.seat]
    GameSeat.objects.bulk_update(seats, ["raw_score", "points", "place"])


@transaction.atomic
def game_result_recompute(*, game: Game) -> None:
    """Re-derive a stored result's points from its raw scores (audit / rule fixes)."""
    result = game.result
    computed = game_points_compute(rule_set=result.rule_set, scores=result.scores, deposits_left=result.deposits_left)
    result.points, result.places = computed["points"], computed["places"]
    result.save(update_fields=["points", "places"])
    _seats_apply(game, result.scores, computed)


# ---------------------------------------------------------------- penalties (ledger)


@transaction.atomic
def penalty_assign(*, season: Season, player: Player, offence: str, sanction: str, points=Decimal("0"),
                   game: Game | None = None, hand_number: int | None = None, ruling=None, actor=None,
                   note: str = "") -> Penalty:
    if sanction not in Penalty.Sanction.values:
        raise ValidationError({"sanction": [f"unknown sanction {sanction!r}"]})
    points = Decimal(str(points))
    if points < 0:
        raise ValidationError({"points": ["give the points deducted as a positive number"]})
    penalty = Penalty.objects.create(season=season, player=player, offence=offence, sanction=sanction,
                                     points=points, game=game, hand_number=hand_number, ruling=ruling,
                                     assigned_by=_user(actor), note=note)
    audit_log_write(actor=actor, action="penalty.assign", obj=penalty,
                    data={"offence": offence, "sanction": sanction, "points": str(points)})
    _penalty_standings_refresh(penalty)
    return penalty


@transaction.atomic
def penalty_cancel(*, penalty: Penalty, reason: str, actor=None) -> Penalty:
    if not reason.strip():
        raise ValidationError({"reason": ["say why the penalty is cancelled"]})
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if penalty.cancelled_at:
        raise ValidationError({"penalty": ["already cancelled"]})
    penalty.cancelled_at, penalty.cancelled_by, penalty.cancel_reason = timezone.now(), _user(actor), reason
    penalty.save(update_fields=["cancelled_at", "cancelled_by", "cancel_reason"])
    audit_log_write(actor=actor, action="penalty.cancel", obj=penalty, data={"reason": reason})
    _penalty_standings_refresh(penalty)
    return penalty


def _penalty_standings_refresh(penalty: Penalty) -> None:
    entry = Entry.objects.filter(season=penalty.season, player=penalty.player).first()
    if entry:
        _standings_refresh(entry.division_id, [penalty.player_id])


# ---------------------------------------------------------------- standings


STANDING_FIELDS = ("rank", "games", "game_points", "penalty_points", "total_points", "average_place", "firsts",
                   "seconds", "thirds", "fourths")


@transaction.atomic
def standings_recompute(*, division: Division) -> int:
    """Rebuild the stored standings of one division from seat results and the penalty ledger
    (the audit of the incremental updates: both must give the same table)."""
    from .models import Standing
    from .standings import standings_rows

    division = _division_lock(division)
    rows = standings_rows(division=division)
    Standing.objects.filter(division=division).delete()
    Standing.objects.bulk_create(Standing(season_id=division.season_id, division=division, **row) for row in rows)
    _standings_version_bump(division)
    return len(rows)


@transaction.atomic
def standings_update(*, division: Division, player_ids) -> int:
    """Incremental standings, in the change's own transaction: the rows of ``player_ids`` (the
    four players of a new, corrected or deleted result, or the one of a penalty) are recomputed,
    then the division is re-ranked in memory and only the rows whose values moved are written.
    Returns how many rows were written."""
    from .models import Standing
    from .standings import entrant_names, rank_rows, standings_rows_for

    division = _division_lock(division)
    fresh = standings_rows_for(division=division, player_ids=player_ids)
    # plain tuples, not model instances: a re-rank reads the whole division (1,000 rows)
    stored = {row[1]: (row[0], dict(zip(STANDING_FIELDS, row[2:])))
              for row in Standing.objects.filter(division=division).order_by()
              .values_list("id", "player_id", *STANDING_FIELDS)}
    gone = [stored.pop(p)[0] for p, row in fresh.items() if row is None and p in stored]
    rows = [{"player_id": p, **values} for p, (_, values) in stored.items() if p not in fresh]
    rows += [row for row in fresh.values() if row is not None]
    rank_rows(rows, entrant_names(division))
    changed, shifted, created = [], defaultdict(list), []
    for row in rows:
        pk, before = stored.get(row["player_id"], (None, None))
        if pk is None:
            created.append(Standing(season_id=division.season_id, division=division, **row))
        elif any(before[f] != row[f] for f in STANDING_FIELDS):
            if all(before[f] == row[f] for f in STANDING_FIELDS if f != "rank"):
                shifted[row["rank"] - before["rank"]].append(pk)
            else:
                changed.append((pk, row))
    now = timezone.now()
    if gone:
        Standing.objects.filter(pk__in=gone).delete()
    # the few players of the change get every column, one row each
    for pk, row in changed:
        Standing.objects.filter(pk=pk).update(**{f: row[f] for f in STANDING_FIELDS}, computed_at=now)
    # the many that only moved shift by the same few steps (+1 or -1 when one player passes
    # them): one UPDATE per step, instead of a CASE with a branch per row
    for step, pks in shifted.items():
        for chunk in _chunks(pks, 500):
            Standing.objects.filter(pk__in=chunk).update(rank=F("rank") + step, computed_at=now)
    Standing.objects.bulk_create(created)
    _standings_version_bump(division)
    return len(changed) + sum(map(len, shifted.values())) + len(created) + len(gone)


def _chunks(items: list, size: int):
    return (items[i:i + size] for i in range(0, len(items), size))


@transaction.atomic
def player_standings_touch(*, player_id: int) -> None:
    """A player's name or accounts changed: their standings rows are shown with them (and the
    name breaks ties), so each division they stand in is re-ranked and its version moves: cached
    tables and API answers keyed on the version are fresh at once."""
    from .models import Standing

    for division_id in (Standing.objects.filter(player_id=player_id).order_by()
                        .values_list("division_id", flat=True).distinct()):
        standings_update(division=Division(pk=division_id), player_ids=[player_id])


def _division_lock(division: Division) -> Division:
    """Serialise standings writers of one division (two results entered at once re-rank in turn)."""
    return Division.objects.select_for_update().get(pk=division.pk)


def _standings_version_bump(division: Division) -> None:
    """The standings' version: conditional requests (ETag) and cached renderings key on it."""
    Division.objects.filter(pk=division.pk).update(standings_version=F("standings_version") + 1)


# ---------------------------------------------------------------- qualification


@transaction.atomic
def application_submit(*, player: Player, season: Season, tier: QualificationTier, evidence: dict,
                       proof=None, actor=None) -> QualificationApplication:
    """File an application. The proof file is checked (type from its content, size) before
    anything is written, and written only once the row exists, so a refused request (invalid
    evidence, a duplicate application) leaves no file behind."""
    if tier.league_id != season.league_id:
        raise ValidationError({"tier": ["this tier belongs to another league"]})
    if actor is not None and getattr(actor, "is_authenticated", False):
        player_ok = getattr(getattr(actor, "player", None), "pk", None) == player.pk
        if not player_ok and not authz.is_admin(actor, season.league):
            raise PermissionDenied("only the player, or an admin of this league, may file this application")
    qualification.check_tier_in_force(tier=tier, season=season)
    clean = qualification.clean_evidence(tier=tier, evidence=evidence, season=season)
    if tier.requirements.get("proof_required") and not proof:
        raise ValidationError({"proof": ["upload a screenshot or file that proves the account and games"]})
    proof_type = evidence_file_check(proof) if proof else ""
    if season.status == Season.Status.CLOSED:
        raise ValidationError({"season": ["the season is closed"]})
    try:
        with transaction.atomic():
            application = QualificationApplication.objects.create(
                player=player, season=season, tier=tier, proof_type=proof_type, **clean
            )
    except IntegrityError:
        raise ValidationError({"tier": ["you already have a pending or approved application for this tier"]}) from None
    if proof:
        stored = application.proof.storage.save(random_name("qualification", proof_type), proof)
        try:
            QualificationApplication.objects.filter(pk=application.pk).update(proof=stored)
            application.proof.name = stored
            audit_log_write(actor=actor, action="application.submit", obj=application,
                            data={"tier": tier.code, **clean, "proof_type": proof_type})
        except Exception:
            application.proof.storage.delete(stored)
            raise
    else:
        audit_log_write(actor=actor, action="application.submit", obj=application, data={"tier": tier.code, **clean})
    return application


@transaction.atomic
def application_decide(*, application: QualificationApplication, approve: bool, reason: str = "",
                       actor=None) -> QualificationApplication:
    actor_authorize(actor, application, authz.Need.ADMIN)
    application = QualificationApplication.objects.select_for_update().get(pk=application.pk)
    if application.status != QualificationApplication.Status.PENDING:
        raise ValidationError({"status": [f"already {application.get_status_display().lower()}"]})
    if not approve and not reason.strip():
        raise ValidationError({"reason": ["give the player a reason for the rejection"]})
    if approve:
        qualification.check_not_expired(application=application)
        division = Division.objects.filter(season=application.season, code=application.tier.division_code).first()
        if division is None:
            raise ValidationError({"tier": [f"{application.season} has no division {application.tier.division_code}"]})
        existing = Entry.objects.filter(season=application.season, player=application.player).first()
        if existing and existing.division_id != division.pk:
            if Game.objects.filter(division_id=existing.division_id, seats__player=application.player).exists():
                raise ValidationError({"player": [f"already plays in {existing.division} this season"]})
            # A qualification moves a player up into the division it admits to.
            left = existing.division_id
            existing.division, existing.basis, existing.application = division, Entry.Basis.QUALIFICATION, application
            existing.save(update_fields=["division", "basis", "application"])
            _standings_refresh(left, [application.player_id])
            _standings_refresh(division.pk, [application.player_id])
        elif not existing:
            Entry.objects.create(season=application.season, division=division, player=application.player,
                                 basis=Entry.Basis.QUALIFICATION, application=application)
            _standings_refresh(division.pk, [application.player_id])
    application.status = (QualificationApplication.Status.APPROVED if approve
                          else QualificationApplication.Status.REJECTED)
    application.decided_by, application.decided_at, application.reason = _user(actor), timezone.now(), reason
    application.save(update_fields=["status", "decided_by", "decided_at", "reason"])
    audit_log_write(actor=actor, action="application.approve" if approve else "application.reject",
                    obj=application, data={"reason": reason})
    return application


# ---------------------------------------------------------------- season end


@transaction.atomic
def season_promote(*, season: Season, next_season: Season, actor=None) -> dict:
    """Carry every entry of ``season`` into ``next_season``: top N of each lower division up,
    bottom N of each upper division down, the rest retained. Idempotent: entries that
    already exist in the next season are left as they are."""
    from .standings import promotion_plan

    season = Season.objects.select_for_update().get(pk=season.pk)
    if next_season.ordinal <= season.ordinal:
        raise ValidationError({"next_season": ["must come after the season being closed"]})
    plan = promotion_plan(season=season, count=season.league.promotion_count)
    targets = {d.code: d for d in next_season.divisions.all()}
    already = set(Entry.objects.filter(season=next_season).values_list("player_id", flat=True))
    created = []
    for player_id, code, basis in plan:
        if player_id in already:
            continue
        if code not in targets:
            raise ValidationError({"next_season": [f"has no division {code}"]})
        created.append(Entry(season=next_season, division=targets[code], player_id=player_id, basis=basis))
    Entry.objects.bulk_create(created)
    for division in targets.values():
        arrivals = [e.player_id for e in created if e.division is division]
        if arrivals:
            _standings_refresh(division.pk, arrivals)
    if season.promoted_at is None:
        season.promoted_at = timezone.now()
        season.save(update_fields=["promoted_at"])
    summary = {"created": len(created), "skipped": len(plan) - len(created),
               "promoted": [p for p, _, b in plan if b == Entry.Basis.PROMOTED],
               "relegated": [p for p, _, b in plan if b == Entry.Basis.RELEGATED]}
    audit_log_write(actor=actor, action="season.promote", obj=season, data={"next_season": next_season.pk, **summary})
    return summary
