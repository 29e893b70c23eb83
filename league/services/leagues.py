"""A league from nothing, in the app: ``league_start`` makes the league, its first admin (the
person starting it), its rule set (a preset and overrides), its first season (a draft) and that
season's divisions, in one transaction, audited. Bad input is refused naming the field, with
nothing written.

Who may start one is the site's setting ``LEAGUE_START``: "open" (the league is active at once)
or "approval" (it is pending until a superuser approves it at /leagues/requests/; pending and
refused leagues are shown only to their creator, their role holders and superusers: kyoku.authz).
The creator is told the decision by email and on the league's page. A person starts at most
``league_start_user`` leagues a day (kyoku.throttle)."""

from __future__ import annotations

import logging
import re
import smtplib
import zoneinfo
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from kyoku.models import League, LeagueRole
from kyoku.principals import Actor, is_user
from kyoku.throttle import throttle_check, throttle_note

from .common import audit_log_write
from .rule_sets import rule_set_create
from .seasons import season_create

logger = logging.getLogger(__name__)

# Slugs that name pages (/leagues/new/, /leagues/requests/) or could be mistaken for the site's own.
RESERVED_SLUGS = frozenset(
    {
        "new",
        "requests",
        "admin",
        "api",
        "accounts",
        "account",
        "static",
        "media",
        "me",
        "roles",
        "settings",
        "security",
        "leagues",
        "league",
        "events",
        "scoring",
        "referee",
        "review",
        "office",
        "login",
        "logout",
        "signup",
        "help",
        "about",
        "kyoku",
        "www",
        "root",
        "system",
    }
)
# at most 40: the rule sets' slugs add to it ("-rules", "-2027-s1") within their 50
SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$")
DIVISION_CODE_RE = re.compile(r"^[A-Z0-9]{1,4}$")


def _fail(field: str, words: str, code: str) -> ValidationError:
    return ValidationError({field: [ValidationError(words, code=code)]})


# ---------------------------------------------------------------- checks (each names its field)


def slug_check(slug: str) -> str:
    slug = (slug or "").strip().lower()
    if not SLUG_RE.match(slug):
        raise _fail(
            "slug",
            _("Use 2 to 40 lowercase letters, digits and hyphens, starting and ending with a letter or digit."),
            "slug_invalid",
        )
    if slug in RESERVED_SLUGS:
        raise _fail("slug", _("This address is reserved: choose another."), "slug_reserved")
    if League.objects.filter(slug=slug).exists():
        raise _fail("slug", _("Another league already has this address."), "slug_taken")
    return slug


def name_check(name: str, field: str = "name", *, required: bool = True) -> str:
    name = (name or "").strip()
    if required and not name:
        raise _fail(field, _("Give the league's name."), "required")
    if len(name) > 120:
        raise _fail(field, _("At most 120 characters."), "too_long")
    return name


def languages_check(languages: Any) -> list[str]:
    offered = [code for code, _name in settings.LANGUAGES]
    if not isinstance(languages, (list, tuple)) or not languages:
        raise _fail("languages", _("Choose at least one language."), "required")
    unknown = [str(code) for code in languages if code not in offered]
    if unknown:
        raise _fail(
            "languages", _("Not a language of this site: %(codes)s.") % {"codes": ", ".join(unknown)}, "unknown"
        )
    return [code for code in offered if code in languages]  # the site's order, once each


def time_zone_check(time_zone: str) -> str:
    time_zone = (time_zone or "").strip()
    if time_zone not in zoneinfo.available_timezones():
        raise _fail("time_zone", _("Not a known time zone (e.g. Asia/Hong_Kong)."), "unknown")
    return time_zone


def promotion_count_check(count: Any) -> int:
    try:
        value = int(count)
    except (TypeError, ValueError):
        value = -1
    if not 0 <= value <= 20:
        raise _fail("promotion_count", _("A whole number from 0 to 20."), "invalid")
    return value


