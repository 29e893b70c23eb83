"""Referee writes: incidents, rulings, appeals, the penalty catalogue.

Every write runs in one transaction with its audit row (``league.services.audit_log_write``);
penalties go to the ledger through ``league.services.penalty_assign`` / ``penalty_cancel``,
which recompute the standings after commit. The engine (``referee.engine``) is pure; this module
feeds it the season's settings and stores what it said, what the referee decided, and why.

Incident status: open → ruled → appealed → closed (or ruled → closed when nobody appeals).
"""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from kyoku.authz import acting_user
from kyoku.labels import LABELS
from kyoku.safe_json import check_field, text_problem
from kyoku import authz
from league.models import Game, GameSeat, Penalty, Player, Season
from league.services import audit_log_write, penalty_assign, penalty_cancel
from referee.engine import (
    DEFAULT_REACTION_TIME_MS,
    ENGINE_VERSION,
    RulingError,
    default_catalogue,
    rule,
    sanction_for,
    validate_catalogue,
)
from referee.engine.settings import PRESETS as ENGINE_PRESETS
from scoring.services import game_chombo_ledger_sync

from .models import Appeal, Incident, PenaltyCatalogue, Ruling

# Fields of a ruling a referee may override (everything else is the engine's record of reasoning).
OVERRIDABLE = ("play_started_t", "play_start", "corrections", "dead_hands", "winners", "abortive_draw",
               "invalid_declarations", "penalties")
# League points per catalogue point: the catalogue counts table points (a 20000 chombo), the
# ledger and standings count league points (riichi: table points / 1000).
TABLE_POINTS_PER_LEAGUE_POINT = Decimal(1000)


def _ruling_error(exc: RulingError, prefix: str = "") -> ValidationError:
    return ValidationError({(prefix + exc.field) if exc.field else (prefix.rstrip(".") or "record"): [exc.message]})


# ---------------------------------------------------------------- engine input


def rules_record_for(season: Season) -> dict:
    """The ``rules`` the engine runs with for a season: its rule set's preset and the league's
    reaction time (``rule_set.options["reaction_time_ms"]``), plus multiple-ron settings."""
    rule_set = season.rule_set
    options = rule_set.options or {}
    preset = rule_set.preset if rule_set.preset in ENGINE_PRESETS else "wrc"
    rules = {"preset": preset, "reaction_time_ms": options.get("reaction_time_ms") or DEFAULT_REACTION_TIME_MS}
    if isinstance(options.get("multiple_ron"), bool):
        rules["multiple_ron"] = options["multiple_ron"]
        if options["multiple_ron"] and isinstance(options.get("max_ron_winners"), int) \
                and 2 <= options["max_ron_winners"] <= 3:
            rules["max_ron_winners"] = options["max_ron_winners"]
    return rules


def incident_record(incident: Incident) -> dict:
    """The engine record (ruling contract) of a stored incident."""
    return {"rules": rules_record_for(incident.game.season), "dealer": incident.dealer, "events": incident.events}


# ---------------------------------------------------------------- incidents


MAX_EVENTS = 500  # a hand's timeline: a few dozen events; far more is not a real incident


# What a stored timeline event may carry: the keys the engine reads (ruling contract) and the two
# annotations the contract names (``note``, ``tile``). The engine ignores other keys; storage
# refuses them, so a typo (``setled_t``) is caught instead of silently changing the ruling.
EVENT_KEYS = frozenset({"t", "seat", "act", "settled_t", "visible", "kind", "by", "note", "tile"})


def _event_keys_check(events: list) -> None:
    for i, event in enumerate(events):
        if isinstance(event, dict):
            unknown = sorted(set(event) - EVENT_KEYS)
            if unknown:
                raise ValidationError({f"events[{i}].{unknown[0]}": ["unknown field"]})


def _text(value, field: str, limit: int) -> str:
    """Free text a referee or player types: refused (naming the field) when too long or not storable."""
    if not isinstance(value, str):
        raise ValidationError({field: ["must be text"]})
    if len(value) > limit:
        raise ValidationError({field: [f"at most {limit} characters"]})
    problem = text_problem(value)
    if problem:
        raise ValidationError({field: [problem]})
    return value


# the kinds a page can name in every language (kyoku.labels); anything else would show as a code
INCIDENT_KINDS = tuple(LABELS["incident_kind"])


