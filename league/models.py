"""League data: the raw facts (players, rule sets, seasons, games, results) and the
stored derivations (seat results, standings) that services recompute from them."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy as _

from kyoku.models import League
from kyoku.uploads import evidence_upload_to, get_private_storage

SEATS = (0, 1, 2, 3)
SEAT_NAMES = (_("East"), _("South"), _("West"), _("North"))


class NameOrder(models.TextChoices):
    FAMILY_FIRST = "family_first", _("family name first")
    GIVEN_FIRST = "given_first", _("given name first")


class Player(models.Model):
    display_name = models.CharField(_("display name"), max_length=80)
    native_name = models.CharField(_("name in native script"), max_length=80, blank=True)
    # the name in its parts as the person writes it (league.names; the EMA's file takes them apart)
    family_name = models.CharField(_("family name"), max_length=80, blank=True)
    given_name = models.CharField(_("given name"), max_length=80, blank=True)
    name_order = models.CharField(
        _("name order"), max_length=12, choices=NameOrder.choices, default=NameOrder.GIVEN_FIRST
    )
    # Blank: the parts are a proposal (league.names) nobody has checked. Set when an admin confirms
    # the split (league.services.players); cleared when the name changes and its parts do not.
    name_confirmed_at = models.DateTimeField(_("name split confirmed"), null=True, blank=True, editable=False)
    name_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        editable=False,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("name split confirmed by"),
    )
    membership_number = models.CharField(_("membership number"), max_length=20, unique=True)
    tenhou_id = models.CharField(_("Tenhou ID"), max_length=40, blank=True)
    mahjong_soul_id = models.CharField(_("Mahjong Soul ID"), max_length=40, blank=True)
    active = models.BooleanField(_("active"), default=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    # a duplicate merged into another player (league.services.merge): kept as a tombstone so its
    # old links lead to the player it became; nothing else points at it any more
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, editable=False, on_delete=models.PROTECT, related_name="merged_from"
    )

    class Meta:
        ordering = ["display_name"]

    # the names' normal form (kyoku.text): field → (max length, required)
    NAME_FIELDS = {
        "display_name": (80, True),
        "native_name": (80, False),
        "family_name": (80, False),
        "given_name": (80, False),
        "tenhou_id": (40, False),
        "mahjong_soul_id": (40, False),
    }

    def __str__(self):
        return f"{self.display_name} ({self.native_name})" if self.native_name else self.display_name

    def names_clean(self) -> None:
        """Each name in its normal form, or ValidationError naming the first field refused (a
        control, bidi or invisible character). Every save passes here: the admin's form (through
        ``clean``), an import, a command."""
        from kyoku.text import name_clean

        for field, (max_length, required) in self.NAME_FIELDS.items():
            setattr(
                self, field, name_clean(getattr(self, field), field=field, max_length=max_length, required=required)
            )

    def clean(self):
        super().clean()
        self.names_clean()

    def save(self, *args, **kwargs):
        self.names_clean()
        super().save(*args, **kwargs)


class RuleSet(models.Model):
    """One immutable version of a named rule set. Revising makes a new row (version + 1),
    so a season keeps the exact settings its results were computed under."""

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField()
    version = models.PositiveIntegerField(default=1)
    system = models.CharField(_("rule system"), max_length=16)  # riichi | zung-jung | beijing
    preset = models.CharField(_("preset"), max_length=32)
    overrides = models.JSONField(_("overrides"), default=dict, blank=True)
    options = models.JSONField(_("resolved options"), default=dict)  # preset + overrides, validated
    is_template = models.BooleanField(_("preset template"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["slug", "-version"]
        constraints = [models.UniqueConstraint(fields=["slug", "version"], name="uniq_ruleset_version")]

    def __str__(self):
        return f"{self.name} v{self.version}"

    @property
    def spec(self) -> dict:
        """The ``rules`` value for an engine record."""
        return {"preset": self.preset, **self.overrides}


class Season(models.Model):
    SEASON_PATH = ""  # kyoku.audit: a season's audit rows carry its own id
    LEAGUE_PATH = "league"

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    class Kind(models.TextChoices):
        LEAGUE = "league", _("League season")
        EVENT = "event", _("Tournament")  # the games of one event (events.Event), beside the seasons

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="seasons")
    # an event's games live in a season of their own, so results, hands, rulings, penalties,
    # histories and ratings work for them as for any game; it is numbered by the quarter it falls
    # in (for rating order) and is not one of the league's numbered seasons
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.LEAGUE)
    # what an event's season is called wherever a season is named (a player's history, a game):
    # the event's name, not a "2026 S4" the league never played
    label = models.CharField(_("name"), max_length=120, blank=True)
    year = models.PositiveSmallIntegerField(_("year"), validators=[MinValueValidator(2000)])
    number = models.PositiveSmallIntegerField(
        _("season number"), validators=[MinValueValidator(1), MaxValueValidator(4)]
    )
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.DRAFT)
    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="seasons")
    promoted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-year", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "year", "number"], condition=Q(kind="league"), name="uniq_season"
            ),
            models.CheckConstraint(condition=Q(number__gte=1, number__lte=4), name="season_number_1_4"),
        ]

    def __str__(self):
        return self.label or f"{self.year} S{self.number}"

    @property
    def ordinal(self) -> int:
        """Comparable position in time: 2025 S4 < 2026 S1."""
        return self.year * 4 + self.number - 1


class Division(models.Model):
    LEAGUE_PATH = "season__league"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    code = models.CharField(_("code"), max_length=4)  # A, B, ...
    name = models.CharField(_("name"), max_length=40)
    name_zh = models.CharField(_("Chinese name"), max_length=40, blank=True)  # 甲組, 乙組
    order = models.PositiveSmallIntegerField(default=0)  # 0 = top division
    # bumped by every standings write (league.services): ETags and cached renderings key on it
    standings_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["season", "order"]
        constraints = [models.UniqueConstraint(fields=["season", "code"], name="uniq_division_code")]

    def __str__(self):
        return f"{self.season} {self.display_name}"

    @property
    def display_name(self) -> str:
        """The division's name in the active language: 甲組 on a Chinese page and on a Japanese one
        (the league's own kanji read as they are written), the English name otherwise."""
        from django.utils.translation import get_language

        cjk = (get_language() or "").lower().startswith(("zh", "ja"))
        return self.name_zh if cjk and self.name_zh else self.name


class QualificationTier(models.Model):
    """A category on which a division admits players (seed 003: 第一類, 第一A類 …)."""

    LEAGUE_PATH = "league"

    class Validity(models.TextChoices):
        YEARLY = "yearly", _("Yearly (to the end of that year's 4th season)")
        SEASON = "season", _("One season")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="tiers")
    code = models.CharField(_("code"), max_length=8)
    description = models.CharField(_("description"), max_length=200)
    description_zh = models.CharField(_("Chinese description"), max_length=200, blank=True)
    division_code = models.CharField(_("admits to division"), max_length=4, default="A")
    effective_year = models.PositiveSmallIntegerField(_("effective from year"))
    effective_number = models.PositiveSmallIntegerField(_("effective from season"), default=1)
    validity = models.CharField(_("validity"), max_length=8, choices=Validity.choices)
    # Alternatives of account evidence (any one suffices) and year-wide conditions; validated by
    # league.qualification.validate_requirements.
    requirements = models.JSONField(_("evidence requirements"), default=dict, blank=True)
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["league", "code"]
        constraints = [models.UniqueConstraint(fields=["league", "code"], name="uniq_tier_code")]

    def __str__(self):
        return f"{self.code}: {self.display_description}"

    @property
    def display_description(self) -> str:
        """The tier's description in the active language (description_zh on a Chinese page)."""
        from django.utils.translation import get_language

        zh = (get_language() or "").lower().startswith("zh")
        return self.description_zh if zh and self.description_zh else self.description

    def clean(self):
        from .qualification import validate_requirements

        validate_requirements(self.requirements)


