"""Statistics: what a hand record carries beyond its settlement (kept at import, a raw fact), and
the figures derived from the hands and results (rebuilt by ``manage.py stats_recompute``,
kept up incrementally in the transaction of every change; docs/statistics.md).

``HandDetail``: the yaku, dora, calls and riichi turns an imported record states for one hand.
``PlayerGameStats``: one player's counts in one game (the hands they sat in, their result).
``PlayerStats``: a player's counts summed over one season, or over one league's seasons of one
rule system (``season`` empty): the rows the pages, leaderboards and records read.
``ScopeStats``: every player's ``PlayerStats`` of one scope added up (the league's averages
beside a player's figures), moved by the difference of each row written."""

from __future__ import annotations

import uuid
from typing import Any

from django.db import models
from django.db.models import F, FloatField, Func, Q
from django.db.models.functions import Cast

from kyoku.models import League
from league.models import Game, Player, Season
from scoring.models import HandRecord


class HandDetail(models.Model):
    """Raw facts of one hand from its source record (an imported Tenhou record): ``winners``
    ``[{"seat", "yaku": [key], "dora": n}]``, ``open`` (the seats that called a tile),
    ``riichi_turns`` ``{seat: n}`` (riichi declared on the player's n-th discard)."""

    LEAGUE_PATH = "hand__game__season__league"

    hand = models.OneToOneField(HandRecord, on_delete=models.CASCADE, primary_key=True, related_name="detail")
    source = models.CharField(max_length=16)  # tenhou
    facts = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"details of {self.hand}"


class _Counts(models.Model):
    """The counts (``stats.figures.COUNTS``), one column each."""

    hands = models.IntegerField(default=0)
    wins = models.IntegerField(default=0)
    self_draws = models.IntegerField(default=0)
    deal_ins = models.IntegerField(default=0)
    riichi = models.IntegerField(default=0)
    riichi_wins = models.IntegerField(default=0)
    riichi_deal_ins = models.IntegerField(default=0)
    calls_known = models.IntegerField(default=0)
    open_hands = models.IntegerField(default=0)
    draws_known = models.IntegerField(default=0)
    draws_tenpai = models.IntegerField(default=0)
    dealer_hands = models.IntegerField(default=0)
    dealer_kept = models.IntegerField(default=0)
    won_points = models.IntegerField(default=0)
    won_priced = models.IntegerField(default=0)
    won_han = models.IntegerField(default=0)
    won_fu_wins = models.IntegerField(default=0)
    won_fu = models.IntegerField(default=0)
    yakuman_wins = models.IntegerField(default=0)
    dealt_points = models.IntegerField(default=0)
    dealt_priced = models.IntegerField(default=0)
    dealt_han = models.IntegerField(default=0)
    yaku_wins = models.IntegerField(default=0)
    dora_wins = models.IntegerField(default=0)
    dora = models.IntegerField(default=0)
    games = models.IntegerField(default=0)
    place_1 = models.IntegerField(default=0)
    place_2 = models.IntegerField(default=0)
    place_3 = models.IntegerField(default=0)
    place_4 = models.IntegerField(default=0)
    place_sum = models.IntegerField(default=0)

    class Meta:
        abstract = True


class PlayerGameStats(_Counts):
    LEAGUE_PATH = "league"
    OWNER_PATH = "player"

    # no index of their own for the game and the player: the unique (game, player) and the
    # (player, …) indexes lead with them, and every index is written at each result
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="player_stats", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="game_stats", db_index=False)
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    system = models.CharField(max_length=16)
    order_key = models.CharField(max_length=40)  # season, match day, table, game: the league's order
    match_day = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(null=True)
    raw_score = models.IntegerField(null=True)
    points = models.DecimalField(max_digits=7, decimal_places=1, null=True)
    yaku = models.JSONField(default=dict)  # key → wins with it
    biggest = models.JSONField(null=True)  # the game's biggest win of the player

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="uniq_player_game_stats")]
        indexes = [
            models.Index(fields=["player", "season", "order_key"], name="pgs_player_season"),
            models.Index(fields=["player", "league", "system", "order_key"], name="pgs_player_league"),
        ]


# The leaderboards' rates (stats.selectors.BOARD_RATES): numerator, denominator. Each has an index
# on its value, so a board reads its first page in order instead of sorting every player.
BOARD_RATIOS = {
    "win_rate": ("wins", "hands"),
    "deal_in_rate": ("deal_ins", "hands"),
    "riichi_rate": ("riichi", "hands"),
    "riichi_win_rate": ("riichi_wins", "riichi"),
    "self_draw_share": ("self_draws", "wins"),
    "dealer_keep_rate": ("dealer_kept", "dealer_hands"),
    "avg_won_points": ("won_points", "wins"),
    "average_place": ("place_sum", "games"),
    "points_per_game": ("points_sum", "games"),
}