@transaction.atomic
def incident_log(*, game: Game, hand_number: int | None, dealer: int, kind: str, events: list,
                 description: str = "", private_notes: str = "", reporter=None) -> Incident:
    """Store an incident after checking its timeline with the engine (nothing is stored when the
    engine rejects it; the error names the field, e.g. ``events[2].t``)."""
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer <= 3:
        raise ValidationError({"dealer": ["the seat (0..3) of East this hand"]})
    if not isinstance(kind, str) or kind.strip() not in INCIDENT_KINDS:
        raise ValidationError({"kind": ["one of: " + ", ".join(INCIDENT_KINDS)]})
    if hand_number is not None and (isinstance(hand_number, bool) or not isinstance(hand_number, int)
                                    or hand_number < 0):
        raise ValidationError({"hand_number": ["a hand number, 0 or more"]})
    if not isinstance(events, list) or not events:
        raise ValidationError({"events": ["record the timeline: at least one event"]})
    if len(events) > MAX_EVENTS:
        raise ValidationError({"events": [f"at most {MAX_EVENTS} events in one incident"]})
    check_field(events, "events")
    _event_keys_check(events)
    kind = _text(kind, "kind", 40)
    description = _text(description or "", "description", 5000)
    private_notes = _text(private_notes or "", "private_notes", 5000)
    try:
        rule({"rules": rules_record_for(game.season), "dealer": dealer, "events": events})
    except RulingError as exc:
        raise _ruling_error(exc) from None
    incident = Incident.objects.create(
        game=game, hand_number=hand_number, dealer=dealer, kind=kind.strip()[:40], events=events,
        description=description or "", private_notes=private_notes or "", reporter=acting_user(reporter),
        occurred_at=timezone.now(),
    )
    audit_log_write(actor=reporter, action="incident.log", obj=incident,
                    data={"game": game.pk, "kind": incident.kind, "events": len(events)})
    return incident


def ruling_propose(*, incident: Incident) -> dict:
    """The engine's ruling for an incident under its season's settings (stores nothing)."""
    try:
        return rule(incident_record(incident))
    except RulingError as exc:  # a stored timeline that the current engine no longer accepts
        raise _ruling_error(exc) from None


def current_ruling(incident: Incident) -> Ruling | None:
    return incident.rulings.order_by("-decided_at", "-id").first()


# ---------------------------------------------------------------- penalty catalogue


def _catalogue_errors(errors: list[str]) -> ValidationError:
    out: dict[str, list[str]] = {}
    for err in errors:
        field, _, message = err.partition(": ")
        out.setdefault(field or "catalogue", []).append(message)
    return ValidationError(out)


@transaction.atomic
def penalty_catalogue_current(*, league) -> PenaltyCatalogue:
    """The league's newest catalogue; the default one (``referee.engine.penalties``) on first use."""
    current = PenaltyCatalogue.objects.filter(league=league).order_by("-version").first()
    if current is None:
        current, created = PenaltyCatalogue.objects.get_or_create(
            league=league, version=1, defaults={"data": default_catalogue()})
        if created:
            audit_log_write(actor=None, action="penalty_catalogue.create", obj=current,
                            data={"version": 1, "catalogue_version": current.data.get("version")})
    return current


@transaction.atomic
def penalty_catalogue_revise(*, league, data: dict, actor=None) -> PenaltyCatalogue:
    """A new catalogue version (version + 1); earlier versions stay as the rulings made under them."""
    check_field(data, "catalogue")
    errors = validate_catalogue(data)
    if errors:
        raise _catalogue_errors(errors)
    penalty_catalogue_current(league=league)
    latest = PenaltyCatalogue.objects.select_for_update().filter(league=league).order_by("-version").first()
    revised = PenaltyCatalogue.objects.create(league=league, version=latest.version + 1, data=data,
                                              created_by=acting_user(actor))
    audit_log_write(actor=actor, action="penalty_catalogue.revise", obj=revised,
                    data={"from_version": latest.version, "version": revised.version,
                          "catalogue_version": data.get("version")})
    return revised


# ---------------------------------------------------------------- sanctions


def _seat_players(game: Game) -> dict[int, Player]:
    return {s.seat: s.player for s in GameSeat.objects.filter(game=game).select_related("player")}


def _priors(*, player: Player, game: Game) -> list[dict]:
    rows = Penalty.objects.filter(player=player, season_id=game.season_id, cancelled_at__isnull=True)
    return [{"sanction": p.sanction, "scope": "game" if p.game_id == game.pk else "season"} for p in rows]


