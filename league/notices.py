"""What the league's own facts tell (notifications.kinds), each called in the transaction of its
fact: a qualification application decided (to its player), a penalty in the ledger (to its
player), the season's end (each player's
division next season), a season opening its registration (to the league's members, and
announced on the league's public channels); and, from the periodic scan, a match day starting
soon (to each seated player)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from kyoku.labels import offence_label
from kyoku.principals import Actor
from notifications import services as notify

from .models import Entry, Game, LeagueMembership, Penalty, Player, QualificationApplication, Season
from .names import names_said


def _user(player: Player) -> Any:
    return getattr(player, "user", None)


def application_decided(*, application: QualificationApplication, actor: Actor) -> None:
    season = application.season
    notify.notification_send(
        kind="application_decided",
        recipients=[_user(application.player)],
        league=season.league,
        params={
            "league": notify.league_words(season.league),
            "season": str(season),
            "approved": application.status == QualificationApplication.Status.APPROVED,
            "reason": application.reason[:500],
        },
        link=reverse("me"),
        key=f"application:{application.pk}",
        actor=actor,
    )


def season_promoted(*, season: Season, next_season: Season, actor: Actor) -> None:
    """Each player entered in ``next_season`` from ``season`` by promotion, relegation or staying."""
    moved: dict[str, str] = {Entry.Basis.PROMOTED.value: "up", Entry.Basis.RELEGATED.value: "down"}
    entries = Entry.objects.filter(season=next_season).select_related("player__user", "division")
    was = set(Entry.objects.filter(season=season).values_list("player_id", flat=True))
    groups: dict[tuple[str, int], list[Any]] = {}
    for entry in entries:
        if entry.player_id in was and _user(entry.player) is not None:
            groups.setdefault((moved.get(entry.basis, "stay"), entry.division_id), []).append(entry)
    for (direction, _division_id), rows in groups.items():
        division = rows[0].division
        notify.notification_send(
            kind="promotion_relegation",
            recipients=[_user(e.player) for e in rows],
            league=season.league,
            params={
                "league": notify.league_words(season.league),
                "season": str(next_season),
                "division": {"en": division.name, "cjk": division.name_zh or division.name},
                "moved": direction,
            },
            link=reverse("season", args=[next_season.pk]),
            key=f"promotion:{season.pk}:{next_season.pk}",
            actor=actor,
        )


def season_opened(*, season: Season, was: str, actor: Actor) -> None:
    """A league season goes from draft to open: its members are told, the channels announce it."""
    if was != Season.Status.DRAFT or season.status != Season.Status.OPEN or season.kind != Season.Kind.LEAGUE:
        return
    params = {"league": notify.league_words(season.league), "season": str(season)}
    link = reverse("season", args=[season.pk])
    key = f"season-open:{season.pk}"
    # the league's members today: an archived member has left the league (league.services.roster)
    current = LeagueMembership.objects.filter(league=season.league, archived_at__isnull=True)
    members = Player.objects.filter(pk__in=current.values("player_id"), user__isnull=False).select_related("user")
    notify.notification_send(
        kind="registration_open",
        recipients=[p.user for p in members],
        league=season.league,
        params=params,
        link=link,
        key=key,
        actor=actor,
    )
    notify.announce(kind="registration_open", league=season.league, params=params, link=link, key=key, actor=actor)


def penalty_issued(*, penalty: Penalty, actor: Actor) -> None:
    """A penalty in the ledger (a ruling's, or one an admin assigned): told to its player."""
    league = penalty.season.league
    params: dict[str, Any] = {
        "league": notify.league_words(league),
        "points": str(penalty.points) if penalty.points else "",
        "sanction": notify.in_languages(lambda: penalty.get_sanction_display()),
        "reason": notify.in_languages(lambda: offence_label(penalty.offence)),
    }
    if penalty.game_id:
        game = penalty.game
        params["game"] = notify.in_languages(lambda: str(game))
    notify.notification_send(
        kind="penalty_issued",
        recipients=[_user(penalty.player)],
        league=league,
        params=params,
        link=reverse("me"),
        key=f"penalty:{penalty.pk}",
        actor=actor,
    )


def match_day_starting(*, game: Game, actor: Actor) -> int:
    """A league game starts soon (league.services.reminders): each of its players, once per match
    day and start time. Returns how many were told now."""
    if game.scheduled_at is None:
        return 0
    league = game.season.league
    division = game.division
    seats = sorted(game.seats.all(), key=lambda s: s.seat)  # prefetched with their players by the scan
    names = names_said(s.player for s in seats)
    key = f"day-starts:{division.pk}:{game.match_day}:{game.scheduled_at.isoformat()}"
    told = 0
    for seat in seats:
        told += len(
            notify.notification_send(
                kind="round_starts",
                recipients=[_user(seat.player)],
                league=league,
                params={
                    "league": notify.league_words(league),
                    "division": {"en": division.name, "cjk": division.name_zh or division.name},
                    "match_day": game.match_day,
                    "table": game.table,
                    "seat": seat.seat,
                    "when": game.scheduled_at.isoformat(),
                    "players": names,
                },
                link=reverse("game", args=[game.pk]),
                key=key,
                actor=actor,
            )
        )
    return told
