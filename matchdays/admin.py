from django.contrib import admin

from .models import Attendance, MatchDay, Reserve, SeatingConstraint, SeatingPlan, SeatingSchedule, Substitution


@admin.register(MatchDay)
class MatchDayAdmin(admin.ModelAdmin):
    list_display = ("division", "number", "date", "venue", "status")
    list_filter = ("season", "status")


@admin.register(Reserve)
class ReserveAdmin(admin.ModelAdmin):
    list_display = ("season", "player", "order")


@admin.register(SeatingConstraint)
class SeatingConstraintAdmin(admin.ModelAdmin):
    list_display = ("season", "kind", "player", "other", "table")


@admin.register(Attendance)
class AttendanceAdmin(admin.ModelAdmin):
    list_display = ("match_day", "player", "status", "marked_at")


# Seating and substitutions change only through the services (audited): read-only here.
@admin.register(SeatingPlan, SeatingSchedule, Substitution)
class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