class QualificationApplication(models.Model):
    LEAGUE_PATH = "season__league"
    OWNER_PATH = "player"

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        APPROVED = "approved", _("Approved")
        REJECTED = "rejected", _("Rejected")

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="applications")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="applications")
    tier = models.ForeignKey(QualificationTier, on_delete=models.PROTECT, related_name="applications")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    platform = models.CharField(_("platform"), max_length=16, blank=True)  # tenhou | mahjongsoul | league
    account_id = models.CharField(_("account"), max_length=40, blank=True)
    rank = models.CharField(_("rank"), max_length=20, blank=True)
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True)
    games_in_year = models.PositiveIntegerField(_("games in the year"), null=True, blank=True)
    room = models.CharField(_("room"), max_length=20, blank=True)
    evidence_year = models.PositiveSmallIntegerField(_("year of the evidence"))
    # Private: stored outside MEDIA_ROOT under a random name, served only by league.views.application_proof.
    proof = models.FileField(
        _("proof"), storage=get_private_storage, upload_to=evidence_upload_to, blank=True, max_length=200
    )
    proof_type = models.CharField(_("proof file type"), max_length=40, blank=True)  # sniffed from the content
    note = models.TextField(_("note"), blank=True)
    submitted_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        ordering = ["-submitted_at"]
        constraints = [
            # One live application per player, season and tier; a rejected one may be re-filed.
            models.UniqueConstraint(
                fields=["player", "season", "tier"],
                condition=~Q(status="rejected"),
                name="uniq_live_application",
            )
        ]

    def __str__(self):
        return f"{self.player} → {self.tier.code} ({self.season})"


