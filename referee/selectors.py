"""Referee reads for pages and the API. Private notes never leave here for non-referees:
the public shapes (``incident_public``, ``ruling_public``) leave them out."""

from __future__ import annotations

from typing import cast

from django.db.models import Prefetch, Q
from django.utils.translation import gettext

from kyoku import authz
from league.models import GameSeat, Penalty, Player, Season

from .models import Appeal, Incident, Ruling
from .seats import explanation_lines, reader_lang, seat_rows
from league.names import player_display_name


def _incidents():
    return Incident.objects.select_related("game__season__league", "game__division", "reporter").prefetch_related(
        Prefetch("game__seats", queryset=GameSeat.objects.select_related("player").order_by("seat"))
    )


def incidents_visible_to(user):
    """A referee or admin sees the incidents of their own leagues; a player sees the incidents of
    the games they sat in (any league). Nobody sees another league's incidents through a role."""
    leagues = authz.leagues_where(user, authz.Need.REFEREE)
    if leagues is None:  # superuser
        return _incidents()
    cond = Q(game__season__league_id__in=leagues)
    player = authz.player_of(user)
    if player is not None:
        cond |= Q(pk__in=Incident.objects.filter(game__seats__player=cast(Player, player)).values("pk"))
    if not leagues and player is None:
        return Incident.objects.none()
    return _incidents().filter(cond)


def can_see_private(user, incident: Incident) -> bool:
    return authz.is_referee(user, incident.game.season.league)


def incidents_open(user=None):
    qs = _incidents().filter(status=Incident.Status.OPEN).order_by("created_at")
    return authz.scope_for_actor(qs, actor=user, need=authz.Need.REFEREE) if user is not None else qs


def appeals_pending(user=None):
    qs = (
        Appeal.objects.filter(status=Appeal.Status.PENDING)
        .select_related("player", "ruling__incident__game__division", "ruling__referee")
        .order_by("submitted_at")
    )
    return authz.scope_for_actor(qs, actor=user, need=authz.Need.REFEREE) if user is not None else qs


def rulings_for(incident: Incident):
    return (
        incident.rulings.select_related("referee", "rule_set", "appeal_of")
        .prefetch_related(
            Prefetch("penalties", queryset=Penalty.objects.select_related("player")),
            Prefetch("appeals", queryset=Appeal.objects.select_related("player", "decided_by")),
        )
        .order_by("decided_at", "id")
    )


def _rulings():
    return Ruling.objects.select_related(
        "incident__game__season", "incident__game__division", "referee", "rule_set"
    ).prefetch_related(
        Prefetch("penalties", queryset=Penalty.objects.select_related("player")),
        "appeals",
        Prefetch("incident__game__seats", queryset=GameSeat.objects.select_related("player").order_by("seat")),
    )


def rulings_public(*, season: Season | None = None):
    qs = _rulings()
    if season is not None:
        qs = qs.filter(incident__game__season=season)
    return qs.order_by("-decided_at", "-id")


def rulings_concerning(*, player: Player):
    """Rulings on incidents of games the player sat in."""
    return _rulings().filter(incident__game__seats__player=player).distinct().order_by("-decided_at", "-id")


def seat_names(incident: Incident) -> dict[int, str]:
    return {s.seat: player_display_name(s.player) for s in incident.game.seats.all()}


def incident_seats(incident: Incident) -> list[dict]:
    """The hand's seats for the API: number, wind this hand, player and the label every page uses."""
    names = seat_names(incident)
    players = {s.seat: s.player_id for s in incident.game.seats.all()}
    return [{**row, "player": players.get(row["seat"])} for row in seat_rows(dealer=incident.dealer, names=names)]


# ---------------------------------------------------------------- JSON shapes (API and pages)


def penalty_public(p: Penalty) -> dict:
    return {
        "id": p.pk,
        "player": p.player_id,
        "player_name": player_display_name(p.player),
        "offence": p.offence,
        "sanction": p.sanction,
        "points": str(p.points),
        "active": p.active,
        "note": p.note,
        "cancel_reason": p.cancel_reason,
    }


def ruling_public(r: Ruling) -> dict:
    """A stored ruling as anyone may read it (the incident's private notes are never included)."""
    inc = r.incident
    return {
        "id": r.pk,
        "incident": inc.pk,
        "game": inc.game_id,
        "season": inc.game.season_id,
        "hand_number": inc.hand_number,
        "kind": inc.kind,
        "description": inc.description,
        "events": inc.events,
        "dealer": inc.dealer,
        "engine_version": r.engine_version,
        "rule_set": r.rule_set_id,
        "rules": r.rules,
        "decision": r.decision,
        "override_reason": r.override_reason,
        "proposed": r.proposed,
        "final": r.final,
        "referee": r.referee.get_username() if r.referee else None,
        "decided_at": r.decided_at,
        "appeal_of": r.appeal_of_id,
        "penalties": [penalty_public(p) for p in r.penalties.all()],
        "appeals": [{"id": a.pk, "player": a.player_id, "status": a.status} for a in r.appeals.all()],
        # the seats and the explanation in the reader's language, named as on every page
        "seats": incident_seats(inc),
        "language": reader_lang(),
        "explanation_text": [ln["text"] for ln in explanation_lines(r.final, dealer=inc.dealer, names=seat_names(inc))],
    }


def incident_public(inc: Incident, *, private: bool) -> dict:
    data = {
        "id": inc.pk,
        "game": inc.game_id,
        "season": inc.game.season_id,
        "hand_number": inc.hand_number,
        "dealer": inc.dealer,
        "kind": inc.kind,
        "events": inc.events,
        "description": inc.description,
        "status": inc.status,
        "created_at": inc.created_at,
        "reporter": inc.reporter.get_username() if inc.reporter else None,
        "rulings": [r.pk for r in inc.rulings.all()],
        "seats": incident_seats(inc),
    }
    if private:
        data["private_notes"] = inc.private_notes
    return data


def incidents_search(qs, *, status: str | None = None, game: str | None = None, season: str | None = None):
    if status:
        qs = qs.filter(status=status)
    if game:
        qs = qs.filter(game_id=id_param("game", game))
    if season:
        qs = qs.filter(game__season_id=id_param("season", season))
    return qs


def id_param(name: str, value) -> int:
    """An id from the query string: digits within a database id's range, else a 400 naming it."""
    from django.core.exceptions import ValidationError

    text = str(value)
    if not text.isdigit() or len(text) > 18:
        raise ValidationError({name: [gettext("must be an id (a whole number)")]})
    return int(text)


def penalty_catalogue_latest(*, league):
    """The league's newest stored catalogue, or None (reads only: the default is stored on first use
    by ``services.penalty_catalogue_current``, when a sanction is issued or the catalogue revised)."""
    from .models import PenaltyCatalogue

    return PenaltyCatalogue.objects.filter(league=league).order_by("-version").first()


def penalty_catalogue_data(*, league) -> dict:
    """The catalogue in force for a league: its newest version, else the default one."""
    from .engine.penalties import default_catalogue

    latest = penalty_catalogue_latest(league=league)
    return latest.data if latest else default_catalogue()
