"""The statistics pages (public, like the results they come from: docs/privacy.md): a player's
figures, a league's leaderboards and records; CSV and JSON downloads."""

from __future__ import annotations

import csv
from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from kyoku.access import PUBLIC, access, object_for_request
from kyoku.csv_cells import csv_row
from kyoku.models import League
from league.models import Player, Season
from league.names import player_display_name

from . import charts, selectors
from .achievements import achievements_of

PER_PAGE = 50


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None and value != "" else None
    except (TypeError, ValueError):
        return None


def scope_of(request: HttpRequest, player: Player | None = None, league: League | None = None) -> dict[str, Any]:
    """The scope a request asks for: ``?league=<slug>``, ``?season=<id>``, ``?system=``; unknown
    values fall back to the wider scope (every league, every season)."""
    if league is None and request.GET.get("league"):
        league = League.objects.filter(slug=str(request.GET["league"])[:50]).first()
    season = None
    season_id = _int(request.GET.get("season"))
    if season_id is not None:
        seasons = Season.objects.select_related("rule_set", "league")
        season = seasons.filter(pk=season_id, **({"league": league} if league else {})).first()
    system = request.GET.get("system") or ""
    return {"league": league, "season": season, "system": system if system in selectors.SYSTEMS else ""}


def _figures(player: Player, scope: dict[str, Any]) -> dict[str, Any]:
    return selectors.player_figures(
        player=player, league=scope["league"], season=scope["season"], system=scope["system"]
    )


@access("player", GET=PUBLIC)
def player_statistics(request: HttpRequest, player_id: int) -> HttpResponse:
    player = object_for_request(request, Player, pk=player_id)
    scope = scope_of(request, player)
    figures = _figures(player, scope)
    data = figures["charts"]
    places = [_("1st"), _("2nd"), _("3rd"), _("4th")]
    context = {
        "player": player,
        "scope": scope,
        "scopes": selectors.player_scopes(player, figures["systems"]),
        "figures": figures,
        "system_name": selectors.SYSTEM_NAMES.get(figures["system"], figures["system"]),
        "places_chart": charts.bars(data["places"], [str(p) for p in places]),
        "running_chart": charts.line(data["running"]),
        "rates_chart": charts.rates(data["rates"]),
        "yaku_top": figures["yaku"][:20],
        "yaku_max": max((y["count"] for y in figures["yaku"]), default=1),
        "system_names": selectors.SYSTEM_NAMES,
        "achievements": achievements_of(figures["counts"], figures["system"]),
    }
    context["achievements_reached"] = sum(1 for a in context["achievements"] if a["reached"])
    return render(request, "stats/player.html", context)


PLAYER_FIELDS = ["figure", "value", "numerator", "denominator", "league_average"]


@access("player", GET=PUBLIC)
def player_statistics_export(request: HttpRequest, player_id: int, fmt: str) -> HttpResponse:
    player = object_for_request(request, Player, pk=player_id)
    figures = _figures(player, scope_of(request, player))
    rows = [
        {
            "figure": f["key"],
            "value": None if f["value"] is None else round(f["value"], 4),
            "numerator": f["numerator"],
            "denominator": f["denominator"],
            "league_average": None if f["average"] is None else round(f["average"], 4),
        }
        for f in figures["table"]
    ]
    return _respond(rows, PLAYER_FIELDS, f"statistics-player-{player.pk}", fmt)


def board_of(request: HttpRequest, league: League) -> dict[str, Any]:
    scope = scope_of(request, league=league)
    systems = selectors.league_systems(league)
    system = scope["system"] or (systems[0] if systems else "riichi")
    asked = request.GET.get("rate") or ""
    rate = asked if asked in selectors.BOARD_RATES else "win_rate"
    minimum = _int(request.GET.get("min"))
    minimum = minimum if minimum is not None and 0 <= minimum <= 100_000 else selectors.DEFAULT_MIN_HANDS
    rows, system = selectors.leaderboard(
        league=league, rate_key=rate, season=scope["season"], system=system, min_hands=minimum
    )
    return {
        "scope": scope,
        "system": system,
        "systems": systems,
        "rate": selectors.BY_KEY[rate],
        "min": minimum,
        "rows": rows,
    }


@access("league", GET=PUBLIC)
def league_leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    league = object_for_request(request, League, slug=slug)
    board = board_of(request, league)
    page = Paginator(board["rows"], PER_PAGE).get_page(request.GET.get("page"))
    rates = [selectors.BY_KEY[k] for k in selectors.BOARD_RATES]
    # nobody reaches the minimum: say how far the players are, and offer the minimum that shows them
    reach = (
        selectors.leaderboard_reach(
            league=league,
            rate_key=board["rate"].key,
            season=board["scope"]["season"],
            system=board["system"],
            min_hands=board["min"],
        )
        if not page.object_list and board["min"] > 0
        else None
    )
    return render(
        request,
        "stats/leaderboard.html",
        {
            "league": league,
            "board": board,
            "page": page,
            "rates": rates,
            "seasons": Season.objects.filter(league=league).order_by("-year", "-number"),
            "min_choices": selectors.MIN_HANDS_CHOICES,
            "system_names": selectors.SYSTEM_NAMES,
            "over_games": board["rate"].denominator == "games",
            "reach": reach,
        },
    )


BOARD_FIELDS = ["rank", "player", "value", "numerator", "denominator", "hands", "games"]


@access("league", GET=PUBLIC)
def league_leaderboard_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    league = object_for_request(request, League, slug=slug)
    board = board_of(request, league)
    rate = board["rate"]
    rows = [
        {
            "rank": i,
            "player": player_display_name(r),  # the reader's language's one name (league.names)
            "value": round(r.value, 4),
            "numerator": r.num,
            "denominator": r.den,
            "hands": r.hands,
            "games": r.games,
        }
        for i, r in enumerate(board["rows"][:1000], start=1)
    ]
    return _respond(rows, BOARD_FIELDS, f"leaderboard-{league.slug}-{rate.key}", fmt)


@access("league", GET=PUBLIC)
def league_records(request: HttpRequest, slug: str) -> HttpResponse:
    league = object_for_request(request, League, slug=slug)
    scope = scope_of(request, league=league)
    return render(
        request,
        "stats/records.html",
        {
            "league": league,
            "scope": scope,
            "records": selectors.league_records(league=league, season=scope["season"]),
            "seasons": Season.objects.filter(league=league).order_by("-year", "-number"),
        },
    )


def _respond(rows: list[dict], fields: list[str], name: str, fmt: str) -> HttpResponse:
    if fmt == "json":
        response: HttpResponse = JsonResponse({"rows": rows}, json_dumps_params={"ensure_ascii": False})
    elif fmt == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response.write("\ufeff")
        writer = csv.DictWriter(response, fieldnames=fields)
        writer.writeheader()
        writer.writerows(csv_row(row) for row in rows)
    else:
        raise Http404
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response