class Entry(models.Model):
    """A player's place in a division for one season, and the basis they play on. An entry does not
    by itself make the player a member of the league (``LeagueMembership`` does): it is made only
    for a member, or with the consent that makes one (``league.services.memberships``)."""

    LEAGUE_PATH = "season__league"
    OWNER_PATH = "player"

    class Basis(models.TextChoices):
        QUALIFICATION = "qualification", _("Qualification")
        RETAINED = "retained", _("Retained")
        PROMOTED = "promoted", _("Promoted")
        RELEGATED = "relegated", _("Relegated")
        OPEN = "open", _("Open entry")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    basis = models.CharField(_("basis"), max_length=16, choices=Basis.choices, default=Basis.OPEN)
    application = models.ForeignKey(
        QualificationApplication, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["division", "player__display_name"]
        constraints = [models.UniqueConstraint(fields=["season", "player"], name="uniq_entry_per_season")]

    def __str__(self):
        return f"{self.player} in {self.division}"


class Game(models.Model):
    """One hanchan at one table."""

    LEAGUE_PATH = "season__league"
    SEATS_PATH = "seats__player"  # kyoku.authz.seated: the players at this table

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")
        VOID = "void", _("Void")

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="games")
    division = models.ForeignKey(Division, on_delete=models.PROTECT, related_name="games")
    match_day = models.PositiveSmallIntegerField(_("match day"))
    table = models.PositiveSmallIntegerField(_("table"))
    scheduled_at = models.DateTimeField(_("time"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.SCHEDULED)

    class Meta:
        ordering = ["season", "division", "match_day", "table"]
        constraints = [models.UniqueConstraint(fields=["division", "match_day", "table"], name="uniq_game_table")]
        indexes = [
            # the season page: its summary (games per division and status, the last match day) is
            # read from this index alone, and its pages of games (latest match day first) walk it
            # instead of sorting the season's games
            models.Index(fields=["season", "division", "status", "match_day"], name="game_season_summary"),
            models.Index(fields=["season", "-match_day"], name="game_season_latest"),
        ]

    def __str__(self):
        # in the active language: the page's words, not the code's
        if self.season.kind == "event":
            return f"{self.division} · {self.round_label} · {gettext('table')} {self.table}"
        return _("%(division)s · day %(day)s · table %(table)s") % {
            "division": self.division,
            "day": self.match_day,
            "table": self.table,
        }

    @property
    def round_label(self) -> str:
        """Where the game sits in its season, in the active language: a tournament plays rounds,
        a league season match days ("Round 5", "day 5")."""
        if self.season.kind == "event":
            return gettext("Round %(n)s") % {"n": self.match_day}
        return f"{gettext('day')} {self.match_day}"


class GameSeat(models.Model):
    """Who sat where: seat 0 is East at the start of the game (the contract's seat numbers)."""

    LEAGUE_PATH = "game__season__league"
    OWNER_PATH = "player"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(validators=[MaxValueValidator(3)])
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    # Derived from the result (kept here so standings and history are one query).
    raw_score = models.IntegerField(null=True, blank=True)
    points = models.DecimalField(max_digits=7, decimal_places=1, null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game_id", "seat"]  # by id: ordering by "game" would join and sort on Game.Meta.ordering
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="uniq_game_seat"),
            models.UniqueConstraint(fields=["game", "player"], name="uniq_game_player"),
            models.CheckConstraint(condition=Q(seat__lte=3), name="seat_0_3"),
        ]

    @property
    def seat_name(self):
        return SEAT_NAMES[self.seat]


