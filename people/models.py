"""A league's invitation to claim a roster entry, and a person's request to be linked to one.

An invitation's token is given once (in the email) and stored only as its SHA-256: a database read
does not let anyone claim a player. An invitation is bound to the address it was sent to: only an
account holding that address, verified, may accept it (``people.services.claims``)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from kyoku.models import League

INVITATION_DAYS = 14


def _expiry() -> datetime.datetime:
    return timezone.now() + datetime.timedelta(days=INVITATION_DAYS)


class ClaimInvitation(models.Model):
    """A league's admin invites the person behind one of its members to link their account."""

    LEAGUE_PATH = "league"

    class State(models.TextChoices):
        PENDING = "pending", _("Waiting")
        USED = "used", _("Used")
        EXPIRED = "expired", _("Expired")
        REVOKED = "revoked", _("Revoked")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="claim_invitations")
    email = models.EmailField(_("email"), blank=True)  # blank once the account that used it is closed
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(default=_expiry)
    sent_at = models.DateTimeField(null=True, blank=True)  # None: the mail server refused it; send again
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"claim of {self.player} in {self.league}"

    @property
    def state(self) -> str:
        if self.used_at is not None:
            return self.State.USED
        if self.revoked_at is not None:
            return self.State.REVOKED
        if self.expires_at <= timezone.now():
            return self.State.EXPIRED
        return self.State.PENDING

    def get_state_display(self) -> str:
        return str(self.State(self.state).label)


class LinkRequest(models.Model):
    """A signed-in person with no player asks a league to link them to the member whose number they
    typed. ``player`` is the member that number matched in that league, or None; the person is
    never told which (the answer is the same either way)."""

    LEAGUE_PATH = "league"

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        APPROVED = "approved", _("Approved")
        REJECTED = "rejected", _("Rejected")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="link_requests")
    membership_number = models.CharField(_("membership number"), max_length=20)  # as typed
    player = models.ForeignKey(
        "league.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="link_requests"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"link request {self.membership_number} in {self.league}"
