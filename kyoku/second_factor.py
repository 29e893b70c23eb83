"""A league's second-factor rule (``League.requires_second_factor``): the league's admins, referees
and event directors (and superusers, who count as admins of every league) must have a second
factor (an authenticator app, or a security key) before they write anything in it. Until they set
one up they read but do not write, and are told why and where to set it up.

Enforced for every write where the object of a request is authorized (``kyoku.access.
object_for_request``, ``kyoku.api_access.DeclaredAccess``) when the actor passes as staff; the
factors themselves are django-allauth's (``allauth.mfa``)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Exists, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from kyoku.audit import audit_log_write
from kyoku.models import League, LeagueRole
from kyoku.principals import is_user

STAFF_ROLES = (LeagueRole.Role.ADMIN, LeagueRole.Role.REFEREE, LeagueRole.Role.DIRECTOR)
FACTOR_TYPES = ("totp", "webauthn")  # recovery codes alone are no factor: they back one up


class SecondFactorRequired(PermissionDenied):
    """A write refused until the actor sets up a second factor; its text says where."""


def has_second_factor(user: Any) -> bool:
    from allauth.mfa.models import Authenticator

    return bool(user.pk) and Authenticator.objects.filter(user_id=user.pk, type__in=FACTOR_TYPES).exists()


def _staff(user: Any, league: League) -> bool:
    if user.is_superuser:
        return True
    return LeagueRole.objects.filter(league=league, user_id=user.pk, role__in=STAFF_ROLES).exists()


def second_factor_missing(user: Any, league: League) -> bool:
    """Whether ``user`` holds admin, referee or director in ``league`` (or is a superuser), the
    league requires a second factor and ``user`` has none."""
    if not is_user(user) or not getattr(user, "is_authenticated", False):
        return False
    if not league.requires_second_factor:
        return False
    return _staff(user, league) and not has_second_factor(user)


def second_factor_words(league: League) -> str:
    return _(
        "%(league)s requires a second factor for its admins, referees and directors: set one up "
        "under Account → Two factors (%(url)s) to write here. You can still read everything."
    ) % {"league": league.name, "url": reverse("mfa_index")}


def second_factor_require(user: Any, league: League) -> None:
    """Raise :class:`SecondFactorRequired` (403) naming the league and where to set one up."""
    if second_factor_missing(user, league):
        raise SecondFactorRequired(second_factor_words(league))


def leagues_missing_second_factor(user: Any) -> QuerySet[League]:
    """The leagues where ``user`` holds a staff role, that require a second factor, while the user
    has none (one query): the banner's list. A site admin is stopped at a write in any league that
    requires one (``second_factor_missing``), but is not told on every page about leagues they hold
    no role in: they are not that league's staff day to day."""
    from allauth.mfa.models import Authenticator

    if not is_user(user) or not getattr(user, "is_authenticated", False):
        return League.objects.none()
    qs = League.objects.filter(requires_second_factor=True)
    qs = qs.filter(Q(roles__user_id=user.pk, roles__role__in=STAFF_ROLES))
    factors = Authenticator.objects.filter(user_id=user.pk, type__in=FACTOR_TYPES)
    return qs.annotate(has_factor=Exists(factors)).filter(has_factor=False).distinct().order_by("name")


def league_second_factor_set(league: League, required: bool, actor: Any) -> League:
    """Switch the league's rule on or off (audited). Switching it on is refused to an actor with
    no second factor of their own: they would lock themselves out of writing with everyone else."""
    if required and not league.requires_second_factor and not has_second_factor(actor):
        raise SecondFactorRequired(
            _(
                "Set up your own second factor first (Account → Two factors): once %(league)s "
                "requires one, its admins, referees and directors without one can no longer write, "
                "and that would include you."
            )
            % {"league": league.name}
        )
    with transaction.atomic():
        locked = League.objects.select_for_update().get(pk=league.pk)
        before = locked.requires_second_factor
        if before == required:
            return locked
        locked.requires_second_factor = required
        locked.save(update_fields=["requires_second_factor"])
        audit_log_write(
            actor=actor,
            action="league.second_factor_set",
            obj=locked,
            data={"before": {"requires_second_factor": before}, "after": {"requires_second_factor": required}},
        )
    return locked


SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def second_factor_write_check(method: str, actor: Any, obj: Any, need: Any) -> None:
    """For a write (``method`` not safe) on ``obj`` authorized at ``need``: refuse a user who
    passes as the league's staff (admin, referee, director; an owner's or a player's own write is
    not affected) when the object's league requires a second factor they lack."""
    from kyoku.authz import Need, allowed, league_of

    if method in SAFE_METHODS or not is_user(actor):
        return
    if need not in (Need.REFEREE, Need.ADMIN, Need.DIRECTOR, Need.DESK, Need.OWNER, Need.SELF_OR_ADMIN):
        return  # the player's own levels (SELF, TABLE) and reads
    if getattr(type(obj), "LEAGUE_PATH", None) is None:
        return  # a player (several leagues): the privacy rule decides alone
    league = league_of(obj)
    if not league.requires_second_factor:
        return
    if need in (Need.OWNER, Need.SELF_OR_ADMIN) and allowed(actor, obj, Need.SELF):
        return  # the player's own write
    second_factor_require(actor, league)
