"""Incidents (the raw timeline a referee logs), the rulings derived from them, appeals,
and the league's versioned penalty catalogue. The penalty ledger is ``league.Penalty``."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PenaltyCatalogue(models.Model):
    """One immutable version of a league's offence → sanction table (see referee.engine.penalties)."""

    LEAGUE_PATH = "league"

    league = models.ForeignKey("kyoku.League", on_delete=models.CASCADE, related_name="penalty_catalogues")
    version = models.PositiveIntegerField(default=1)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["league", "-version"]
        constraints = [models.UniqueConstraint(fields=["league", "version"], name="uniq_catalogue_version")]

    def __str__(self):
        return f"{self.league} penalties v{self.version}"


class Incident(models.Model):
    LEAGUE_PATH = "game__season__league"
    OWNERS_PATH = "game__seats__player"  # kyoku.authz.owns: the players seated at the game

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RULED = "ruled", _("Ruled")
        APPEALED = "appealed", _("Appealed")
        CLOSED = "closed", _("Closed")

    game = models.ForeignKey("league.Game", on_delete=models.PROTECT, related_name="incidents")
    hand_number = models.PositiveSmallIntegerField(_("hand"), null=True, blank=True)
    dealer = models.PositiveSmallIntegerField(_("dealer seat"), default=0)
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    occurred_at = models.DateTimeField(_("time"), null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=40)
    events = models.JSONField(_("timeline"), default=list)
    description = models.TextField(_("description"), blank=True)
    private_notes = models.TextField(_("private notes"), blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Incident #{self.pk} ({self.kind}) in {self.game}"


class Ruling(models.Model):
    """The engine's output for an incident, stored with the versions it ran under, and the
    referee's decision. Never edited after it is decided: an appeal makes a new ruling."""

    LEAGUE_PATH = "incident__game__season__league"
    OWNERS_PATH = "incident__game__seats__player"  # kyoku.authz.owns: the players concerned (services.player_concerned)

    class Decision(models.TextChoices):
        ACCEPTED = "accepted", _("Accepted as proposed")
        OVERRIDDEN = "overridden", _("Overridden")

    incident = models.ForeignKey(Incident, on_delete=models.PROTECT, related_name="rulings")
    engine_version = models.CharField(max_length=20)
    rule_set = models.ForeignKey("league.RuleSet", on_delete=models.PROTECT, related_name="+")
    rules = models.JSONField()  # the exact rules record the engine ran with (incl. reaction_time_ms)
    proposed = models.JSONField()  # the engine's ruling
    decision = models.CharField(max_length=12, choices=Decision.choices)
    override_reason = models.TextField(blank=True)
    final = models.JSONField()  # what stands: proposed, or the referee's override
    referee = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    decided_at = models.DateTimeField(auto_now_add=True)
    appeal_of = models.ForeignKey("Appeal", null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["-decided_at", "-id"]


class Appeal(models.Model):
    LEAGUE_PATH = "ruling__incident__game__season__league"
    OWNER_PATH = "player"

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        UPHELD = "upheld", _("Ruling upheld")
        REVERSED = "reversed", _("Ruling changed")

    ruling = models.ForeignKey(Ruling, on_delete=models.PROTECT, related_name="appeals")
    player = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="appeals")
    reason = models.TextField(_("reason"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    submitted_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)