def divisions_check(divisions: Any) -> list[tuple[str, str, str]]:
    """``[(code, name, Chinese name)]``: at least one, codes A–Z or digits (up to 4), once each."""
    if not isinstance(divisions, (list, tuple)) or not divisions:
        raise _fail("divisions", _("Give at least one division (code A, its name)."), "required")
    seen: set[str] = set()
    rows = []
    for row in divisions:
        code, name, name_zh = (list(row) + ["", "", ""])[:3]
        code, name, name_zh = str(code).strip().upper(), str(name).strip(), str(name_zh).strip()
        if not DIVISION_CODE_RE.match(code):
            raise _fail("divisions", _("A division's code is 1 to 4 letters or digits (A, B …)."), "code_invalid")
        if code in seen:
            raise _fail("divisions", _("Division %(code)s is given twice.") % {"code": code}, "code_twice")
        if not name or len(name) > 40 or len(name_zh) > 40:
            raise _fail(
                "divisions", _("Division %(code)s needs a name (at most 40 characters).") % {"code": code}, "name"
            )
        seen.add(code)
        rows.append((code, name, name_zh))
    return rows


def season_check(year: Any, number: Any, starts_on: Any, ends_on: Any) -> tuple[int, int]:
    try:
        year_value = int(year)
    except (TypeError, ValueError):
        year_value = 0
    if not 2000 <= year_value <= 2100:
        raise _fail("season_year", _("A year from 2000 to 2100."), "invalid")
    try:
        number_value = int(number)
    except (TypeError, ValueError):
        number_value = 0
    if not 1 <= number_value <= 4:
        raise _fail("season_number", _("A season number is 1 to 4."), "invalid")
    if starts_on and ends_on and ends_on < starts_on:
        raise _fail("ends_on", _("The season ends before it starts."), "order")
    return year_value, number_value


# ---------------------------------------------------------------- writes


def league_start_mode() -> str:
    return "open" if getattr(settings, "LEAGUE_START", "approval") == "open" else "approval"


def _start_throttle_key(actor: Actor) -> str:
    return f"user:{getattr(actor, 'pk', '')}"


@transaction.atomic
def league_start(
    *,
    name: str,
    slug: str,
    languages: list[str],
    time_zone: str,
    preset: str,
    season_year: int,
    season_number: int,
    divisions: list[tuple[str, str, str]],
    actor: Actor,
    name_zh: str = "",
    overrides: dict | None = None,
    season_label: str = "",
    starts_on: Any = None,
    ends_on: Any = None,
    promotion_count: int = 2,
) -> League:
    """League + its first admin (``actor``) + rule set + first season (draft) + divisions, or
    nothing. Pending when the site's LEAGUE_START is "approval" (a superuser starts it active)."""
    if not is_user(actor):
        raise TypeError("a league is started by a signed-in person")
    throttle_check("league_start_user", _start_throttle_key(actor))
    name, name_zh = name_check(name), name_check(name_zh, "name_zh", required=False)
    slug = slug_check(slug)
    languages, time_zone = languages_check(languages), time_zone_check(time_zone)
    promotion_count = promotion_count_check(promotion_count)
    year, number = season_check(season_year, season_number, starts_on, ends_on)
    rows = divisions_check(divisions)
    if len((season_label or "").strip()) > 120:
        raise _fail("season_label", _("At most 120 characters."), "too_long")
    pending = league_start_mode() == "approval" and not actor.is_superuser
    now = timezone.now()
    league = League.objects.create(
        name=name,
        name_zh=name_zh,
        slug=slug,
        languages=languages,
        time_zone=time_zone,
        promotion_count=promotion_count,
        created_at=now,
        created_by=actor,
        approval=League.Approval.PENDING if pending else League.Approval.ACTIVE,
        decided_at=None if pending else now,
        decided_by=None if pending else actor,
    )
    LeagueRole.objects.create(league=league, user=actor, role=LeagueRole.Role.ADMIN)
    rules = rule_set_create(
        name=f"{name} rules", slug=f"{slug}-rules", preset=preset, overrides=overrides or {}, actor=actor
    )
    season = season_create(
        league=league,
        year=year,
        number=number,
        rule_set=rules,
        starts_on=starts_on,
        ends_on=ends_on,
        divisions=rows,
        label=(season_label or "").strip(),
        actor=actor,
    )
    audit_log_write(
        actor=actor,
        action="league.start",
        obj=league,
        data={
            "slug": slug,
            "approval": league.approval,
            "preset": preset,
            "overrides": overrides or {},
            "season": season.pk,
            "divisions": [code for code, _n, _z in rows],
        },
    )
    throttle_note("league_start_user", _start_throttle_key(actor))
    return league