class GameResult(models.Model):
    """The raw facts of a finished game: four final scores and the deposits left on the table."""

    LEAGUE_PATH = "game__season__league"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="result")
    scores = models.JSONField()  # [seat0, seat1, seat2, seat3] raw final points
    deposits_left = models.PositiveSmallIntegerField(default=0)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    entered_at = models.DateTimeField(auto_now=True)
    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="+")
    # Derived: league points per seat as computed by the engine, kept for audit.
    points = models.JSONField(default=list)
    places = models.JSONField(default=list)

    def __str__(self):
        return f"result of {self.game}"


class Penalty(models.Model):
    """The penalty ledger (append-only: cancel with a reason, never delete)."""

    LEAGUE_PATH = "season__league"
    OWNER_PATH = "player"

    class Sanction(models.TextChoices):
        WARNING = "warning", _("Warning")
        YELLOW = "yellow_card", _("Yellow card")
        RED = "red_card", _("Red card")
        DEDUCTION = "point_deduction", _("Point deduction")
        CHOMBO = "chombo", _("Chombo")
        DEAD_HAND = "dead_hand", _("Dead hand")

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.PROTECT, related_name="penalties")
    hand_number = models.PositiveSmallIntegerField(null=True, blank=True)
    offence = models.CharField(_("offence"), max_length=40)
    sanction = models.CharField(_("sanction"), max_length=20, choices=Sanction.choices)
    points = models.DecimalField(
        _("points deducted"), max_digits=6, decimal_places=1, default=Decimal("0")
    )  # league points taken off (positive number)
    ruling = models.ForeignKey(
        "referee.Ruling", null=True, blank=True, on_delete=models.PROTECT, related_name="penalties"
    )
    assigned_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    assigned_at = models.DateTimeField(auto_now_add=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cancel_reason = models.TextField(blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-assigned_at"]

    @property
    def active(self) -> bool:
        return self.cancelled_at is None


class Standing(models.Model):
    """Stored standings row: written only by league.services.standings_recompute."""

    LEAGUE_PATH = "season__league"
    OWNER_PATH = "player"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    # no index of its own: the unique (division, player) and ``standing_points`` lead with it
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="standings", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveSmallIntegerField()
    games = models.PositiveSmallIntegerField(default=0)
    game_points = models.DecimalField(max_digits=8, decimal_places=1, default=Decimal("0"))
    penalty_points = models.DecimalField(max_digits=8, decimal_places=1, default=Decimal("0"))
    total_points = models.DecimalField(max_digits=8, decimal_places=1, default=Decimal("0"))
    average_place = models.DecimalField(max_digits=4, decimal_places=2, null=True)
    firsts = models.PositiveSmallIntegerField(default=0)
    seconds = models.PositiveSmallIntegerField(default=0)
    thirds = models.PositiveSmallIntegerField(default=0)
    fourths = models.PositiveSmallIntegerField(default=0)
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["division", "rank"]
        constraints = [models.UniqueConstraint(fields=["division", "player"], name="uniq_standing")]
        # a change counts the rows ahead of a player's new total (standings_update): a range of this
        # index, read without the rows (games and player are in it)
        indexes = [models.Index(fields=["division", "total_points", "games", "player"], name="standing_points")]


class DivisionSummary(models.Model):
    """Derived: a division's line on the season page (entrants, games played and to play, games
    void, the last match day played), so the page reads a few rows, not every game of the season.
    Written only by league.services.summary: kept up incrementally where games are created,
    finished or removed and entries made or removed, rebuilt in full by
    ``division_summary_recompute`` (the reconciliation checks that both agree)."""

    LEAGUE_PATH = "season__league"

    division = models.OneToOneField(Division, on_delete=models.CASCADE, primary_key=True, related_name="summary")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="division_summaries")
    entrants = models.PositiveIntegerField(default=0)
    finished = models.PositiveIntegerField(default=0)
    to_play = models.PositiveIntegerField(default=0)  # scheduled or in progress
    void = models.PositiveIntegerField(default=0)
    last_match_day = models.PositiveSmallIntegerField(null=True)  # of the finished games

    @property
    def games(self) -> int:
        return self.finished + self.to_play + self.void


class LeagueMembership(models.Model):
    """A player's membership of a league: what ``kyoku.authz.player_leagues`` counts, so what lets
    that league's admins read the player's private details (docs/privacy.md). One row per league
    and player, made once, by one of the ways a league legitimately gains a member (``Via``); an
    entry, a seat or a registration made by someone else never makes one."""

    MEMBERSHIP_LEAGUE_PATH = "league_id"  # kyoku.authz.player_leagues
    LEAGUE_PATH = "league"
    OWNER_PATH = "player"

    class Via(models.TextChoices):
        ADMIN = "admin", _("Entered by an admin of the league (a player new to every league)")
        APPLICATION = "application", _("The player's own application")
        REGISTRATION = "registration", _("The player's own registration")
        INVITATION = "invitation", _("An invitation the player accepted")
        SYSTEM = "system", _("The site's operator or a task")
        HISTORY = "history", _("Entries, applications and seats made before memberships were recorded")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    via = models.CharField(_("joined by"), max_length=16, choices=Via.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # the roster (league.services.roster): how the league reaches this member, and whether the
    # member has left it. A member is archived, never deleted: results keep their player.
    contact_email = models.EmailField(_("contact email"), blank=True)
    archived_at = models.DateTimeField(_("archived"), null=True, blank=True)

    class Meta:
        ordering = ["league", "player"]
        constraints = [models.UniqueConstraint(fields=["league", "player"], name="uniq_league_membership")]

    def __str__(self):
        return f"{self.player} in {self.league}"


class LeagueInvitation(models.Model):
    """A league's admin asks a player who has not joined the league to play in one of its seasons.
    Nothing is entered and nothing private is shown to the league until the player accepts on
    their own page; accepting makes them a member and enters them (``entry_create``), declining
    is kept as the player's answer."""

    LEAGUE_PATH = "season__league"
    OWNER_PATH = "player"

    class Status(models.TextChoices):
        PENDING = "pending", _("Awaiting the player's answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invitations")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="invitations")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="invitations")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # one open invitation per player and season; a declined one may be sent again
            models.UniqueConstraint(
                fields=["season", "player"], condition=Q(status="pending"), name="uniq_pending_invitation"
            )
        ]

    def __str__(self):
        return f"{self.player} invited to {self.division}"


class InvitationBlock(models.Model):
    """A player who accepts no more invitations from a league (answered on their own page:
    "Decline and block this league"); the league's admin asking again is told so, in words, and
    nothing is sent. The player may lift it."""

    OWNER_PATH = "player"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="invitation_blocks")
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["player", "league"], name="uniq_invitation_block")]

    def __str__(self):
        return f"{self.player} blocks invitations from {self.league}"


class RosterImport(models.Model):
    """A roster sheet read and previewed (league.services.roster): the rows as parsed, each with its
    outcome, kept until an admin confirms them (all written in one transaction) or drops them.
    Nothing of the sheet reaches the players until then."""

    LEAGUE_PATH = "league"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="roster_imports")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    filename = models.CharField(max_length=200, blank=True)
    sha256 = models.CharField(max_length=64)
    rows = models.JSONField(default=list)  # [{"line", "outcome", "values", "changes", "errors"}]
    summary = models.JSONField(default=dict)  # counts and ignored columns
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.filename or self.sha256[:8]} for {self.league}"
