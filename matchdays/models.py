"""Match days: the day a division meets, who comes, who substitutes, and how they are seated."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models import Division, Game, Player, Season


class MatchDay(models.Model):
    LEAGUE_PATH = "season__league"

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        SEATED = "seated", _("Seating drafted")
        PUBLISHED = "published", _("Published")

    class Leftover(models.TextChoices):
        BYE = "bye", _("Byes")
        SUBSTITUTES = "substitutes", _("Table filled by substitutes")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="match_days")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="match_days")
    number = models.PositiveSmallIntegerField(_("match day"))
    date = models.DateField(_("date"))
    start_time = models.TimeField(_("start time"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.PLANNED)
    leftover = models.CharField(
        _("players beyond full tables"), max_length=12, choices=Leftover.choices, default=Leftover.BYE
    )

    class Meta:
        ordering = ["season", "division", "number"]
        constraints = [models.UniqueConstraint(fields=["division", "number"], name="uniq_matchday_number")]

    def __str__(self):
        return f"{self.division} · day {self.number}"


class Attendance(models.Model):
    LEAGUE_PATH = "match_day__season__league"
    OWNER_PATH = "player"

    class Status(models.TextChoices):
        ATTENDING = "attending", _("Attending")
        ABSENT = "absent", _("Absent")
        WITHDRAWN = "withdrawn", _("Withdrawn late")

    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="attendance")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="attendance")
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.ATTENDING)
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    marked_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match_day", "player"], name="uniq_attendance")]


class Reserve(models.Model):
    """A player on the season's reserve list, who may substitute for a late withdrawal."""

    LEAGUE_PATH = "season__league"
    OWNER_PATH = "player"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="reserves")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="reserve_for")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["season", "order", "pk"]
        constraints = [models.UniqueConstraint(fields=["season", "player"], name="uniq_reserve")]


class Substitution(models.Model):
    LEAGUE_PATH = "match_day__season__league"

    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="substitutions")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="substitutions")
    seat = models.PositiveSmallIntegerField()
    player_out = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_in = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    made_at = models.DateTimeField(auto_now_add=True)


class SeatingConstraint(models.Model):
    """A season's fixed wishes: a player always at one table, or two players who must not meet."""

    LEAGUE_PATH = "season__league"

    class Kind(models.TextChoices):
        TABLE = "table", _("Must sit at table")
        APART = "apart", _("Must not meet")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="seating_constraints")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Player, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    table = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(kind="table", table__isnull=False, table__gte=1, other__isnull=True)
                    | models.Q(kind="apart", other__isnull=False, table__isnull=True)
                ),
                name="seating_constraint_shape",
            ),
        ]


class SeatingPlan(models.Model):
    """The seating of one match day: tables of player ids in seat order (E, S, W, N; null = a
    substitute's seat), byes, and the figures shown to the reviewer."""

    LEAGUE_PATH = "match_day__season__league"

    match_day = models.OneToOneField(MatchDay, on_delete=models.CASCADE, related_name="seating")
    tables = models.JSONField(default=list)
    byes = models.JSONField(default=list)
    figures = models.JSONField(default=dict)  # repeats, consecutive_repeats, wind_imbalance, unmet
    seed = models.PositiveIntegerField(default=0)
    revision = models.PositiveIntegerField(default=1)
    published_revision = models.PositiveIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    @property
    def is_current(self):
        return self.published_revision == self.revision


class SeatingSchedule(models.Model):
    """A season's seating planned at once: the division's match days from ``numbers[0]`` on,
    seated together (the generator's whole-season figures), given the days played before them.
    Each match day's seating is taken from the division's latest schedule while play follows it;
    a departure (other attendance, a hand swap, a substitute, a constraint or seed changed, a
    match day added) plans the remaining days again in a new row, so every plan stays on record
    and any of them can be recomputed from its inputs (players, history, seed, constraints)."""

    LEAGUE_PATH = "division__season__league"

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="seating_schedules")
    numbers = models.JSONField(default=list)  # match-day numbers planned, in order
    players = models.JSONField(default=list)  # player ids attending, as planned
    history = models.JSONField(default=list)  # [[number, [[ids of a table], …]], …] played before
    days = models.JSONField(default=list)  # per planned day: {"tables": [[E, S, W, N]…], "byes": […]}
    seed = models.PositiveIntegerField(default=0)
    leftover = models.CharField(max_length=12, choices=MatchDay.Leftover.choices, default=MatchDay.Leftover.BYE)
    constraints = models.JSONField(default=dict)  # {"fixed": {player: table}, "apart": [[a, b], …]}
    figures = models.JSONField(default=dict)  # whole season, history included
    reason = models.CharField(max_length=40, blank=True)  # why this plan was made
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["division", "pk"]


class ReplacedGame(models.Model):
    """A game a new seating replaced before it was played (the match day published again with its
    table changed, or a round seated again). The game is gone, but its address was sent to its
    players: its page still answers, saying what replaced it and where its players play now."""

    LEAGUE_PATH = "division__season__league"

    game_id = models.PositiveBigIntegerField(unique=True)  # the id of the game removed (no game has it now)
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="+")
    match_day = models.PositiveSmallIntegerField()  # the match day's number (a tournament's round)
    table = models.PositiveSmallIntegerField()
    players = models.JSONField(default=list)  # the player ids it seated, East first
    scheduled_at = models.DateTimeField(null=True, blank=True)
    replaced_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-replaced_at", "-pk"]