class ZeroAsNull(Func):
    """``NULLIF(x, 0)`` with the 0 in the SQL text: a query then writes the expression exactly
    as the index does (a parameter in its place would not match the index's)."""

    template = "NULLIF(%(expressions)s, 0)"
    arity = 1


def board_value(numerator: str, denominator: str) -> Any:
    """A rate as the leaderboard orders it: the index's expression and the query's are this one
    (NULL over nothing: PostgreSQL computes an index's expression for every row)."""
    return Cast(F(numerator), FloatField()) / ZeroAsNull(Cast(F(denominator), FloatField()))


class PlayerStats(_Counts):
    LEAGUE_PATH = "league"
    OWNER_PATH = "player"

    # no index of their own: ``ps_player``, the boards' indexes and ``ps_season_biggest`` lead
    # with them, and each of a row's indexes is written again at every result (its counts move)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="stats", db_index=False)
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+", db_index=False)
    season = models.ForeignKey(  # None: the league
        Season, null=True, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    system = models.CharField(max_length=16)
    points_sum = models.DecimalField(max_digits=10, decimal_places=1, default=0)
    yaku = models.JSONField(default=dict)
    biggest = models.JSONField(null=True)  # {"points", "game", "sequence", "han", "fu", "yakuman"}
    biggest_points = models.IntegerField(null=True)  # for the records page's index
    best_game = models.JSONField(null=True)  # {"game", "points", "raw_score", "place"}
    worst_game = models.JSONField(null=True)
    first_streak = models.PositiveIntegerField(default=0)
    last_streak = models.PositiveIntegerField(default=0)
    best_day_wins = models.PositiveIntegerField(default=0)  # most wins in one match day (a season row)
    best_day = models.JSONField(null=True)  # {"season", "match_day"}
    # Where the row's games end, so a game later than all of them is added to the row without
    # reading its games again (stats.services.aggregate_append): the last game's order key ("" for
    # a row written before these were kept: it is read in full at its next change), the open runs
    # of first and last places, the last match day and the player's wins on it.
    last_key = models.CharField(max_length=40, default="", blank=True)
    first_run = models.PositiveIntegerField(default=0)
    last_run = models.PositiveIntegerField(default=0)
    last_day = models.JSONField(null=True)  # {"season", "match_day"}
    last_day_wins = models.PositiveIntegerField(default=0)
    # The row's figures before its latest game (``aggregate`` of all its games but the last; {}
    # when it holds one game): the next hand of a game in progress, or a correction of the
    # player's latest result, replaces that game without reading the player's games again.
    # Null: not kept (a row written before it was; read in full at its next change).
    before_last = models.JSONField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "season"], condition=Q(season__isnull=False), name="uniq_player_season_stats"
            ),
            models.UniqueConstraint(
                fields=["player", "league", "system"],
                condition=Q(season__isnull=True),
                name="uniq_player_league_stats",
            ),
        ]
        indexes = [
            models.Index(fields=["season", "biggest_points"], name="ps_season_biggest"),
            models.Index(fields=["season", "best_day_wins"], name="ps_season_day"),
            models.Index(fields=["player", "league"], name="ps_player"),
            *(
                models.Index(F("league"), F("season"), F("system"), board_value(n, d), name=f"ps_board_{key}"[:30])
                for key, (n, d) in BOARD_RATIOS.items()
            ),
        ]


def version_new() -> str:
    return uuid.uuid4().hex


class ScopeStats(_Counts):
    """The sum of every ``PlayerStats`` row of one scope: a season (``season``), or a league's
    seasons of one rule system (``season`` empty). ``key`` names the scope once
    (``league:season:system``, season 0 for the league's row) so a writer can create it
    without a race. Kept up by the difference of each player row written, in the same
    transaction (stats.services), rebuilt by the full recompute."""

    LEAGUE_PATH = "league"

    key = models.CharField(max_length=48, unique=True)
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, null=True, on_delete=models.CASCADE, related_name="+")
    system = models.CharField(max_length=16)
    points_sum = models.DecimalField(max_digits=14, decimal_places=1, default=0)
    # The league row's (season empty) version: a new random token at every write of a player row
    # of the league in this system, and at a rebuild (a counter would start again after one and
    # meet cached answers of its old values). Cached leaderboards key on it.
    version = models.CharField(max_length=32, default=version_new)

    @staticmethod
    def key_of(league_id: int, season_id: int | None, system: str) -> str:
        return f"{league_id}:{season_id or 0}:{system}"
