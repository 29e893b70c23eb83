"""Reads of the statistics: a player's figures in a scope (a season, a league, every league; one
rule system), the league's averages beside them, the series the charts draw, a league's
leaderboards and records. Every figure is read from the stored rows (``PlayerStats``; the charts
from the player's ``PlayerGameStats``), never from the hands."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db.models import Max, Sum
from django.utils.translation import gettext_lazy as _

from kyoku.models import League
from league.models import Game, Player, Season

from .figures import COUNTS, ratio
from .models import PlayerGameStats, PlayerStats, ScopeStats, board_value

SYSTEMS = ("riichi", "zung-jung", "beijing")
SYSTEM_NAMES = {"riichi": _("Riichi"), "zung-jung": _("Zung Jung"), "beijing": _("Beijing"), "": _("Every system")}

# Why a figure is absent (shown as "—" with the reason).
NONE_YET = _("none yet")
NOT_RECORDED = _("the stored records do not say (only imported records carry it)")
NOT_THIS_SYSTEM = _("not a figure of this rule system")


@dataclass(frozen=True)
class Rate:
    key: str
    label: Any
    numerator: str
    denominator: str
    percent: bool = True
    systems: tuple[str, ...] = SYSTEMS
    recorded: bool = False  # the denominator counts only the hands whose record says it
    lower_is_better: bool = False


# The figures, in the order the page shows them (docs/statistics.md defines each in words).
RATES = [
    Rate("win_rate", _("Win rate"), "wins", "hands"),
    Rate("self_draw_share", _("Self-draw share of wins"), "self_draws", "wins"),
    Rate("deal_in_rate", _("Deal-in rate"), "deal_ins", "hands", lower_is_better=True),
    Rate("riichi_rate", _("Riichi rate"), "riichi", "hands", systems=("riichi",)),
    Rate("riichi_win_rate", _("Riichi win rate"), "riichi_wins", "riichi", systems=("riichi",)),
    Rate(
        "riichi_deal_in_rate",
        _("Riichi deal-in rate"),
        "riichi_deal_ins",
        "riichi",
        systems=("riichi",),
        lower_is_better=True,
    ),
    Rate("open_hand_rate", _("Open-hand rate"), "open_hands", "calls_known", systems=("riichi",), recorded=True),
    Rate("draw_tenpai_rate", _("Tenpai at exhaustive draws"), "draws_tenpai", "draws_known", systems=("riichi",)),
    Rate("dealer_keep_rate", _("Dealer keeps"), "dealer_kept", "dealer_hands", systems=("riichi", "beijing")),
    Rate("avg_won_points", _("Average value won (points)"), "won_points", "wins", percent=False),
    Rate("avg_won_han", _("Average han won"), "won_han", "won_priced", percent=False, systems=("riichi",)),
    Rate("avg_won_fu", _("Average fu won"), "won_fu", "won_fu_wins", percent=False, systems=("riichi",)),
    Rate(
        "avg_won_value", _("Average pattern points won"), "won_han", "won_priced", percent=False, systems=("zung-jung",)
    ),
    Rate("avg_won_fan", _("Average fan won"), "won_han", "won_priced", percent=False, systems=("beijing",)),
    Rate(
        "avg_dealt_points",
        _("Average value dealt in (points)"),
        "dealt_points",
        "deal_ins",
        percent=False,
        lower_is_better=True,
    ),
    Rate(
        "avg_dealt_han",
        _("Average han dealt in"),
        "dealt_han",
        "dealt_priced",
        percent=False,
        systems=("riichi",),
        lower_is_better=True,
    ),
    Rate(
        "dora_per_win",
        _("Dora per win"),
        "dora",
        "dora_wins",
        percent=False,
        systems=("riichi",),
        recorded=True,
    ),
    Rate("average_place", _("Average placement"), "place_sum", "games", percent=False, lower_is_better=True),
    Rate("points_per_game", _("Points per game"), "points_sum", "games", percent=False),
]
BY_KEY = {r.key: r for r in RATES}
# the leaderboards: a rate over hands or games, with its minimum
BOARD_RATES = [
    r.key
    for r in RATES
    if r.key
    in (
        "win_rate",
        "deal_in_rate",
        "riichi_rate",
        "riichi_win_rate",
        "self_draw_share",
        "dealer_keep_rate",
        "avg_won_points",
        "average_place",
        "points_per_game",
    )
]
DEFAULT_MIN_HANDS = 100
MIN_HANDS_CHOICES = (0, 20, 50, 100, 200, 500, 1000)
FIELDS = (*COUNTS, "points_sum")


def rate_value(counts: dict[str, Any], rate: Rate, system: str) -> tuple[float | None, Any]:
    """(value, why absent): a rate, or None and the reason."""
    if system and system not in rate.systems:
        return None, NOT_THIS_SYSTEM
    value = ratio(float(counts.get(rate.numerator) or 0), float(counts.get(rate.denominator) or 0))
    if value is None:
        return None, NOT_RECORDED if rate.recorded else NONE_YET
    return value, None


def figures_table(counts: dict[str, Any], system: str, averages: dict[str, Any] | None) -> list[dict[str, Any]]:
    out = []
    for rate in RATES:
        if system and system not in rate.systems:
            continue
        value, why = rate_value(counts, rate, system)
        average = rate_value(averages, rate, system)[0] if averages else None
        out.append(
            {
                "key": rate.key,
                "label": rate.label,
                "value": value,
                "why": why,
                "percent": rate.percent,
                "average": average,
                "numerator": counts.get(rate.numerator) or 0,
                "denominator": counts.get(rate.denominator) or 0,
            }
        )
    return out


def _sum_rows(rows: list[PlayerStats]) -> dict[str, Any]:
    counts: dict[str, Any] = {f: 0 for f in FIELDS}
    counts["points_sum"] = Decimal("0")
    yaku: Counter = Counter()
    biggest = best = worst = None
    first = last = day_wins = 0
    for r in rows:
        for f in FIELDS:
            counts[f] += getattr(r, f)
        yaku.update(r.yaku or {})
        if r.biggest and (biggest is None or r.biggest["points"] > biggest["points"]):
            biggest = r.biggest
        if r.best_game and (best is None or Decimal(r.best_game["points"]) > Decimal(best["points"])):
            best = r.best_game
        if r.worst_game and (worst is None or Decimal(r.worst_game["points"]) < Decimal(worst["points"])):
            worst = r.worst_game
        first, last = max(first, r.first_streak), max(last, r.last_streak)
        day_wins = max(day_wins, r.best_day_wins)
    counts.update(
        yaku=yaku,
        biggest=biggest,
        best_game=best,
        worst_game=worst,
        first_streak=first,
        last_streak=last,
        best_day_wins=day_wins,
    )
    return counts


def player_systems(player: Player) -> list[str]:
    """The rule systems the player has figures in, most hands first."""
    rows = (
        PlayerStats.objects.filter(player=player, season__isnull=True)
        .values("system")
        .annotate(n=Sum("hands") + Sum("games"))
        .order_by("-n", "system")
    )
    return [r["system"] for r in rows]


def player_scopes(player: Player, systems: list[str] | None = None) -> dict[str, Any]:
    """The leagues and seasons the player has figures in (the page's filter); ``systems``:
    ``player_systems`` when the caller has read it already."""
    leagues = list(
        League.objects.filter(
            pk__in=PlayerStats.objects.filter(player=player, season__isnull=True).values("league_id")
        ).order_by("name")
    )
    seasons = list(
        Season.objects.filter(
            pk__in=PlayerStats.objects.filter(player=player, season__isnull=False).values("season_id")
        )
        .select_related("league", "rule_set")
        .order_by("league__name", "-year", "-number")
    )
    return {"leagues": leagues, "seasons": seasons, "systems": player_systems(player) if systems is None else systems}


def player_figures(
    *, player: Player, league: League | None = None, season: Season | None = None, system: str = ""
) -> dict[str, Any]:
    """The player's figures in a scope: one season; one league (its seasons of ``system``); or
    every league the player plays in (``system`` chosen: figures never mix systems). With the
    averages of every player in the same scope (for a season or a league), and the charts' series.

    Cached per version of the leagues involved (``ScopeStats.version``: a new token at every
    player row written in the league, the player's own and those the averages add up)."""
    key = _figures_key(player, league, season, system)
    found = cache.get(key) if key else None
    if found is None:
        found = _player_figures(player=player, league=league, season=season, system=system)
        if key:
            cache.set(key, found, BOARD_CACHE_SECONDS)
    return found


def _figures_key(player: Player, league: League | None, season: Season | None, system: str) -> str | None:
    """The cache key of a player's figures: the scope and the versions of the leagues it reads
    (one league, or every league the player has figures in); None when there is nothing stored."""
    scopes = ScopeStats.objects.filter(season__isnull=True)
    if season is not None or league is not None:
        scopes = scopes.filter(league_id=season.league_id if season is not None else league.pk)  # type: ignore[union-attr]
    else:
        scopes = scopes.filter(
            league_id__in=PlayerStats.objects.filter(player=player, season__isnull=True).values("league_id")
        )
    versions = sorted(scopes.values_list("key", "version"))
    if not versions:
        return None
    digest = hashlib.sha256(repr(versions).encode()).hexdigest()[:32]
    scope = f"{league.pk if league else 0}:{season.pk if season else 0}:{system}"
    return f"stats-player:{player.pk}:{scope}:{digest}"


def _player_figures(*, player: Player, league: League | None, season: Season | None, system: str) -> dict[str, Any]:
    systems: list[str] | None = None
    if season is not None:
        system = season.rule_set.system
        rows = list(PlayerStats.objects.filter(player=player, season=season))
        games = PlayerGameStats.objects.filter(player=player, season=season)
    else:
        systems = player_systems(player)
        system = system if system in SYSTEMS else (systems[0] if systems else "riichi")
        rows_qs = PlayerStats.objects.filter(player=player, season__isnull=True, system=system)
        games = PlayerGameStats.objects.filter(player=player, system=system)
        if league is not None:
            rows_qs = rows_qs.filter(league=league)
            games = games.filter(league=league)
        rows = list(rows_qs)
    counts = _sum_rows(rows)
    averages = None
    if season is not None:
        averages = _sums(ScopeStats.key_of(season.league_id, season.pk, system))
    elif league is not None:
        averages = _sums(ScopeStats.key_of(league.pk, None, system))
    series = list(
        games.order_by("league_id", "order_key").values_list(
            "game_id", "order_key", "place", "points", "hands", "wins", "deal_ins", "riichi"
        )
    )
    return {
        "system": system,
        "counts": counts,
        "table": figures_table(counts, system, averages),
        "yaku": _yaku_rows(counts["yaku"], counts["yaku_wins"], system),
        "charts": charts_data(series, counts),
        "rows": rows,
        "systems": systems,
    }


def _sums(key: str) -> dict[str, Any]:
    """Every player's counts in a scope added up: the scope's stored sums (``ScopeStats``, kept
    up with every player row written), not a sum over the league's players at each request."""
    row = ScopeStats.objects.filter(key=key).values_list(*FIELDS).first()
    return dict(zip(FIELDS, row or [0] * len(FIELDS)))


def _yaku_rows(yaku: Counter, wins: int, system: str) -> list[dict[str, Any]]:
    from .labels import yaku_label

    return [
        {"key": k, "label": yaku_label(system, k), "count": n, "share": ratio(n, wins)}
        for k, n in sorted(yaku.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def charts_data(series: list[tuple], counts: dict[str, Any]) -> dict[str, Any]:
    """The charts' numbers: placement distribution, running total of league points over the
    finished games, and win and deal-in rates over time (cumulative, game by game)."""
    running, total = [], Decimal("0")
    rates = []
    hands = wins = deal_ins = 0
    for _game, _key, place, points, h, w, d, _r in series:
        if place is not None:
            total += points or 0
            running.append(float(total))
        hands, wins, deal_ins = hands + h, wins + w, deal_ins + d
        if hands:
            rates.append((wins / hands, deal_ins / hands))
    return {
        "places": [counts[f"place_{i}"] for i in (1, 2, 3, 4)],
        "running": running,
        "rates": rates,
    }


def league_systems(league: League) -> list[str]:
    return sorted(set(Season.objects.filter(league=league).values_list("rule_set__system", flat=True)))


def leaderboard(
    *, league: League, rate_key: str, season: Season | None = None, system: str = "", min_hands: int = DEFAULT_MIN_HANDS
) -> tuple[Board, str]:
    """Players of the league (one season, or all its seasons of ``system``) with at least
    ``min_hands`` hands (games, for a rate over games), best first, as a sequence read a slice
    at a time (``Board``); and the system it is of."""
    rate = BY_KEY[rate_key]
    if season is not None:
        system = season.rule_set.system
    return Board(league, rate, season, system, min_hands), system


@dataclass(frozen=True)
class BoardRow:
    player_id: int
    value: float
    num: int | Decimal  # a count, or a sum of points
    den: int
    hands: int
    games: int
    name: str = ""
    native_name: str = ""

    @property
    def display_name(self) -> str:  # as a Player names it, for league.names.player_display_name
        return self.name


class Board:
    """A leaderboard as a sequence (``len`` and slices: Django's Paginator and DRF's pagination
    read it as they read a query). The order and the count of a slice are cached per version of
    the league's figures (``ScopeStats.version``, a new token at every player row written, so a
    result shows at once); the players' names are read at each request (a renamed player)."""

    def __init__(self, league: League, rate: Rate, season: Season | None, system: str, min_hands: int) -> None:
        self.league, self.rate, self.season, self.system, self.min_hands = league, rate, season, system, min_hands
        self._version: str | None = None

    def rows(self) -> Any:
        """The board's stored rows (a query, unordered)."""
        rate = self.rate
        rows = PlayerStats.objects.filter(league=self.league, system=self.system)
        rows = rows.filter(season=self.season) if self.season is not None else rows.filter(season__isnull=True)
        if self.system not in rate.systems:
            return rows.none()
        base = "games" if rate.denominator == "games" else "hands"
        return rows.filter(**{f"{base}__gte": self.min_hands, f"{rate.denominator}__gt": 0})

    def _key(self, part: str) -> str | None:
        if self._version is None:
            found = (
                ScopeStats.objects.filter(key=ScopeStats.key_of(self.league.pk, None, self.system))
                .values_list("version", flat=True)
                .first()
            )
            self._version = found or ""
        if not self._version:
            return None  # nothing stored yet: nothing worth caching
        season = self.season.pk if self.season is not None else 0
        scope = f"{self.league.pk}:{season}:{self.system}:{self.rate.key}:{self.min_hands}"
        return f"stats-board:{scope}:{self._version}:{part}"

    def count(self) -> int:
        key = self._key("count")
        found = cache.get(key) if key else None
        if found is None:
            found = self.rows().order_by().count()
            if key:
                cache.set(key, found, BOARD_CACHE_SECONDS)
        return found

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice) -> list[BoardRow]:
        if not isinstance(index, slice) or index.step not in (None, 1):
            raise TypeError("a leaderboard is read a slice at a time")
        start = max(0, index.start or 0)
        stop = index.stop if index.stop is not None else self.count()
        if stop <= start:
            return []
        key = self._key(f"{start}:{stop}")
        found = cache.get(key) if key else None
        if found is None:
            found = self._slice(start, stop)
            if key:
                cache.set(key, found, BOARD_CACHE_SECONDS)
        names = dict(
            (pk, (name, native))
            for pk, name, native in Player.objects.filter(pk__in=[r[0] for r in found]).values_list(
                "pk", "display_name", "native_name"
            )
        )
        rows = []
        for player_id, value, num, den, hands, games in found:
            name, native = names.get(player_id, ("", ""))
            rows.append(BoardRow(player_id, value, num, den, hands, games, name, native))
        return rows

    def _slice(self, start: int, stop: int) -> list[tuple]:
        """The slice's numbers in the board's order, read through the rate's index expression
        (``ps_board_<rate>``): only the columns the board shows, not the wide rows."""
        rate = self.rate
        order = "value" if rate.lower_is_better else "-value"
        rows = (
            self.rows()
            .annotate(value=board_value(rate.numerator, rate.denominator))
            .order_by(order, "-hands", "player__display_name", "player_id")
            .values_list("player_id", "value", rate.numerator, rate.denominator, "hands", "games")
        )
        return [tuple(r) for r in rows[start:stop]]


BOARD_CACHE_SECONDS = 3600  # keyed on the version: a change moves it; this only bounds the memory


def leaderboard_reach(
    *, league: League, rate_key: str, season: Season | None = None, system: str = "", min_hands: int
) -> dict[str, int] | None:
    """For a board that nobody reaches: the most hands (games, for a rate over games) any player
    of the scope has, and the largest of the page's minimums that shows them; None when no player
    has any."""
    board, _system = leaderboard(league=league, rate_key=rate_key, season=season, system=system, min_hands=0)
    base = "games" if BY_KEY[rate_key].denominator == "games" else "hands"
    most = board.rows().order_by().aggregate(m=Max(base))["m"]
    if not most:
        return None
    return {"most": most, "minimum": max(c for c in MIN_HANDS_CHOICES if c <= min(most, min_hands))}


def league_records(*, league: League, season: Season | None = None) -> dict[str, Any]:
    """The league's records: the biggest hand and the most wins in one match day (of a season,
    or of every season), and each rule system's best rates (over its minimum of hands)."""
    rows = PlayerStats.objects.filter(league=league, season__isnull=False)
    if season is not None:
        rows = rows.filter(season=season)
    biggest = (
        rows.filter(biggest_points__isnull=False)
        .select_related("player", "season")
        .order_by("-biggest_points", "player__display_name")[:5]
    )
    day = (
        rows.filter(best_day_wins__gt=0)
        .select_related("player", "season")
        .order_by("-best_day_wins", "player__display_name")[:5]
    )
    games = {
        g.pk: g
        for g in Game.objects.filter(pk__in=[r.biggest["game"] for r in biggest if r.biggest]).select_related(
            "division", "season"
        )
    }
    streak = (
        rows.filter(first_streak__gt=0)
        .select_related("player", "season")
        .order_by("-first_streak", "player__display_name")[:5]
    )
    return {
        "biggest": [
            {"row": r, "game": games.get(int((r.biggest or {}).get("game") or 0)), "hand": r.biggest} for r in biggest
        ],
        "best_day": list(day),
        "first_streak": list(streak),
        "most_hands": rows.aggregate(m=Max("hands"))["m"],
    }
