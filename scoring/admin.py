from django.contrib import admin

from kyoku.admin import DerivedReadOnlyAdmin

from . import models


@admin.register(models.HandRecord)
class HandRecordAdmin(DerivedReadOnlyAdmin):
    """A hand is corrected through the scorekeeper or the API, which re-settle the later hands,
    the result and the standings; an edit here would leave them inconsistent."""

    list_display = ["game", "sequence", "entered_at"]
