"""Sanctions: a ruling's penalties checked against the catalogue, escalated by the player's
priors and written to the ledger; a referee's override checked field by field."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from kyoku.principals import Actor
from league.models import Game, GameSeat, Penalty, Player
from league.services import penalty_assign
from referee.engine import RulingError, sanction_for
from scoring.services import game_chombo_ledger_sync

from ..models import Incident, PenaltyCatalogue, Ruling
from .common import ruling_error

# League points per catalogue point: the catalogue counts table points (a 20000 chombo), the
# ledger and standings count league points (riichi: table points / 1000).
TABLE_POINTS_PER_LEAGUE_POINT = Decimal(1000)
# Fields of a ruling a referee may override (everything else is the engine's record of reasoning).
OVERRIDABLE = (
    "play_started_t",
    "play_start",
    "corrections",
    "dead_hands",
    "winners",
    "abortive_draw",
    "invalid_declarations",
    "penalties",
)


def _seat_players(game: Game) -> dict[int, Player]:
    return {s.seat: s.player for s in GameSeat.objects.filter(game=game).select_related("player")}


def _priors(*, player: Player, game: Game) -> list[dict]:
    rows = Penalty.objects.filter(player=player, season_id=game.season_id, cancelled_at__isnull=True)
    return [{"sanction": p.sanction, "scope": "game" if p.game_id == game.pk else "season"} for p in rows]


def penalties_clean(items, field: str, catalogue: dict) -> list[dict]:
    if items is None:
        return []
    if not isinstance(items, list):
        raise ValidationError({field: [gettext("must be a list of {seat, offence}")]})
    out = []
    for j, item in enumerate(items):
        f = f"{field}[{j}]"
        if not isinstance(item, dict):
            raise ValidationError({f: [gettext("must be an object with seat and offence")]})
        seat = item.get("seat")
        if isinstance(seat, str) and seat.isdigit():
            seat = int(seat)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
            raise ValidationError(
                {f"{f}.seat": [gettext("must be a seat number 0..3, got %(item)s") % {"item": repr(item.get("seat"))}]}
            )
        offence = item.get("offence")
        if offence not in catalogue["offences"]:
            raise ValidationError(
                {
                    f"{f}.offence": [
                        gettext("unknown offence %(offence)s; the catalogue has: %(offences)s")
                        % {"offence": repr(offence), "offences": ", ".join(sorted(catalogue["offences"]))}
                    ]
                }
            )
        clauses = item.get("clauses", [])
        if not isinstance(clauses, list) or not all(isinstance(c, str) for c in clauses):
            raise ValidationError({f"{f}.clauses": [gettext("must be a list of clause ids")]})
        out.append({"seat": seat, "offence": offence, "clauses": clauses, "note": str(item.get("note", ""))})
    return out


def _issue(
    *, ruling: Ruling, incident: Incident, items: list[dict], catalogue: PenaltyCatalogue, actor: Actor, source: str
) -> list[dict]:
    """Each penalty's sanction from the catalogue, escalated by the player's prior active penalties
    in this game and season (penalties issued just before count too), into the ledger."""
    game = incident.game
    seats = _seat_players(game)
    issued = []
    for item in items:
        player = seats.get(item["seat"])
        if player is None:
            raise ValidationError(
                {"penalties": [gettext("seat %(seat)s has no player in this game") % {"seat": item["seat"]}]}
            )
        try:
            sanction = sanction_for(catalogue.data, item["offence"], _priors(player=player, game=game))
        except RulingError as exc:
            raise ruling_error(exc, "catalogue.") from None
        points = Decimal(sanction["points"]) / TABLE_POINTS_PER_LEAGUE_POINT
        esc = f", escalated from {sanction['escalated_from']}" if sanction["escalated_from"] else ""
        note = (
            f"ruling #{ruling.pk} ({source}): {item['offence']} → {sanction['sanction']}{esc}; "
            f"clauses {', '.join(sanction['clauses'])}; catalogue v{catalogue.version} "
            f"({sanction['catalogue_version']})"
        )
        if item.get("note"):
            note += f"; {item['note']}"
        penalty = penalty_assign(
            season=game.season,
            player=player,
            offence=item["offence"],
            sanction=sanction["sanction"],
            points=points,
            game=game,
            hand_number=incident.hand_number,
            ruling=ruling,
            actor=actor,
            note=note,
        )
        issued.append(
            {
                **sanction,
                "seat": item["seat"],
                "player": player.pk,
                "penalty": penalty.pk,
                "league_points": str(penalty.points),
                "source": source,
            }
        )
    return issued


def ruling_penalties_issue(
    *,
    ruling: Ruling,
    incident: Incident,
    ruled: list[dict],
    extra: list[dict],
    catalogue: PenaltyCatalogue,
    referee: Actor,
    source: str,
) -> list[dict]:
    """The ruling's own penalties (``source``) and the referee's extra ones into the ledger; then the
    chombo deductions booked from the game's hand records are squared with it (a chombo the ruling
    deducts is not deducted twice; one a reversed ruling no longer deducts falls back to the hands)."""
    issued = _issue(ruling=ruling, incident=incident, items=ruled, catalogue=catalogue, actor=referee, source=source)
    issued += _issue(
        ruling=ruling, incident=incident, items=extra, catalogue=catalogue, actor=referee, source="referee"
    )
    game_chombo_ledger_sync(game=incident.game, actor=referee)
    return issued


def ruling_override_apply(base: dict, override, field: str) -> dict:
    if not isinstance(override, dict) or not override:
        raise ValidationError({field: [gettext('give the fields of the ruling that change, e.g. {"winners": [2]}')]})
    unknown = [k for k in override if k not in OVERRIDABLE]
    if unknown:
        raise ValidationError(
            {
                f"{field}.{unknown[0]}": [
                    gettext("cannot be overridden; a referee may change: %(overridable)s")
                    % {"overridable": ", ".join(OVERRIDABLE)}
                ]
            }
        )
    for key in ("winners", "dead_hands", "invalid_declarations"):
        if key in override:
            v = override[key]
            if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
                raise ValidationError({f"{field}.{key}": [gettext("must be a list of integers")]})
    return {**base, **override}
