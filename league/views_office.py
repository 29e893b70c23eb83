"""The season office for a league admin: the season's steps in order, and the promotion page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from kyoku.authz import Need, object_for_actor

from . import office
from .models import Entry, Season


def _season(request, season_id):
    return object_for_actor(Season.objects.select_related("league", "rule_set"), actor=request.user,
                            need=Need.ADMIN, pk=season_id)


@login_required
def season_office(request, season_id):
    season = _season(request, season_id)
    return render(request, "league/office/season.html", {
        "season": season, "next_season": office.season_next_find(season=season),
        "divisions": season.divisions.all(), "entries": Entry.objects.filter(season=season).count(),
    })


@login_required
@require_POST
def season_next_create(request, season_id):
    season = _season(request, season_id)
    nxt = office.season_create_next(season=season, actor=request.user)
    messages.success(request, _("Next season %(season)s is ready.") % {"season": nxt})
    return redirect("office-season", season_id=season.pk)


@login_required
@require_POST
def season_close(request, season_id):
    season = _season(request, season_id)
    office.season_close(season=season, actor=request.user)
    messages.success(request, _("Season closed."))
    return redirect("office-season", season_id=season.pk)


@login_required
def season_promotion(request, season_id):
    """GET previews who moves; POST confirms and creates the next season's entries."""
    season = _season(request, season_id)
    nxt = office.season_next_find(season=season)
    if request.method == "POST":
        try:
            summary = office.season_promotion_confirm(season=season, actor=request.user)
        except ValidationError:
            messages.error(request, _("Create the next season first."))
            return redirect("office-promotion", season_id=season.pk)
        messages.success(request, _("%(n)s entries created in the next season.") % {"n": summary["created"]})
        return redirect("office-promotion", season_id=season.pk)
    entered = Entry.objects.filter(season=nxt).count() if nxt else 0
    return render(request, "league/office/promotion.html", {
        "season": season, "next_season": nxt, "rows": office.promotion_preview(season=season),
        "entered": entered,
    })