def _clean_penalties(items, field: str, catalogue: dict) -> list[dict]:
    if items is None:
        return []
    if not isinstance(items, list):
        raise ValidationError({field: ["must be a list of {seat, offence}"]})
    out = []
    for j, item in enumerate(items):
        f = f"{field}[{j}]"
        if not isinstance(item, dict):
            raise ValidationError({f: ["must be an object with seat and offence"]})
        seat = item.get("seat")
        if isinstance(seat, str) and seat.isdigit():
            seat = int(seat)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
            raise ValidationError({f"{f}.seat": [f"must be a seat number 0..3, got {item.get('seat')!r}"]})
        offence = item.get("offence")
        if offence not in catalogue["offences"]:
            raise ValidationError({f"{f}.offence": [
                f"unknown offence {offence!r}; the catalogue has: {', '.join(sorted(catalogue['offences']))}"]})
        clauses = item.get("clauses", [])
        if not isinstance(clauses, list) or not all(isinstance(c, str) for c in clauses):
            raise ValidationError({f"{f}.clauses": ["must be a list of clause ids"]})
        out.append({"seat": seat, "offence": offence, "clauses": clauses, "note": str(item.get("note", ""))})
    return out


def _issue(*, ruling: Ruling, incident: Incident, items: list[dict], catalogue: PenaltyCatalogue,
           actor, source: str) -> list[dict]:
    """Each penalty's sanction from the catalogue, escalated by the player's prior active penalties
    in this game and season (penalties issued just before count too), into the ledger."""
    game = incident.game
    seats = _seat_players(game)
    issued = []
    for item in items:
        player = seats.get(item["seat"])
        if player is None:
            raise ValidationError({"penalties": [f"seat {item['seat']} has no player in this game"]})
        try:
            sanction = sanction_for(catalogue.data, item["offence"], _priors(player=player, game=game))
        except RulingError as exc:
            raise _ruling_error(exc, "catalogue.") from None
        points = Decimal(sanction["points"]) / TABLE_POINTS_PER_LEAGUE_POINT
        esc = f", escalated from {sanction['escalated_from']}" if sanction["escalated_from"] else ""
        note = (f"ruling #{ruling.pk} ({source}): {item['offence']} → {sanction['sanction']}{esc}; "
                f"clauses {', '.join(sanction['clauses'])}; catalogue v{catalogue.version} "
                f"({sanction['catalogue_version']})")
        if item.get("note"):
            note += f"; {item['note']}"
        penalty = penalty_assign(season=game.season, player=player, offence=item["offence"],
                                 sanction=sanction["sanction"], points=points, game=game,
                                 hand_number=incident.hand_number, ruling=ruling, actor=actor, note=note)
        issued.append({**sanction, "seat": item["seat"], "player": player.pk, "penalty": penalty.pk,
                       "league_points": str(penalty.points), "source": source})
    return issued


def _ruling_penalties_issue(*, ruling: Ruling, incident: Incident, ruled: list[dict], extra: list[dict],
                            catalogue: PenaltyCatalogue, referee, source: str) -> list[dict]:
    """The ruling's own penalties (``source``) and the referee's extra ones into the ledger; then the
    chombo deductions booked from the game's hand records are squared with it (a chombo the ruling
    deducts is not deducted twice; one a reversed ruling no longer deducts falls back to the hands)."""
    issued = _issue(ruling=ruling, incident=incident, items=ruled, catalogue=catalogue, actor=referee, source=source)
    issued += _issue(ruling=ruling, incident=incident, items=extra, catalogue=catalogue, actor=referee,
                     source="referee")
    game_chombo_ledger_sync(game=incident.game, actor=referee)
    return issued


def _apply_override(base: dict, override, field: str) -> dict:
    if not isinstance(override, dict) or not override:
        raise ValidationError({field: ["give the fields of the ruling that change, e.g. {\"winners\": [2]}"]})
    unknown = [k for k in override if k not in OVERRIDABLE]
    if unknown:
        raise ValidationError({f"{field}.{unknown[0]}": [
            f"cannot be overridden; a referee may change: {', '.join(OVERRIDABLE)}"]})
    for key in ("winners", "dead_hands", "invalid_declarations"):
        if key in override:
            v = override[key]
            if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
                raise ValidationError({f"{field}.{key}": ["must be a list of integers"]})
    return {**base, **override}


# ---------------------------------------------------------------- rulings


