"""A league's qualification tiers for its admins (/leagues/<slug>/tiers/): the list, and add, edit
and retire (a retired tier takes no new application; those filed keep it). The writes are
league.services.tiers."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from kyoku.access import ADMIN, access, object_for_request
from kyoku.models import League
from kyoku.principals import request_actor

from .forms_tiers import TierForm, tier_words
from .models import QualificationTier
from .services import tiers as tier_services

TIER_ACTIONS = {"add": ADMIN, "edit": ADMIN, "retire": ADMIN}


def _tier(league: League, value: str | None) -> QualificationTier | None:
    """One of this league's tiers by its id (another league's, or none, is None)."""
    try:
        return QualificationTier.objects.get(league=league, pk=int(value or ""))
    except (QualificationTier.DoesNotExist, ValueError, OverflowError):
        return None


def _form(league: League, tier: QualificationTier | None, data=None) -> TierForm:
    rows = len(tier.requirements.get("accounts", [])) if tier is not None else 0
    codes = tier_services.league_division_codes(league=league)
    initial = TierForm.initial_of(tier) if tier is not None and data is None else None
    return TierForm(data, initial=initial, division_codes=codes, rows=rows)


@access("league", GET=ADMIN, POST=ADMIN, actions=TIER_ACTIONS)
def league_tiers(request: HttpRequest, slug: str) -> HttpResponse:
    league = object_for_request(request, League.objects.all(), slug=slug)
    editing = _tier(league, request.GET.get("edit")) if request.method == "GET" else None
    form = _form(league, editing)
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        editing = _tier(league, request.POST.get("tier")) if action in ("edit", "retire") else None
        if action in ("edit", "retire") and editing is None:
            messages.error(request, _("tier: no such tier in this league."))
            status = 400
        elif action == "retire" and editing is not None:
            tier_services.tier_retire(tier=editing, actor=request_actor(request))
            messages.success(
                request, _("Tier %(code)s retired: no new application; those filed keep it.") % {"code": editing.code}
            )
            return redirect("league-tiers", slug=league.slug)
        else:
            form = _form(league, editing, request.POST)
            if _save(request, league, editing, form):
                return redirect("league-tiers", slug=league.slug)
            status = 400
    tiers = QualificationTier.objects.filter(league=league).order_by("-active", "code")
    return render(
        request,
        "league/tiers.html",
        {
            "league": league,
            "tiers": [(t, tier_words(t)) for t in tiers],
            "form": form,
            "editing": editing,
        },
        status=status,
    )


def _save(request: HttpRequest, league: League, tier: QualificationTier | None, form: TierForm) -> bool:
    """Add or change the tier from a valid form; False (errors on the form) otherwise."""
    if not form.is_valid():
        return False
    try:
        if tier is None:
            saved = tier_services.tier_create(league=league, fields=form.service_fields(), actor=request_actor(request))
            messages.success(request, _("Tier %(code)s added.") % {"code": saved.code})
        else:
            saved = tier_services.tier_update(tier=tier, fields=form.service_fields(), actor=request_actor(request))
            messages.success(request, _("Tier %(code)s saved.") % {"code": saved.code})
    except ValidationError as exc:
        form.service_errors(exc)
        return False
    return True
