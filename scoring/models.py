"""Hand-by-hand records: the raw hand record is the fact; its settlement is derived and stored
so pages and standings read it without re-running the engine."""

from django.conf import settings
from django.db import models

from .fields import JSONTextField


class HandRecord(models.Model):
    LEAGUE_PATH = "game__season__league"

    game = models.ForeignKey("league.Game", on_delete=models.CASCADE, related_name="hands")
    sequence = models.PositiveSmallIntegerField()  # 1, 2, ... in play order
    record = models.JSONField()  # contract record without "rules" (the season's rule set applies)
    # derived, written in bulk, read whole: PostgreSQL json rather than jsonb (see scoring.fields)
    settlement = JSONTextField(default=dict)
    scores_after = JSONTextField(default=list)  # running scores
    # Fingerprint of settlement + scores_after as last written (scoring.engine.replay.derived_digest):
    # a season re-settle compares it and rewrites only the hands whose derived data changed.
    # Every writer of the two fields sets it (scoring.services); NULL means "unknown, rewrite".
    derived_digest = models.BigIntegerField(null=True, editable=False)
    # Set on the last hand when the game is finished from its hands: the game's result is then
    # derived from them (scoring.services.game_hands_finish) and follows every correction.
    ends_game = models.BooleanField(default=False)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    entered_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "sequence"]
        constraints = [models.UniqueConstraint(fields=["game", "sequence"], name="uniq_hand_sequence")]

    def __str__(self):
        return f"hand {self.sequence} of {self.game}"
