"""Django admin that keeps the audit trail: every add, change and delete made in the admin
writes an audit row (who, when, before and after) in the same transaction as the change
(Django admin runs each change view in a transaction). Models whose rows are derived are
read-only here: they change only through the services that derive them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from . import models
from .audit import audit_log_write, snapshot


if TYPE_CHECKING:  # ModelAdmin is generic in the stubs only (no django_stubs_ext at run time)
    _ModelAdmin = admin.ModelAdmin[Model]
    _AuditLogAdmin = admin.ModelAdmin[models.AuditLog]
else:
    _ModelAdmin = _AuditLogAdmin = admin.ModelAdmin


def _label(obj: Model) -> str:
    return str(obj._meta.model_name)


class AuditedAdmin(_ModelAdmin):
    def save_model(self, request: HttpRequest, obj: Model, form: Any, change: Any) -> None:
        before = snapshot(type(obj)._default_manager.get(pk=obj.pk)) if change and obj.pk else None
        super().save_model(request, obj, form, change)
        audit_log_write(
            actor=request.user,
            action=f"admin.{_label(obj)}.{'change' if change else 'add'}",
            obj=obj,
            data={"before": before, "after": snapshot(obj), "changed": list(getattr(form, "changed_data", []))},
        )

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: Any) -> None:
        befores = {f.instance.pk: snapshot(f.instance) for f in formset.forms if f.instance.pk and f.has_changed()}
        instances = formset.save(commit=False)
        for obj in formset.deleted_objects:
            audit_log_write(
                actor=request.user, action=f"admin.{_label(obj)}.delete", obj=obj, data={"before": snapshot(obj)}
            )
            obj.delete()
        for obj in instances:
            created = obj.pk is None
            obj.save()
            audit_log_write(
                actor=request.user,
                action=f"admin.{_label(obj)}.{'add' if created else 'change'}",
                obj=obj,
                data={"before": befores.get(obj.pk), "after": snapshot(obj)},
            )
        formset.save_m2m()

    def delete_model(self, request: HttpRequest, obj: Model) -> None:
        before = snapshot(obj)
        audit_log_write(actor=request.user, action=f"admin.{_label(obj)}.delete", obj=obj, data={"before": before})
        super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Model]) -> None:
        for obj in queryset:  # one audit row per object, and each object's own delete rules
            self.delete_model(request, obj)


class DerivedReadOnlyAdmin(_ModelAdmin):
    """Rows computed from raw facts (standings, settlements, results' points): shown, never edited."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


def refuse(request: HttpRequest, text: str) -> None:
    messages.error(request, text)


# ---------------------------------------------------------------- the platform's own models


@admin.register(models.League)
class LeagueAdmin(AuditedAdmin):
    list_display = ["name", "slug", "promotion_count"]


@admin.register(models.LeagueRole)
class LeagueRoleAdmin(AuditedAdmin):
    list_display = ["user", "league", "role"]
    list_filter = ["role", "league"]


@admin.register(models.AuditLog)
class AuditLogAdmin(_AuditLogAdmin):
    list_display = ["at", "actor", "action", "object_type", "object_id", "league_id", "season_id"]
    list_filter = ["action", "object_type"]
    search_fields = ["object_id", "action"]

    def has_change_permission(self, request: HttpRequest, obj: models.AuditLog | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: models.AuditLog | None = None) -> bool:
        return False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
