"""The platform's own data, below every app: tenancy (leagues and the roles logins hold in them),
the audit log and idempotency keys. Apps depend on these models, never the reverse.

The tables keep the names they had when the models lived in ``league`` (``db_table``): the move
was a change of owner in Django's state only (kyoku/migrations/0001, league/migrations/0007)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils.translation import gettext_lazy as _


class League(models.Model):
    LEAGUE_PATH = ""  # kyoku.authz: the path from a row to its league

    name = models.CharField(_("name"), max_length=120)
    name_zh = models.CharField(_("Chinese name"), max_length=120, blank=True)
    slug = models.SlugField(unique=True)
    promotion_count = models.PositiveSmallIntegerField(_("players promoted / relegated per season"), default=2)
    # Those who write (admins, referees, event directors) must sign in with a second factor
    # (accounts.policy): until they set one up they read but do not write.
    requires_second_factor = models.BooleanField(
        _("second factor required for admins, referees and directors"), default=False
    )
    # the languages its pages and messages are offered in, and its clock (match days, events)
    languages = models.JSONField(_("languages"), default=list, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="Asia/Hong_Kong")
    created_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, editable=False, on_delete=models.SET_NULL, related_name="+"
    )

    class Approval(models.TextChoices):
        # a league started in the app while the site's LEAGUE_START is "approval" waits for a
        # superuser (league.services.leagues): pending and refused leagues are shown only to their
        # creator and superusers, and listed nowhere public
        ACTIVE = "active", _("active")
        PENDING = "pending", _("waiting for approval")
        REFUSED = "refused", _("refused")

    approval = models.CharField(_("approval"), max_length=8, choices=Approval.choices, default=Approval.ACTIVE)
    decided_at = models.DateTimeField(null=True, blank=True, editable=False)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, editable=False, on_delete=models.SET_NULL, related_name="+"
    )
    refusal_reason = models.TextField(_("reason"), blank=True, editable=False)

    def __str__(self) -> str:
        return self.name

    @property
    def is_active(self) -> bool:
        return self.approval == self.Approval.ACTIVE

    @property
    def display_name(self) -> str:
        """The league's name in the active language (its Chinese name on a Chinese page)."""
        from django.utils.translation import get_language

        zh = (get_language() or "").lower().startswith("zh")
        return self.name_zh if zh and self.name_zh else self.name

    class Meta:
        db_table = "league_league"


class LeagueRole(models.Model):
    """A login's role in a league. Players are recognised by their Player link instead."""

    LEAGUE_PATH = "league"

    class Role(models.TextChoices):
        ADMIN = "admin", _("League admin")
        REFEREE = "referee", _("Referee")
        DIRECTOR = "director", _("Event director")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_roles")
    role = models.CharField(max_length=16, choices=Role.choices)

    class Meta:
        db_table = "league_leaguerole"
        constraints = [models.UniqueConstraint(fields=["league", "user", "role"], name="uniq_league_role")]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()} · {self.league}"


class RoleInvitation(models.Model):
    """An invitation by email to hold a role in a league (kyoku.roles). The link carries a token
    whose SHA-256 alone is stored; it is accepted once, by an account that has the invited address
    verified, before it expires, unless revoked."""

    LEAGUE_PATH = "league"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="role_invitations")
    role = models.CharField(_("role"), max_length=16, choices=LeagueRole.Role.choices)
    email = models.EmailField(_("email"))
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)  # the last email that left (None: not sent yet)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["league", "-created_at"], name="roleinv_league_at")]

    def __str__(self) -> str:
        return f"{self.email} · {self.get_role_display()} · {self.league}"

    def is_open(self, now: Any = None) -> bool:
        from django.utils import timezone

        now = now or timezone.now()
        return self.accepted_at is None and self.revoked_at is None and self.expires_at > now


class AuditLog(models.Model):
    """Append-only record of every change, written in the same transaction as the change."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    # who acted when it was not a user: "system: <task>" or "table phone: game <id>" (kyoku.principals)
    actor_label = models.CharField(max_length=80, blank=True, default="")
    action = models.CharField(max_length=60)
    object_type = models.CharField(max_length=40)
    object_id = models.CharField(max_length=40)
    data = models.JSONField(default=dict, encoder=DjangoJSONEncoder)
    # Where the object belongs, resolved when the row is written (kyoku.audit): a season's or a
    # league's log is one indexed query. Plain ids, not foreign keys: the log outlives what it names.
    league_id = models.BigIntegerField(null=True, blank=True)
    season_id = models.BigIntegerField(null=True, blank=True)

    class Meta:
        db_table = "league_auditlog"
        ordering = ["-at", "-id"]
        indexes = [
            models.Index(fields=["season_id", "-at"], name="audit_season_at"),
            models.Index(fields=["league_id", "-at"], name="audit_league_at"),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk:
            raise ValueError("audit log rows are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("audit log rows are append-only")


class IdempotencyKey(models.Model):
    """The first response to a write request with an ``Idempotency-Key`` header. A key belongs to
    its principal (``kyoku.principals.actor_scope``: "user:<id>", or "table:<game>" for a table's
    phones), so one principal's key never replays another's answer."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+")
    scope = models.CharField(max_length=60)
    key = models.CharField(max_length=128)
    endpoint = models.CharField(max_length=200)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True)
    response = models.JSONField(null=True, encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "league_idempotencykey"
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="uniq_idempotency_scope_key")]
