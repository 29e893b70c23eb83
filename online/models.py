"""Online game records: who plays under which online name, imported games, and the records a
player attaches as qualification evidence. Raw records are private files (kyoku.uploads)."""

import unicodedata

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from kyoku.uploads import get_private_storage
from league.models import Game, Player, QualificationApplication


def account_fold(name: str) -> str:
    """The key one online name is known by: NFKC and case folded, so ``tenhou_01``, ``Tenhou_01``
    and ``ｔｅｎｈｏｕ＿０１`` are one account (a platform's names are told apart by no more)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name or "").casefold())


class OnlineAccount(models.Model):
    """A player's name on an online platform (several per player allowed: alternate accounts); one
    folded name (``account_key``) belongs to one player per platform."""

    class Platform(models.TextChoices):
        TENHOU = "tenhou", _("Tenhou")
        MAHJONG_SOUL = "mahjongsoul", _("Mahjong Soul")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="online_accounts")
    platform = models.CharField(_("platform"), max_length=16, choices=Platform.choices, default=Platform.TENHOU)
    account_name = models.CharField(_("account name"), max_length=40)
    account_key = models.CharField(max_length=160, editable=False, default="")  # account_fold(account_name)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["platform", "account_name"]
        constraints = [
            models.UniqueConstraint(fields=["platform", "account_name"], name="uniq_online_account"),
            models.UniqueConstraint(fields=["platform", "account_key"], name="uniq_online_account_key"),
        ]

    def save(self, *args, **kwargs):
        self.account_key = account_fold(self.account_name)
        if kwargs.get("update_fields") is not None and "account_name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "account_key"}
        super().save(*args, **kwargs)

    def __str__(self):
        return f"{self.account_name} ({self.get_platform_display()})"


class GameImport(models.Model):
    """One imported record of a league game: the raw record is the source fact of its hands."""

    LEAGUE_PATH = "game__season__league"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="online_imports")
    raw = models.FileField(storage=get_private_storage, upload_to="tenhou/", max_length=200)
    sha256 = models.CharField(max_length=64)
    format = models.CharField(max_length=10)
    log_id = models.CharField(max_length=60, blank=True)
    names = models.JSONField(default=list)
    comparison = models.JSONField(default=dict)  # game_check output at import time
    agreed = models.BooleanField(default=True)
    override_reason = models.TextField(blank=True)
    imported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]


class EvidenceRecord(models.Model):
    """A game record attached to a qualification application, as read at upload time."""

    LEAGUE_PATH = "application__season__league"
    OWNER_PATH = "application__player"

    application = models.ForeignKey(QualificationApplication, on_delete=models.CASCADE, related_name="online_records")
    raw = models.FileField(storage=get_private_storage, upload_to="tenhou-evidence/", max_length=200)
    sha256 = models.CharField(max_length=64, db_index=True)
    filename = models.CharField(max_length=200, blank=True)
    log_id = models.CharField(max_length=60, blank=True)
    names = models.JSONField(default=list)
    room = models.CharField(max_length=10, blank=True)
    hanchan = models.BooleanField(default=True)
    played_on = models.DateField(null=True, blank=True)
    # the platform the game was played on ("tenhou", "mahjongsoul"); Mahjong Soul records also carry
    # each seat's rank (league.qualification.RANKS keys) and account id, in seat order with names
    platform = models.CharField(max_length=16, default="tenhou")
    ranks = models.JSONField(default=list, blank=True)
    account_ids = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["played_on", "pk"]
        constraints = [models.UniqueConstraint(fields=["application", "sha256"], name="uniq_evidence_record")]


class EvidenceCheck(models.Model):
    """What the records proved when the application was decided (a frozen snapshot)."""

    LEAGUE_PATH = "application__season__league"

    application = models.OneToOneField(QualificationApplication, on_delete=models.CASCADE, related_name="online_check")
    snapshot = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)


class RecordFingerprint(models.Model):
    """One content key of an evidence record (its wall seed, or one hand's deal): the same game is
    recognised whatever its file's name or bytes, across applications and leagues."""

    LEAGUE_PATH = "record__application__season__league"

    record = models.ForeignKey(EvidenceRecord, on_delete=models.CASCADE, related_name="fingerprints")
    key = models.CharField(max_length=48, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["record", "key"], name="uniq_record_fingerprint")]
