"""Rule sets: a preset and its overrides resolved by the engine, created, and revised as a new
version (earlier versions never change)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from kyoku.errors import engine_error_words
from kyoku.principals import Actor
from kyoku.safe_json import check_field
from scoring.engine import SettlementError, resolve_rules

from ..models import RuleSet
from kyoku.errors import engine_error

from .common import audit_log_write


def _rules_resolve(*, preset: str, overrides: dict) -> tuple[str, dict]:
    if not isinstance(overrides, dict):
        raise ValidationError({"overrides": [gettext("must be an object of option: value")]})
    check_field(overrides, "overrides", max_depth=6, max_nodes=500, max_string=200)
    try:
        return resolve_rules({"preset": preset, **overrides})
    except SettlementError as exc:
        if exc.field == "rules.preset":
            raise ValidationError({"preset": [engine_error_words(exc)]}) from None
        raise engine_error(exc) from None


@transaction.atomic
def rule_set_create(
    *,
    name: str,
    slug: str,
    preset: str,
    overrides: dict | None = None,
    is_template: bool = False,
    actor: Actor,
    notes: str = "",
) -> RuleSet:
    overrides = overrides or {}
    system, options = _rules_resolve(preset=preset, overrides=overrides)
    rule_set = RuleSet.objects.create(
        name=name,
        slug=slug,
        version=1,
        system=system,
        preset=preset,
        overrides=overrides,
        options=options,
        is_template=is_template,
        notes=notes,
    )
    audit_log_write(
        actor=actor, action="rule_set.create", obj=rule_set, data={"preset": preset, "overrides": overrides}
    )
    return rule_set


@transaction.atomic
def rule_set_revise(*, rule_set: RuleSet, overrides: dict, actor: Actor, notes: str = "") -> RuleSet:
    """A new version; earlier versions (and the seasons that use them) never change."""
    system, options = _rules_resolve(preset=rule_set.preset, overrides=overrides)
    latest = RuleSet.objects.select_for_update().filter(slug=rule_set.slug).order_by("-version").first()
    revised = RuleSet.objects.create(
        name=rule_set.name,
        slug=rule_set.slug,
        version=latest.version + 1,
        system=system,
        preset=rule_set.preset,
        overrides=overrides,
        options=options,
        is_template=rule_set.is_template,
        notes=notes,
    )
    audit_log_write(
        actor=actor,
        action="rule_set.revise",
        obj=revised,
        data={"from_version": rule_set.version, "overrides": overrides},
    )
    return revised