@transaction.atomic
def ruling_decide(*, incident: Incident, referee, accept: bool, override: dict | None = None,
                  override_reason: str = "", penalties: list | None = None) -> Ruling:
    """Store the ruling on an open incident: the engine's proposal, accepted or overridden (with a
    reason), and issue its penalties (plus any ``penalties`` the referee adds, each
    ``{"seat", "offence", "note"?}``) to the ledger, sanctions from the league's catalogue."""
    incident = Incident.objects.select_for_update().select_related("game__season__rule_set",
                                                                    "game__season__league").get(pk=incident.pk)
    season = incident.game.season
    authz.authorize(referee, incident, authz.Need.REFEREE)
    check_field(override, "override")
    check_field(penalties, "penalties")
    override_reason = _text(override_reason or "", "override_reason", 2000)
    if incident.status != Incident.Status.OPEN:
        raise ValidationError({"status": [
            f"incident #{incident.pk} is {incident.get_status_display().lower()}, not open: a ruling is made "
            "once; to change it, a player concerned files an appeal"]})
    override_reason = (override_reason or "").strip()
    proposed = ruling_propose(incident=incident)
    if accept:
        if override:
            raise ValidationError({"override": ["accepting the proposed ruling takes no override"]})
        final, decision = proposed, Ruling.Decision.ACCEPTED
    else:
        if not override_reason:
            raise ValidationError({"override_reason": ["an override needs a reason, recorded with the ruling"]})
        final, decision = _apply_override(proposed, override, "override"), Ruling.Decision.OVERRIDDEN
    catalogue = penalty_catalogue_current(league=season.league)
    ruled = _clean_penalties(final.get("penalties", []), "proposed.penalties" if accept else "override.penalties",
                             catalogue.data)
    extra = _clean_penalties(penalties, "penalties", catalogue.data)
    ruling = Ruling.objects.create(
        incident=incident, engine_version=ENGINE_VERSION, rule_set=season.rule_set,
        rules=incident_record(incident)["rules"], proposed=proposed, decision=decision,
        override_reason=override_reason if not accept else "", final=final, referee=acting_user(referee),
    )
    issued = _ruling_penalties_issue(ruling=ruling, incident=incident, ruled=ruled, extra=extra,
                                     catalogue=catalogue, referee=referee, source="ruling")
    incident.status = Incident.Status.RULED
    incident.save(update_fields=["status"])
    audit_log_write(actor=referee, action="ruling.decide", obj=ruling, data={
        "incident": incident.pk, "decision": decision, "override_reason": ruling.override_reason,
        "engine_version": ENGINE_VERSION, "rule_set": str(season.rule_set), "rules": ruling.rules,
        "catalogue": {"id": catalogue.pk, "version": catalogue.version,
                      "catalogue_version": catalogue.data.get("version")},
        "sanctions": issued,
    })
    return ruling


@transaction.atomic
def incident_close(*, incident: Incident, actor) -> Incident:
    """Close a ruled incident nobody appealed."""
    incident = Incident.objects.select_for_update().select_related("game__season__league").get(pk=incident.pk)
    authz.authorize(actor, incident, authz.Need.REFEREE)
    if incident.status != Incident.Status.RULED:
        raise ValidationError({"status": [f"only a ruled incident can be closed; this one is "
                                          f"{incident.get_status_display().lower()}"]})
    incident.status = Incident.Status.CLOSED
    incident.save(update_fields=["status"])
    audit_log_write(actor=actor, action="incident.close", obj=incident)
    return incident


# ---------------------------------------------------------------- appeals


def player_concerned(ruling: Ruling, player: Player | None) -> bool:
    """A player concerned by a ruling: one who sat at the incident's game."""
    return player is not None and GameSeat.objects.filter(game_id=ruling.incident.game_id, player=player).exists()


@transaction.atomic
def appeal_file(*, ruling: Ruling, player: Player, reason: str, actor=None) -> Appeal:
    incident = Incident.objects.select_for_update().get(pk=ruling.incident_id)
    if not player_concerned(ruling, player):
        raise PermissionDenied("Only a player of this game may appeal its ruling.")
    if not (reason or "").strip():
        raise ValidationError({"reason": ["say why the ruling should change"]})
    reason = _text(reason, "reason", 5000)
    if incident.status == Incident.Status.OPEN:
        raise ValidationError({"status": ["this incident has not been ruled yet"]})
    if incident.status == Incident.Status.APPEALED:
        raise ValidationError({"status": ["an appeal against this ruling is already pending"]})
    if incident.status == Incident.Status.CLOSED:
        raise ValidationError({"status": ["this incident is closed: its ruling is final"]})
    if current_ruling(incident).pk != ruling.pk:
        raise ValidationError({"ruling": ["this ruling has been replaced; appeal the current one"]})
    appeal = Appeal.objects.create(ruling=ruling, player=player, reason=reason.strip())
    incident.status = Incident.Status.APPEALED
    incident.save(update_fields=["status"])
    audit_log_write(actor=actor or player.user, action="appeal.file", obj=appeal,
                    data={"ruling": ruling.pk, "incident": incident.pk, "player": player.pk})
    return appeal


