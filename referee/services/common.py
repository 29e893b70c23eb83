"""What the referee writes share: the engine's input for a season, its errors as field errors,
and free text checked before it is stored."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from kyoku.safe_json import text_problem
from league.models import Season
from referee.engine import DEFAULT_REACTION_TIME_MS, RulingError
from referee.engine.settings import PRESETS as ENGINE_PRESETS

from ..models import Incident


def ruling_error(exc: RulingError, prefix: str = "") -> ValidationError:
    return ValidationError({(prefix + exc.field) if exc.field else (prefix.rstrip(".") or "record"): [exc.message]})


def text_checked(value, field: str, limit: int) -> str:
    """Free text a referee or player types: refused (naming the field) when too long or not storable."""
    if not isinstance(value, str):
        raise ValidationError({field: [gettext("must be text")]})
    if len(value) > limit:
        raise ValidationError({field: [gettext("at most %(limit)s characters") % {"limit": limit}]})
    problem = text_problem(value)
    if problem:
        raise ValidationError({field: [problem]})
    return value


def rules_record_for(season: Season) -> dict:
    """The ``rules`` the engine runs with for a season: its rule set's preset and the league's
    reaction time (``rule_set.options["reaction_time_ms"]``), plus multiple-ron settings."""
    rule_set = season.rule_set
    options = rule_set.options or {}
    preset = rule_set.preset if rule_set.preset in ENGINE_PRESETS else "wrc"
    rules = {"preset": preset, "reaction_time_ms": options.get("reaction_time_ms") or DEFAULT_REACTION_TIME_MS}
    if isinstance(options.get("multiple_ron"), bool):
        rules["multiple_ron"] = options["multiple_ron"]
        if (
            options["multiple_ron"]
            and isinstance(options.get("max_ron_winners"), int)
            and 2 <= options["max_ron_winners"] <= 3
        ):
            rules["max_ron_winners"] = options["max_ron_winners"]
    return rules


def incident_record(incident: Incident) -> dict:
    """The engine record (ruling contract) of a stored incident."""
    return {"rules": rules_record_for(incident.game.season), "dealer": incident.dealer, "events": incident.events}
