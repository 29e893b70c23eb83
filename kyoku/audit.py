"""The append-only audit log, written in the same transaction as the change it records.

Each row names who, when, what (action, object type and id), the data of the change
(before/after where there is a before), and the league and season the object belongs to, so a
season's log is one indexed query (league.views.season_audit)."""

from __future__ import annotations

from typing import Any

from django.core import serializers
from django.db.models import Model

from kyoku.models import AuditLog
from kyoku.principals import actor_label, actor_require, is_user
from kyoku.rows import instance_insert


def _season_id(obj: Model) -> int | None:
    if getattr(type(obj), "SEASON_PATH", None) == "":  # the object is a season itself
        pk: int = obj.pk
        return pk
    path = getattr(type(obj), "LEAGUE_PATH", None)
    if not path or not path.endswith("season__league"):
        return None
    target: Any = obj
    parts = path.split("__")[:-2]  # up to the object holding the season
    for part in parts:
        target = getattr(target, part, None)
        if target is None:
            return None
    season_id: int | None = getattr(target, "season_id", None)
    return season_id


def _league_id(obj: Model) -> int | None:
    path = getattr(type(obj), "LEAGUE_PATH", None)
    if path is None:
        return None
    if path == "":
        pk: int = obj.pk
        return pk
    target: Any = obj
    parts = path.split("__")
    for part in parts[:-1]:
        target = getattr(target, part, None)
        if target is None:
            return None
    league_id: int | None = getattr(target, f"{parts[-1]}_id", None)
    return league_id


def audit_log_write(*, actor: Any, action: str, obj: Model, data: dict[str, Any] | None = None) -> AuditLog:
    """Every audited write names its actor (kyoku.principals): None and an anonymous visitor are
    refused here, so no service writes as nobody."""
    actor_require(actor)
    entry = AuditLog(
        actor=actor if is_user(actor) else None,
        actor_label=actor_label(actor),
        action=action,
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        data=data or {},
        league_id=_league_id(obj),
        season_id=_season_id(obj),
    )
    instance_insert(entry)  # one plain statement (kyoku.rows): every write sends it; none listens to its save
    return entry


def snapshot(obj: Model) -> dict[str, Any]:
    """The object's stored fields as JSON-able values (for before/after in the log)."""
    fields: dict[str, Any] = serializers.serialize("python", [obj])[0]["fields"]
    return fields