def _superuser_require(actor: Actor) -> None:
    from django.core.exceptions import PermissionDenied

    if not getattr(actor, "is_superuser", False):
        raise PermissionDenied("only a site admin decides a league's request")


@transaction.atomic
def league_approve(*, league: League, actor: Actor) -> League:
    _superuser_require(actor)
    league = League.objects.select_for_update().get(pk=league.pk)
    if league.approval != League.Approval.PENDING:
        raise _fail("league", _("This league is not waiting for approval."), "not_pending")
    league.approval, league.decided_at, league.decided_by = League.Approval.ACTIVE, timezone.now(), actor
    league.save(update_fields=["approval", "decided_at", "decided_by"])
    audit_log_write(actor=actor, action="league.approve", obj=league, data={})
    return league


@transaction.atomic
def league_refuse(*, league: League, reason: str, actor: Actor) -> League:
    _superuser_require(actor)
    reason = (reason or "").strip()
    if not reason:
        raise _fail("reason", _("Say why, for the person who asked."), "required")
    if len(reason) > 2000:
        raise _fail("reason", _("At most 2000 characters."), "too_long")
    league = League.objects.select_for_update().get(pk=league.pk)
    if league.approval != League.Approval.PENDING:
        raise _fail("league", _("This league is not waiting for approval."), "not_pending")
    league.approval, league.decided_at, league.decided_by = League.Approval.REFUSED, timezone.now(), actor
    league.refusal_reason = reason
    league.save(update_fields=["approval", "decided_at", "decided_by", "refusal_reason"])
    audit_log_write(actor=actor, action="league.refuse", obj=league, data={"reason": reason})
    return league


@transaction.atomic
def league_settings_update(
    *,
    league: League,
    name: str,
    name_zh: str,
    languages: list[str],
    time_zone: str,
    promotion_count: int,
    actor: Actor,
) -> League:
    from kyoku import authz

    authz.authorize(actor, league, authz.Need.ADMIN)
    league = League.objects.select_for_update().get(pk=league.pk)
    before = {
        "name": league.name,
        "name_zh": league.name_zh,
        "languages": league.languages,
        "time_zone": league.time_zone,
        "promotion_count": league.promotion_count,
    }
    after = {
        "name": name_check(name),
        "name_zh": name_check(name_zh, "name_zh", required=False),
        "languages": languages_check(languages),
        "time_zone": time_zone_check(time_zone),
        "promotion_count": promotion_count_check(promotion_count),
    }
    changed = {k: v for k, v in after.items() if v != before[k]}
    if changed:
        for field, value in changed.items():
            setattr(league, field, value)
        league.save(update_fields=list(changed))
        audit_log_write(
            actor=actor,
            action="league.settings",
            obj=league,
            data={"before": {k: before[k] for k in changed}, "after": changed},
        )
    return league


# ---------------------------------------------------------------- telling the creator


def league_decision_mail(league: League) -> bool:
    """Tell the creator the site's decision; False (logged) when the mail could not leave."""
    creator = league.created_by
    if creator is None or not creator.email:
        return False
    link = settings.SITE_URL.rstrip("/") + reverse("league-page", kwargs={"slug": league.slug})
    if league.approval == League.Approval.ACTIVE:
        subject = _("Your league %(league)s is approved") % {"league": league.name}
        body = _("%(league)s is approved: its pages are public now.\n%(link)s") % {"league": league.name, "link": link}
    else:
        subject = _("Your league %(league)s was not approved") % {"league": league.name}
        body = _("%(league)s was not approved.\nReason: %(reason)s\n%(link)s") % {
            "league": league.name,
            "reason": league.refusal_reason,
            "link": link,
        }
    try:
        send_mail(subject, body, None, [creator.email], fail_silently=False)
    except (smtplib.SMTPException, OSError) as exc:
        logger.warning("league %s decision not mailed: %s", league.pk, exc)
        return False
    return True
