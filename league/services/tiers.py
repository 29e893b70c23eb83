"""A league's qualification tiers, written by its admins (the tiers page, /leagues/<slug>/tiers/):
add, edit, retire. A tier is never deleted: applications keep their tier, so retiring one only
stops new applications (league.qualification.check_tier_in_force). Requirements are checked by
league.qualification.validate_requirements, the same check Django admin's form runs."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from kyoku.audit import audit_log_write
from kyoku.authz import Need
from kyoku.errors import Conflict
from kyoku.models import League
from kyoku.principals import Actor

from .. import qualification
from ..models import Division, QualificationTier
from .common import actor_authorize

FIELDS = (
    "code",
    "description",
    "description_zh",
    "division_code",
    "effective_year",
    "effective_number",
    "validity",
    "requirements",
)
TEXT = {"code": 8, "description": 200, "description_zh": 200, "division_code": 4}
# the largest requirement a player's evidence can meet (league.qualification.NUMBER_RANGES)
REQUIREMENT_MAX = {"min_rating": 10_000, "min_games_in_year": 100_000}


def league_division_codes(*, league: League) -> list[str]:
    """The division codes this league's seasons have used (A, B …), in their order."""
    rows = Division.objects.filter(season__league=league).order_by("order", "code").values_list("code", flat=True)
    return list(dict.fromkeys(rows))


def _text(key: str, value: Any, *, required: bool) -> str:
    from kyoku.safe_json import text_problem

    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationError({key: [_("must be text")]})
    value = value.strip()
    if required and not value:
        raise ValidationError({key: [_("This field is required.")]})
    if len(value) > TEXT[key]:
        raise ValidationError({key: [_("at most %(n)s characters") % {"n": TEXT[key]}]})
    problem = text_problem(value)
    if problem:
        raise ValidationError({key: [problem]})
    return value


def _whole(key: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValidationError({key: [_("a whole number from %(low)s to %(high)s") % {"low": low, "high": high}]})
    return value


def tier_fields_clean(*, league: League, fields: dict[str, Any], tier: QualificationTier | None = None) -> dict:
    """The tier's fields checked, each error naming its field; ``requirements`` by the same check
    as Django admin's (league.qualification.validate_requirements)."""
    unknown = sorted(set(fields) - set(FIELDS))
    if unknown:
        raise ValidationError({unknown[0]: [_("unknown field")]})
    clean: dict[str, Any] = {}
    clean["code"] = _text("code", fields.get("code"), required=True).upper()
    same_code = QualificationTier.objects.filter(league=league, code=clean["code"])
    if tier is not None:
        same_code = same_code.exclude(pk=tier.pk)
    if same_code.exists():
        raise ValidationError({"code": [_("this league already has a tier %(code)s") % {"code": clean["code"]}]})
    clean["description"] = _text("description", fields.get("description"), required=True)
    clean["description_zh"] = _text("description_zh", fields.get("description_zh"), required=False)
    clean["division_code"] = _text("division_code", fields.get("division_code"), required=True).upper()
    codes = league_division_codes(league=league)
    if codes and clean["division_code"] not in codes:
        words = _("this league has no division %(code)s (its divisions: %(codes)s)")
        raise ValidationError({"division_code": [words % {"code": clean["division_code"], "codes": ", ".join(codes)}]})
    clean["effective_year"] = _whole("effective_year", fields.get("effective_year"), 2000, 2100)
    clean["effective_number"] = _whole("effective_number", fields.get("effective_number"), 1, 4)
    if fields.get("validity") not in QualificationTier.Validity.values:
        raise ValidationError(
            {"validity": [_("one of: %(names)s") % {"names": ", ".join(QualificationTier.Validity.values)}]}
        )
    clean["validity"] = fields["validity"]
    requirements = fields.get("requirements") or {}
    qualification.validate_requirements(requirements)
    for i, alt in enumerate(requirements.get("accounts", [])):
        for key, high in REQUIREMENT_MAX.items():
            if key in alt:
                _whole(f"requirements.accounts[{i}].{key}", alt[key], 0, high)
    clean["requirements"] = requirements
    return clean


@transaction.atomic
def tier_create(*, league: League, fields: dict[str, Any], actor: Actor) -> QualificationTier:
    """A new tier of ``league``, offered to applicants from its effective season."""
    actor_authorize(actor, league, Need.ADMIN)
    clean = tier_fields_clean(league=league, fields=fields)
    try:
        with transaction.atomic():
            tier = QualificationTier.objects.create(league=league, active=True, **clean)
    except IntegrityError:  # the same code added at this very moment by another admin
        raise Conflict({"code": [_("this league already has a tier %(code)s") % {"code": clean["code"]}]}) from None
    audit_log_write(actor=actor, action="tier.create", obj=tier, data=clean)
    return tier


@transaction.atomic
def tier_update(*, tier: QualificationTier, fields: dict[str, Any], actor: Actor) -> QualificationTier:
    """Change a tier. Applications already filed keep it (they point at the same row)."""
    actor_authorize(actor, tier, Need.ADMIN)
    tier = QualificationTier.objects.select_for_update().get(pk=tier.pk)
    clean = tier_fields_clean(league=tier.league, fields=fields, tier=tier)
    before = {k: getattr(tier, k) for k in clean}
    changed = {k: v for k, v in clean.items() if before[k] != v}
    if not changed:
        return tier
    for key, value in changed.items():
        setattr(tier, key, value)
    try:
        with transaction.atomic():
            tier.save(update_fields=list(changed))
    except IntegrityError:
        raise Conflict({"code": [_("this league already has a tier %(code)s") % {"code": clean["code"]}]}) from None
    audit_log_write(
        actor=actor, action="tier.update", obj=tier, data={"from": {k: before[k] for k in changed}, "to": changed}
    )
    return tier


@transaction.atomic
def tier_retire(*, tier: QualificationTier, actor: Actor) -> QualificationTier:
    """No new application on this tier; those filed keep it. Retiring twice changes nothing."""
    actor_authorize(actor, tier, Need.ADMIN)
    tier = QualificationTier.objects.select_for_update().get(pk=tier.pk)
    if not tier.active:
        return tier
    tier.active = False
    tier.save(update_fields=["active"])
    audit_log_write(actor=actor, action="tier.retire", obj=tier, data={"code": tier.code})
    return tier
