from django.contrib import admin

from .models import PlayerRating, RatingEvent


class _ReadOnly(admin.ModelAdmin):
    """Derived rows: rebuilt by ``manage.py ratings_recompute``, never edited by hand."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(_ReadOnly):
    list_display = ["player", "league", "ordinal", "mu", "sigma", "games", "updated_at"]
    list_filter = ["league"]
    search_fields = ["player__display_name", "player__native_name"]


@admin.register(RatingEvent)
class RatingEventAdmin(_ReadOnly):
    list_display = ["player", "game", "order_key", "place", "ordinal_before", "ordinal"]
    list_filter = ["league"]
    search_fields = ["player__display_name"]
