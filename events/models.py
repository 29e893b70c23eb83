"""Tournaments: an event of one to three days in a league, its registrations, its rounds with
their clocks, and the results its tables report themselves.

An event's games are league games in a season of the event's own (``Season.kind == "event"``):
match day = round number, so hands, results, rulings, penalties, player histories and ratings
work for them unchanged. What is stored here is only what a tournament adds: who registered and
checked in, when each round's clock ran, and what each table reported and who confirmed it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from kyoku.models import League


class Event(models.Model):
    LEAGUE_PATH = "league"

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class FinalPoints(models.TextChoices):
        CARRY = "carry", _("Carried in full")
        HALF = "half", _("Carried at half")
        RESET = "reset", _("Reset to zero")

    class TimeRule(models.TextChoices):
        FINISH_HAND = "finish_hand", _("Finish the hand in play")
        ONE_MORE = "one_more", _("Finish the hand in play and play one more")

    class TeamScoring(models.TextChoices):
        NONE = "none", _("No teams")
        BEST = "best", _("Best members count")
        ALL = "all", _("All members count")

    class Leftover(models.TextChoices):
        SUBSTITUTES = "substitutes", _("Substitutes fill the last table")
        BYES = "byes", _("Byes")

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="events")
    season = models.OneToOneField("league.Season", on_delete=models.PROTECT, related_name="event")
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"), max_length=60)
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.REGISTRATION)
    capacity = models.PositiveSmallIntegerField(_("places"), default=40)
    rounds = models.PositiveSmallIntegerField(_("qualifying rounds"), default=6)
    round_minutes = models.PositiveSmallIntegerField(_("minutes per round"), default=90)
    seated_by_standings = models.PositiveSmallIntegerField(
        _("last rounds seated by standings"),
        default=0,
        help_text=_("The last qualifying rounds seat the leaders together (table 1: places 1 to 4, …)."),
    )
    cut = models.PositiveSmallIntegerField(
        _("players in the final"), default=4, help_text=_("0: no final; the qualifying ranking is the result.")
    )
    final_points = models.CharField(
        _("points into the final"), max_length=8, choices=FinalPoints.choices, default=FinalPoints.CARRY
    )
    time_rule = models.CharField(
        _("when time runs out"), max_length=12, choices=TimeRule.choices, default=TimeRule.FINISH_HAND
    )
    semi_final_cut = models.PositiveSmallIntegerField(
        _("players in the semi-final"),
        default=0,
        help_text=_("0: no semi-final. The semi-final's top players (as many as the final seats) go on."),
    )
    semi_final_rounds = models.PositiveSmallIntegerField(_("semi-final rounds"), default=1)
    semi_final_points = models.CharField(
        _("points into the semi-final"), max_length=8, choices=FinalPoints.choices, default=FinalPoints.CARRY
    )
    dealer_repeats_after_time = models.BooleanField(_("dealer repeats after time"), default=False)
    tiebreaks = models.JSONField(_("tiebreaks"), default=list, blank=True)
    team_scoring = models.CharField(
        _("team standings"), max_length=8, choices=TeamScoring.choices, default=TeamScoring.NONE
    )
    team_best = models.PositiveSmallIntegerField(_("members counted per team"), default=3)
    leftover = models.CharField(
        _("when players are not a multiple of four"),
        max_length=12,
        choices=Leftover.choices,
        default=Leftover.SUBSTITUTES,
    )
    ema_id = models.CharField(_("EMA tournament id"), max_length=20, blank=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    country = models.CharField(_("country"), max_length=3, blank=True, help_text=_("ISO 3166 code of three letters, e.g. HKG"))
    mers_qualification = models.BooleanField(
        _("players qualified to enter"), default=False, help_text=_("Adds 1 to the MERS weight (EMA ranking rules).")
    )
    # bumped by everything a board shows (a result, a clock change, a seating): boards revalidate on it
    board_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [models.UniqueConstraint(fields=["league", "slug"], name="uniq_event_slug")]

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    LEAGUE_PATH = "event__league"
    OWNER_PATH = "player"

    class Status(models.TextChoices):
        CONFIRMED = "confirmed", _("Confirmed")
        WAITING = "waiting", _("Waiting list")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey("league.Player", on_delete=models.PROTECT, related_name="event_registrations")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.CONFIRMED)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in = models.BooleanField(_("checked in"), default=False)
    substitute = models.BooleanField(_("substitute"), default=False)  # fills a seat; not ranked
    team = models.CharField(_("team"), max_length=60, blank=True)
    ema_number = models.CharField(_("EMA number"), max_length=8, blank=True)
    nationality = models.CharField(_("nationality"), max_length=3, blank=True)  # ISO 3166 alpha-3

    class Meta:
        ordering = ["registered_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["event", "player"], name="uniq_event_player")]


class Round(models.Model):
    LEAGUE_PATH = "event__league"

    class Stage(models.TextChoices):
        QUALIFYING = "qualifying", _("Qualifying")
        SEMI_FINAL = "semi_final", _("Semi-final")
        FINAL = "final", _("Final")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    stage = models.CharField(_("stage"), max_length=12, choices=Stage.choices, default=Stage.QUALIFYING)
    scheduled_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    minutes = models.PositiveSmallIntegerField(_("minutes"))
    # the clock, kept as the moments it changed; the time left is derived (events.clock)
    started_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_seconds = models.PositiveIntegerField(default=0)
    extra_seconds = models.IntegerField(default=0)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="uniq_event_round")]


class TableReport(models.Model):
    """A table's report of its final scores: the state of the table's own result
    (events.services.table_reports is its one state machine). Every version reported is kept
    (``TableReportVersion``, the raw facts), with the seats that agreed with it; this row holds the
    current one. The game's result is recorded when all four seats confirm one version, or when a
    referee or the director enters it (which also ends a dispute)."""

    LEAGUE_PATH = "game__season__league"

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")
        RESOLVED = "resolved", _("Recorded by the desk")

    game = models.OneToOneField("league.Game", on_delete=models.CASCADE, related_name="table_report")
    scores = models.JSONField()
    deposits_left = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    version = models.PositiveIntegerField(default=1)  # the current version's number: a confirmation names it
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    reported_at = models.DateTimeField(auto_now=True)
    confirmed_seats = models.JSONField(default=list)  # seats 0..3 that agree with the current version
    disputed_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    dispute_note = models.TextField(blank=True)
    disputed_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    incident = models.ForeignKey("referee.Incident", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(deposits_left__lte=100), name="report_deposits")]


class TableReportVersion(models.Model):
    """One version of a table's report, as it was reported (never changed but for the seats that
    agree with it): a second, different report is a new version and a dispute, never a
    replacement. ``seat`` is the reporting seat (None: entered by the desk)."""

    LEAGUE_PATH = "report__game__season__league"

    report = models.ForeignKey(TableReport, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    scores = models.JSONField()
    deposits_left = models.PositiveSmallIntegerField(default=0)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    confirmed_seats = models.JSONField(default=list)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    by_label = models.CharField(max_length=80, blank=True)  # a table phone or the system (kyoku.principals)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["report", "number"]
        constraints = [models.UniqueConstraint(fields=["report", "number"], name="uniq_report_version")]


class CutDecision(models.Model):
    """How the director settled a tie at a cut that no tiebreak separates (a playoff hand, a draw of
    lots): the players as they were tied and the order decided. It applies while the same players
    are tied at that cut; a correction that changes the tie asks for a new decision. Kept, never
    edited: a new decision is a new row (the latest for a stage applies)."""

    LEAGUE_PATH = "event__league"

    class Method(models.TextChoices):
        PLAYOFF = "playoff", _("Playoff hand")
        LOTS = "lots", _("Draw of lots")
        OTHER = "other", _("Other (see the note)")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="cut_decisions")
    stage = models.CharField(_("stage"), max_length=12, choices=Round.Stage.choices)
    tied = models.JSONField()  # player ids tied at the cut, sorted
    order = models.JSONField()  # the same ids in the order decided (the first ones go through)
    method = models.CharField(_("how"), max_length=8, choices=Method.choices)
    note = models.CharField(_("note"), max_length=200, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    by_label = models.CharField(max_length=80, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "stage", "-at", "-pk"]


class TableTimeUp(models.Model):
    """What a table was playing when its round's time ran out, stored at that moment (or at the
    first request after it, counting only the hands recorded before it): the last hand follows from
    it and the event's rule, so a phone and the board say the same after any reload."""

    LEAGUE_PATH = "game__season__league"

    game = models.OneToOneField("league.Game", on_delete=models.CASCADE, related_name="time_up")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="times_up")
    at = models.DateTimeField()  # the moment time ran out
    hand_in_play = models.PositiveSmallIntegerField()  # the hand's sequence number (1 = the first)
    hands_after_time = models.PositiveSmallIntegerField()  # 1: that hand is the last; 2: and one more
    recorded_at = models.DateTimeField(auto_now_add=True)
