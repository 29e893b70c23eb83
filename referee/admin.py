from django.contrib import admin

from kyoku.admin import AuditedAdmin, DerivedReadOnlyAdmin

from . import models


@admin.register(models.Incident)
class IncidentAdmin(AuditedAdmin):
    list_display = ["id", "game", "kind", "status", "created_at"]
    list_filter = ["status", "kind"]
    readonly_fields = ["events"]  # the timeline is the ruling's evidence: log a new incident instead


@admin.register(models.Ruling)
class RulingAdmin(DerivedReadOnlyAdmin):
    """A ruling is decided once and changed only by an appeal (referee desk)."""

    list_display = ["id", "incident", "decision", "decided_at"]


@admin.register(models.Appeal)
class AppealAdmin(AuditedAdmin):
    list_display = ["id", "ruling", "player", "status", "submitted_at"]

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.PenaltyCatalogue)
class PenaltyCatalogueAdmin(DerivedReadOnlyAdmin):
    """Versions are immutable: revise the catalogue on the referee desk (a new version)."""

    list_display = ["league", "version", "created_at"]
