"""Ratings across seasons: derived state only, rebuilt from the league's results by
ratings.services (the results stay the raw facts).

``RatingEvent`` is one player's rating change in one game (before and after, so every number
can be checked and a chart over time is one query); ``PlayerRating`` is the latest state per
player and league (the table page's rows)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from kyoku.models import League
from league.models import Game, Player


class PlayerRating(models.Model):
    LEAGUE_PATH = "league"
    OWNER_PATH = "player"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField(_("skill estimate"))
    sigma = models.FloatField(_("uncertainty"))
    ordinal = models.FloatField(_("rating"), db_index=True)  # mu - 3 sigma, the figure shown
    games = models.PositiveIntegerField(_("rated games"), default=0)
    last_game = models.ForeignKey(Game, null=True, on_delete=models.SET_NULL, related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["league", "-ordinal", "player_id"]
        constraints = [models.UniqueConstraint(fields=["league", "player"], name="uniq_player_rating")]

    def __str__(self):
        return f"{self.player} · {self.ordinal:.2f} ({self.league})"


class RatingEvent(models.Model):
    LEAGUE_PATH = "league"
    OWNER_PATH = "player"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="rating_events")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_events")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_events")
    # The stable order games are rated in: season (year, number), match day, table, game id,
    # as one sortable string (see services.order_key).
    order_key = models.CharField(max_length=40)
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_before = models.FloatField()
    ordinal = models.FloatField()  # after the game

    class Meta:
        ordering = ["league", "order_key", "player_id"]
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="uniq_rating_event")]
        indexes = [
            models.Index(fields=["league", "order_key"], name="rating_event_league_key"),
            models.Index(fields=["player", "league", "order_key"], name="rating_event_player_key"),
        ]

    def __str__(self):
        return f"{self.player} in game {self.game_id}: {self.ordinal_before:.2f} → {self.ordinal:.2f}"

    @property
    def change(self) -> float:
        return self.ordinal - self.ordinal_before
