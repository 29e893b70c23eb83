"""The season's life run from the office: open registration, next season, close, promotion
preview and confirm.
Writes are atomic and audited; they re-check the actor's admin right in the season's league."""

from datetime import date, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.utils.translation import gettext

from kyoku.audit import audit_log_write
from kyoku.errors import Conflict
from kyoku.authz import Need
from kyoku.principals import Actor

from . import services
from .models import Entry, LeagueInvitation, Player, Season, Standing


def _next_number(season: Season) -> tuple[int, int]:
    return (season.year + 1, 1) if season.number == 4 else (season.year, season.number + 1)


def season_next_find(*, season: Season) -> Season | None:
    year, number = _next_number(season)
    return Season.objects.filter(league=season.league, year=year, number=number, kind=Season.Kind.LEAGUE).first()


@transaction.atomic
def season_next_dates(*, season: Season) -> tuple[date | None, date | None]:
    """The dates a next season is proposed with: from the day after ``season`` ends, as long as
    ``season`` was; none when ``season`` has no end date."""
    if season.ends_on is None:
        return None, None
    starts = season.ends_on + timedelta(days=1)
    length = (season.ends_on - season.starts_on) if season.starts_on else None
    return starts, (starts + length if length is not None else None)


def season_create_next(
    *, season: Season, actor: Actor, starts_on: date | None = None, ends_on: date | None = None
) -> Season:
    """The season after ``season`` with the same divisions and rules version; entries come
    across through promotion. Dates not given are proposed by :func:`season_next_dates`.
    Asking twice returns the season already created."""
    services.actor_authorize(actor, season, Need.ADMIN)
    existing = season_next_find(season=season)
    if existing is not None:
        return existing
    year, number = _next_number(season)
    proposed_start, proposed_end = season_next_dates(season=season)
    divisions = [(d.code, d.name, d.name_zh) for d in season.divisions.order_by("order")]
    return services.season_create(
        league=season.league,
        year=year,
        number=number,
        rule_set=season.rule_set,
        starts_on=starts_on or proposed_start,
        ends_on=ends_on or proposed_end,
        divisions=divisions or services.DEFAULT_DIVISIONS,
        actor=actor,
    )


def season_open_work(*, season: Season) -> list[str]:
    """What is still to play in ``season``, in words: games without a result, games entered hand
    by hand and not finished, match days to come. Empty when the season can close quietly."""
    from django.apps import apps
    from django.db.models import Exists, OuterRef
    from django.utils import timezone

    from .models import Game

    games = Game.objects.filter(season=season).exclude(status__in=[Game.Status.FINISHED, Game.Status.VOID])
    hand_records = apps.get_model("scoring", "HandRecord")
    games = games.annotate(has_hands=Exists(hand_records.objects.filter(game=OuterRef("pk"))))
    in_progress = sum(1 for g in games if g.has_hands)
    unplayed = games.count() - in_progress
    work = []
    if unplayed:
        work.append(ngettext("%(n)s game not played", "%(n)s games not played", unplayed) % {"n": unplayed})
    if in_progress:
        work.append(
            ngettext(
                "%(n)s game entered hand by hand and not finished",
                "%(n)s games entered hand by hand and not finished",
                in_progress,
            )
            % {"n": in_progress}
        )
    if apps.is_installed("matchdays"):
        # match days live in an app above this one: asked through the registry, not imported
        match_days = (
            apps.get_model("matchdays", "MatchDay")
            .objects.filter(season=season, date__gte=timezone.localdate())
            .count()
        )
        if match_days:
            work.append(ngettext("%(n)s match day to come", "%(n)s match days to come", match_days) % {"n": match_days})
    return work


@transaction.atomic
def season_close(*, season: Season, actor: Actor, confirm: bool = False) -> Season:
    """Close the season. With games or match days still open the admin must confirm, having been
    told what is open; a closed season can be reopened (``season_reopen``)."""
    services.actor_authorize(actor, season, Need.ADMIN)
    if season.status == Season.Status.CLOSED:
        return season  # closing twice changes nothing
    work = season_open_work(season=season)
    if work and not confirm:
        raise Conflict(
            {"confirm": [_("The season still has: %(work)s. Confirm to close it anyway.") % {"work": "; ".join(work)}]},
            code="season_has_open_work",
        )
    season = services.season_status_set(season=season, status=Season.Status.CLOSED, actor=actor)
    if work:
        audit_log_write(actor=actor, action="season.close_confirmed", obj=season, data={"open": work})
    return season


@transaction.atomic
def season_reopen(*, season: Season, actor: Actor, reason: str = "") -> Season:
    """Open a closed season again (a result to correct, a game closed too early); audited."""
    services.actor_authorize(actor, season, Need.ADMIN)
    if season.status != Season.Status.CLOSED:
        raise Conflict({"status": [_("Only a closed season can be reopened.")]}, code="season_not_closed")
    reason = (reason or "").strip()
    if len(reason) > 500:
        raise ValidationError({"reason": [_("at most %(n)s characters") % {"n": 500}]})
    season = services.season_status_set(season=season, status=Season.Status.OPEN, actor=actor)
    audit_log_write(actor=actor, action="season.reopen", obj=season, data={"reason": reason})
    return season