@transaction.atomic
def appeal_decide(*, appeal: Appeal, referee, uphold: bool, reason: str, new_final: dict | None = None,
                  penalties: list | None = None) -> Appeal:
    """Decide an appeal. A different referee than the one who ruled must decide it.

    Upholding leaves the ruling and its penalties as they are. Reversing cancels the old ruling's
    active penalties and stores a new ruling (``appeal_of``) whose final is the old final with
    ``new_final``'s fields applied (without ``new_final``: the old final with no penalties);
    its penalties, plus any extra ``penalties``, are issued anew. The incident is then closed.
    """
    appeal = Appeal.objects.select_for_update().select_related(
        "ruling__incident__game__season__league", "ruling__incident__game__season__rule_set").get(pk=appeal.pk)
    old = appeal.ruling
    incident = Incident.objects.select_for_update().get(pk=old.incident_id)
    season = incident.game.season
    authz.authorize(referee, appeal, authz.Need.REFEREE)
    if appeal.status != Appeal.Status.PENDING:
        raise ValidationError({"status": [f"this appeal is already decided ({appeal.get_status_display().lower()})"]})
    if old.referee_id is not None and old.referee_id == getattr(referee, "pk", None):
        raise ValidationError({"referee": ["an appeal must be decided by a different referee than the one "
                                           "who made the ruling"]})
    reason = _text((reason or "").strip(), "reason", 5000)
    check_field(new_final, "new_final")
    check_field(penalties, "penalties")
    if not reason:
        raise ValidationError({"reason": ["give the reason for the decision on the appeal"]})
    if incident.status != Incident.Status.APPEALED:
        raise ValidationError({"status": [f"incident #{incident.pk} is {incident.get_status_display().lower()}, "
                                          "not appealed"]})
    if uphold:
        if new_final or penalties:
            raise ValidationError({"new_final": ["upholding keeps the ruling: give no new ruling or penalties"]})
        appeal.status = Appeal.Status.UPHELD
    else:
        if new_final is None:
            final = {**old.final, "penalties": []}
        else:
            final = _apply_override(old.final, new_final, "new_final")
        catalogue = penalty_catalogue_current(league=season.league)
        ruled = _clean_penalties(final.get("penalties", []), "new_final.penalties", catalogue.data)
        extra = _clean_penalties(penalties, "penalties", catalogue.data)
        for penalty in old.penalties.filter(cancelled_at__isnull=True):
            penalty_cancel(penalty=penalty, reason=f"appeal #{appeal.pk} reversed ruling #{old.pk}: {reason}",
                           actor=referee)
        new = Ruling.objects.create(
            incident=incident, engine_version=ENGINE_VERSION, rule_set=season.rule_set,
            rules=incident_record(incident)["rules"], proposed=ruling_propose(incident=incident),
            decision=Ruling.Decision.OVERRIDDEN, override_reason=reason, final=final, referee=acting_user(referee),
            appeal_of=appeal,
        )
        issued = _ruling_penalties_issue(ruling=new, incident=incident, ruled=ruled, extra=extra,
                                         catalogue=catalogue, referee=referee, source="appeal")
        appeal.status = Appeal.Status.REVERSED
        audit_log_write(actor=referee, action="ruling.decide", obj=new, data={
            "incident": incident.pk, "appeal": appeal.pk, "replaces": old.pk, "decision": "overridden",
            "override_reason": reason, "engine_version": ENGINE_VERSION, "rules": new.rules,
            "catalogue": {"id": catalogue.pk, "version": catalogue.version}, "sanctions": issued,
        })
    appeal.decided_by, appeal.decided_at, appeal.decision_reason = acting_user(referee), timezone.now(), reason
    appeal.save(update_fields=["status", "decided_by", "decided_at", "decision_reason"])
    incident.status = Incident.Status.CLOSED
    incident.save(update_fields=["status"])
    audit_log_write(actor=referee, action="appeal.uphold" if uphold else "appeal.reverse", obj=appeal,
                    data={"ruling": old.pk, "reason": reason})
    return appeal
