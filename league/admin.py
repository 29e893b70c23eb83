from django.contrib import admin, messages
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from kyoku.admin import AuditedAdmin, DerivedReadOnlyAdmin

from . import models, services
from .names import split_confirmable, split_confirmed


class NameSplitFilter(admin.SimpleListFilter):
    title = _("name split")
    parameter_name = "name_split"

    def lookups(self, request, model_admin):
        return [("proposed", _("proposed, not confirmed")), ("confirmed", _("confirmed"))]

    def queryset(self, request, queryset):
        unchecked = Q(name_confirmed_at__isnull=True) | Q(family_name="") | Q(given_name="")
        if self.value() == "proposed":
            return queryset.filter(unchecked)
        if self.value() == "confirmed":
            return queryset.exclude(unchecked)
        return queryset


@admin.register(models.Player)
class PlayerAdmin(AuditedAdmin):
    list_display = [
        "display_name",
        "native_name",
        "family_name",
        "given_name",
        "name_split",
        "membership_number",
        "tenhou_id",
        "mahjong_soul_id",
        "active",
    ]
    search_fields = ["display_name", "native_name", "family_name", "given_name", "membership_number"]
    list_filter = [NameSplitFilter, "active", "name_order"]
    actions = ["name_split_confirm"]
    # the form shows every field in the model's order: the name's parts (family name, given name,
    # name order) follow the display and native names; who confirmed the split, read only
    readonly_fields = ["name_confirmed_at", "name_confirmed_by"]

    @admin.display(description=_("name split"))
    def name_split(self, obj):
        return _("confirmed") if split_confirmed(obj) else _("proposed, not confirmed")

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        # an admin who writes the parts has checked them; a name changed without them has not
        services.player_name_edited(player=obj, actor=request.user, changed=list(form.changed_data))

    @admin.action(description=_("Confirm the name split of the selected players"))
    def name_split_confirm(self, request, queryset):
        players = list(queryset)
        confirmed, refused = 0, []
        for player in players:
            if not split_confirmable(player.family_name, player.given_name):
                refused.append(player.display_name)  # both parts first: an order alone confirms nothing
                continue
            services.player_name_confirm(player=player, actor=request.user)
            confirmed += 1
        self.message_user(
            request,
            ngettext("%(n)d name split confirmed.", "%(n)d name splits confirmed.", confirmed) % {"n": confirmed},
        )
        if refused:
            self.message_user(
                request,
                _("Not confirmed, a part is empty (write both the family and the given name first): %(names)s")
                % {"names": ", ".join(refused)},
                level=messages.WARNING,
            )


@admin.register(models.RuleSet)
class RuleSetAdmin(AuditedAdmin):
    list_display = ["name", "slug", "version", "system", "preset", "is_template"]
    readonly_fields = ["options"]

    def has_change_permission(self, request, obj=None):
        return obj is None  # versions are immutable: revise through the service


class DivisionInline(admin.TabularInline):
    model = models.Division
    extra = 0


@admin.register(models.Season)
class SeasonAdmin(AuditedAdmin):
    list_display = ["__str__", "league", "status", "rule_set", "starts_on", "ends_on"]
    list_filter = ["status", "league"]
    inlines = [DivisionInline]


@admin.register(models.QualificationTier)
class TierAdmin(AuditedAdmin):
    list_display = ["code", "description", "validity", "division_code", "effective_year", "effective_number", "active"]


@admin.register(models.QualificationApplication)
class ApplicationAdmin(AuditedAdmin):
    list_display = ["player", "season", "tier", "status", "submitted_at"]
    list_filter = ["status", "tier"]


@admin.register(models.Entry)
class EntryAdmin(AuditedAdmin):
    list_display = ["player", "division", "basis"]
    list_filter = ["season", "division__code", "basis"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        # the season page's entrant counts: the division joined, and the one left
        from .services import division_summary_entrants

        division_summary_entrants(division_id=obj.division_id)
        if form.initial.get("division") not in (None, obj.division_id):
            division_summary_entrants(division_id=form.initial["division"])

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        from .services import division_summary_entrants

        division_summary_entrants(division_id=obj.division_id)


class SeatInline(admin.TabularInline):
    model = models.GameSeat
    extra = 0
    readonly_fields = ["raw_score", "points", "place"]


@admin.register(models.Game)
class GameAdmin(AuditedAdmin):
    list_display = ["__str__", "status", "scheduled_at"]
    list_filter = ["season", "division__code", "status"]
    inlines = [SeatInline]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        # a status change (e.g. to void) or a move to another division changes the standings:
        # recompute the division in full, in this transaction (admin edits are rare)
        from .services import division_summary_recompute, standings_recompute

        standings_recompute(division=obj.division)
        division_summary_recompute(division=obj.division)
        if form.initial.get("division") not in (None, obj.division_id):
            moved_from = models.Division.objects.get(pk=form.initial["division"])
            standings_recompute(division=moved_from)
            division_summary_recompute(division=moved_from)

    def delete_model(self, request, obj):
        from .services import division_summary_game_moved

        division_summary_game_moved(game=obj, before=obj.status, after=None)
        super().delete_model(request, obj)

    def has_delete_permission(self, request, obj=None):
        # a game with a result (or hands) is part of the standings: void it instead of deleting
        if obj is not None and (hasattr(obj, "result") or obj.hands.exists()):
            return False
        return super().has_delete_permission(request, obj)

    def delete_queryset(self, request, queryset):
        kept = [g for g in queryset if hasattr(g, "result") or g.hands.exists()]
        if kept:
            self.message_user(
                request,
                _("Games with a result or hands cannot be deleted (void them instead): %s")
                % ", ".join(str(g) for g in kept),
                level="error",
            )
        for game in queryset:
            if game not in kept:
                self.delete_model(request, game)


@admin.register(models.GameResult)
class GameResultAdmin(DerivedReadOnlyAdmin):
    """Results change through result entry or the hands (which re-derive points and standings)."""

    list_display = ["game", "scores", "points", "entered_at"]


@admin.register(models.Penalty)
class PenaltyAdmin(AuditedAdmin):
    list_display = ["player", "season", "offence", "sanction", "points", "assigned_at", "cancelled_at"]
    # what counts in the standings is set by the referee desk (issue, cancel with a reason)
    readonly_fields = [
        "season",
        "player",
        "game",
        "hand_number",
        "offence",
        "sanction",
        "points",
        "ruling",
        "assigned_by",
        "cancelled_at",
        "cancelled_by",
        "cancel_reason",
    ]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # the ledger is append-only: cancel with a reason instead


@admin.register(models.Standing)
class StandingAdmin(DerivedReadOnlyAdmin):
    list_display = ["division", "rank", "player", "total_points", "games"]
    list_filter = ["season", "division__code"]
