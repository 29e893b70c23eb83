"""The league's penalty catalogue, versioned: each revision is a new version."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from kyoku.authz import acting_user
from kyoku.principals import SYSTEM, Actor
from kyoku.safe_json import check_field
from league.services import audit_log_write
from referee.engine import default_catalogue, validate_catalogue

from ..models import PenaltyCatalogue


def _catalogue_errors(errors: list[str]) -> ValidationError:
    out: dict[str, list[str]] = {}
    for err in errors:
        field, _, message = err.partition(": ")
        out.setdefault(field or "catalogue", []).append(message)
    return ValidationError(out)


@transaction.atomic
def penalty_catalogue_current(*, league) -> PenaltyCatalogue:
    """The league's newest catalogue; the default one (``referee.engine.penalties``) on first use,
    made by the system (whoever's request or ruling first needed it did not choose it)."""
    current = PenaltyCatalogue.objects.filter(league=league).order_by("-version").first()
    if current is None:
        current, created = PenaltyCatalogue.objects.get_or_create(
            league=league, version=1, defaults={"data": default_catalogue()}
        )
        if created:
            audit_log_write(
                actor=SYSTEM,
                action="penalty_catalogue.create",
                obj=current,
                data={"version": 1, "catalogue_version": current.data.get("version")},
            )
    return current


@transaction.atomic
def penalty_catalogue_revise(*, league, data: dict, actor: Actor) -> PenaltyCatalogue:
    """A new catalogue version (version + 1); earlier versions stay as the rulings made under them."""
    check_field(data, "catalogue")
    errors = validate_catalogue(data)
    if errors:
        raise _catalogue_errors(errors)
    penalty_catalogue_current(league=league)
    latest = PenaltyCatalogue.objects.select_for_update().filter(league=league).order_by("-version").first()
    assert latest is not None  # penalty_catalogue_current made one
    revised = PenaltyCatalogue.objects.create(
        league=league, version=latest.version + 1, data=data, created_by=acting_user(actor)
    )
    audit_log_write(
        actor=actor,
        action="penalty_catalogue.revise",
        obj=revised,
        data={"from_version": latest.version, "version": revised.version, "catalogue_version": data.get("version")},
    )
    return revised
