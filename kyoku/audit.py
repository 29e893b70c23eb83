"""The append-only audit log, written in the same transaction as the change it records.

Each row names who, when, what (action, object type and id), the data of the change
(before/after where there is a before), and the league and season the object belongs to, so a
season's log is one indexed query (league.views.season_audit)."""

from __future__ import annotations

from typing import Any

from django.core import serializers

from kyoku.models import AuditLog


def _season_id(obj) -> int | None:
    if getattr(type(obj), "SEASON_PATH", None) == "":  # the object is a season itself
        return obj.pk
    path = getattr(type(obj), "LEAGUE_PATH", None)
    if not path or not path.endswith("season__league"):
        return None
    target = obj
    parts = path.split("__")[:-2]  # up to the object holding the season
    for part in parts:
        target = getattr(target, part, None)
        if target is None:
            return None
    return getattr(target, "season_id", None)


def _league_id(obj) -> int | None:
    path = getattr(type(obj), "LEAGUE_PATH", None)
    if path is None:
        return None
    if path == "":
        return obj.pk
    target = obj
    parts = path.split("__")
    for part in parts[:-1]:
        target = getattr(target, part, None)
        if target is None:
            return None
    return getattr(target, f"{parts[-1]}_id", None)


def audit_log_write(*, actor, action: str, obj, data: dict[str, Any] | None = None) -> AuditLog:
    return AuditLog.objects.create(
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        action=action,
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        data=data or {},
        league_id=_league_id(obj),
        season_id=_season_id(obj),
    )


def snapshot(obj) -> dict[str, Any]:
    """The object's stored fields as JSON-able values (for before/after in the log)."""
    return serializers.serialize("python", [obj])[0]["fields"]