def season_open_audience(*, season: Season) -> int:
    """How many would be told when the season's registration opens: the league's current members
    with a login (league.notices.season_opened)."""
    from .models import LeagueMembership

    current = LeagueMembership.objects.filter(league=season.league, archived_at__isnull=True)
    return Player.objects.filter(pk__in=current.values("player_id"), user__isnull=False).count()


@transaction.atomic
def season_open(*, season: Season, actor: Actor) -> Season:
    """Open a draft season's registration: the league's members are told once, and its public
    channels announce it (league.notices.season_opened, through ``season_status_set``). Only a
    draft season opens: an open one is already open, a closed one is reopened instead."""
    services.actor_authorize(actor, season, Need.ADMIN)
    season = Season.objects.select_for_update().get(pk=season.pk)  # two admins at once: one opens it
    if season.status != Season.Status.DRAFT:
        words = {
            Season.Status.OPEN: _("Registration for this season is already open."),
            Season.Status.CLOSED: _("This season is closed: reopen it instead of opening its registration."),
        }
        raise Conflict(
            {"status": [words.get(season.status, _("Only a draft season can be opened."))]}, code="season_not_draft"
        )
    season = services.season_status_set(season=season, status=Season.Status.OPEN, actor=actor)
    audit_log_write(actor=actor, action="season.open", obj=season, data={"from": Season.Status.DRAFT})
    return season


def promotion_preview(*, season: Season) -> list[dict]:
    """Who goes where, without writing: one row per entry, movers first."""
    from .standings import promotion_plan

    plan = promotion_plan(season=season, count=season.league.promotion_count)
    players = Player.objects.in_bulk([p for p, _, _ in plan])
    current = dict(Entry.objects.filter(season=season).values_list("player_id", "division__code"))
    # divisions by name in the reader's language (甲組, A Division), ordered as the league orders them
    divisions = {d.code: d for d in season.divisions.all()}
    # the standings row each move is decided on: an admin checks the line before confirming it
    standing = {
        row["player_id"]: row
        for row in Standing.objects.filter(season=season).values("player_id", "rank", "games", "total_points")
    }
    order = {Entry.Basis.PROMOTED: 0, Entry.Basis.RELEGATED: 1}
    rows = [
        {
            "player": players[p],
            "from": current.get(p, ""),
            "to": code,
            "basis": basis,
            "from_name": divisions[current[p]].display_name if current.get(p) in divisions else "",
            "to_name": divisions[code].display_name if code in divisions else code,
            "rank": standing.get(p, {}).get("rank"),
            "games": standing.get(p, {}).get("games", 0),
            "points": standing.get(p, {}).get("total_points"),
        }
        for p, code, basis in plan
    ]
    place = {code: d.order for code, d in divisions.items()}
    return sorted(
        rows,
        key=lambda r: (
            order.get(r["basis"], 2),
            place.get(r["from"], 99),
            r["rank"] if r["rank"] is not None else 10**6,
            str(r["player"]),
        ),
    )


@transaction.atomic
def season_promotion_confirm(*, season: Season, actor: Actor) -> dict:
    """Create the next season's entries from the plan. Idempotent: a second confirm creates
    nothing (season_promote skips players already entered) and says so in its audit row."""
    services.actor_authorize(actor, season, Need.ADMIN)
    nxt = season_next_find(season=season)
    if nxt is None:
        raise ValidationError({"next_season": [gettext("create the next season first")]})
    summary = services.season_promote(season=season, next_season=nxt, actor=actor)
    audit_log_write(
        actor=actor,
        action="season.promotion_confirm",
        obj=season,
        data={"next_season": nxt.pk, "created": summary["created"]},
    )
    return summary


@transaction.atomic
def entry_add(*, division, player, actor: Actor) -> Entry | LeagueInvitation:
    """Enter ``player`` in ``division``; a player who has not joined the league (a member of
    another league only) is invited instead: the invitation is returned, and the player is
    entered when they accept it on their own page (league.services.memberships)."""
    services.actor_authorize(actor, division, Need.ADMIN)
    if Entry.objects.filter(season=division.season, player=player).exists():
        return services.entry_create(division=division, player=player, actor=actor)  # refused: says why
    if services.consent_via(league=division.season.league, player=player, actor=actor) is None:
        return services.invitation_create(division=division, player=player, actor=actor)
    return services.entry_create(division=division, player=player, actor=actor)


class EntryHasGames(ValidationError):
    """The entry is part of the season's record: the API answers 409 (kyoku.errors), the page a message."""

    http_status = 409


@transaction.atomic
def entry_remove(*, entry: Entry, actor: Actor) -> None:
    """Remove an entry that has not played: a player with a game keeps their entry (their
    results belong to the season)."""
    services.actor_authorize(actor, entry, Need.ADMIN)
    from .models import GameSeat

    if GameSeat.objects.filter(game__division_id=entry.division_id, player_id=entry.player_id).exists():
        raise EntryHasGames({"entry": ["this player has games in the division; the entry stays"]})
    audit_log_write(
        actor=actor, action="entry.remove", obj=entry, data={"player": entry.player_id, "division": entry.division.code}
    )
    entry.delete()
    services.division_summary_entrants(division_id=entry.division_id)


@transaction.atomic
def game_create(*, division, match_day: int, table: int, players: list, actor: Actor, scheduled_at=None):
    services.actor_authorize(actor, division, Need.ADMIN)
    return services.game_create(
        division=division, match_day=match_day, table=table, players=players, scheduled_at=scheduled_at, actor=actor
    )
