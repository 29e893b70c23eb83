from django.contrib import admin

from . import models


@admin.register(models.League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "promotion_count"]


@admin.register(models.LeagueRole)
class LeagueRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "league", "role"]
    list_filter = ["role", "league"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "native_name", "membership_number", "tenhou_id", "mahjong_soul_id", "active"]
    search_fields = ["display_name", "native_name", "membership_number"]
    list_filter = ["active"]


@admin.register(models.RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "version", "system", "preset", "is_template"]
    readonly_fields = ["options"]

    def has_change_permission(self, request, obj=None):
        return obj is None  # versions are immutable: revise through the service


class DivisionInline(admin.TabularInline):
    model = models.Division
    extra = 0


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["__str__", "league", "status", "rule_set", "starts_on", "ends_on"]
    list_filter = ["status", "league"]
    inlines = [DivisionInline]


@admin.register(models.QualificationTier)
class TierAdmin(admin.ModelAdmin):
    list_display = ["code", "description", "validity", "division_code", "effective_year", "effective_number", "active"]


@admin.register(models.QualificationApplication)
class ApplicationAdmin(admin.ModelAdmin):
    list_display = ["player", "season", "tier", "status", "submitted_at"]
    list_filter = ["status", "tier"]


@admin.register(models.Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "division", "basis"]
    list_filter = ["season", "division__code", "basis"]


class SeatInline(admin.TabularInline):
    model = models.GameSeat
    extra = 0
    readonly_fields = ["raw_score", "points", "place"]


@admin.register(models.Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "scheduled_at"]
    list_filter = ["season", "division__code", "status"]
    inlines = [SeatInline]


@admin.register(models.Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    list_display = ["player", "season", "offence", "sanction", "points", "assigned_at", "cancelled_at"]

    def has_delete_permission(self, request, obj=None):
        return False  # the ledger is append-only: cancel with a reason instead


@admin.register(models.AuditLog)
class AuditLogAdmin(admin.ModelAdmin):
    list_display = ["at", "actor", "action", "object_type", "object_id"]
    list_filter = ["action"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


admin.site.register(models.Standing)
