"""Start a league (/leagues/new/): step 1 shows the presets of every rule system in words, step 2
the league, its rules (a riichi preset's options as the typed widgets of the season rules page,
or the options that differ as JSON), its first season and its divisions. It lives beside the rules
pages, whose forms it reuses; the write is league.services.leagues.league_start."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from kyoku.access import LOGGED_IN, access
from kyoku.models import League
from kyoku.principals import request_user_actor
from league.forms import service_errors_to_form
from league.forms_start import LeagueStartForm, preset_names, preset_system
from league.services import leagues as league_services

# ---------------------------------------------------------------- start a league


def _presets_context() -> dict[str, Any]:
    from .selectors import riichi_presets

    sources = riichi_presets()["sources"]
    return {
        "presets": [(name, preset_words(name), preset_system(name), sources.get(name, "")) for name in preset_names()]
    }


def preset_words(preset: str) -> str:
    """A preset's name in words: a riichi preset's own, else its rule system's (Zung Jung, Beijing)."""
    from kyoku.labels import label

    return label(preset, "preset" if preset_system(preset) == "riichi" else "rule_system")


def _rules_form(request: HttpRequest, preset: str) -> Any:
    """The season rules page's typed option widgets for a riichi preset (prefix ``rules``)."""
    from .engine.riichi import PRESETS
    from .forms import RiichiRulesForm

    if preset_system(preset) != "riichi":
        return None
    data = request.POST if request.method == "POST" and any(k.startswith("rules-") for k in request.POST) else None
    form = RiichiRulesForm(data, preset=preset, current=PRESETS[preset], prefix="rules")
    form.fields.pop("notes", None)
    return form


def _overrides(form: LeagueStartForm, rules_form: Any) -> tuple[dict | None, bool]:
    """(overrides, valid): the JSON box when filled, else the typed widgets, else none."""
    if form.cleaned_data.get("overrides") is not None:
        return form.cleaned_data["overrides"], True
    if rules_form is not None and rules_form.is_bound:
        if not rules_form.is_valid():
            return None, False
        return rules_form.overrides, True
    return {}, True


@access(GET=LOGGED_IN, POST=LOGGED_IN)
def league_new(request: HttpRequest) -> HttpResponse:
    """Step 1 (no preset chosen): the presets in words. Step 2: the league, its rules (the
    preset's options as the season rules page shows them), its first season and divisions."""
    preset = (request.POST.get("preset") if request.method == "POST" else request.GET.get("preset")) or ""
    context: dict[str, Any] = {"mode": league_services.league_start_mode(), **_presets_context()}
    if request.method == "GET" and preset not in preset_names():
        return render(request, "league/start/choose.html", context)
    form = LeagueStartForm(request.POST or None, initial={"preset": preset})
    rules_form = _rules_form(request, preset) if preset in preset_names() else None
    if request.method == "POST":
        if form.is_valid():
            overrides, valid = _overrides(form, rules_form)
            if valid:
                try:
                    league = _start(request, form, overrides)
                except ValidationError as exc:
                    service_errors_to_form(form, exc)
                else:
                    return _started(request, league)
        context.update({"form": form, "rules_form": rules_form, "preset": preset, "preset_words": preset_words(preset)})
        return render(request, "league/start/new.html", context, status=400)
    context.update({"form": form, "rules_form": rules_form, "preset": preset, "preset_words": preset_words(preset)})
    return render(request, "league/start/new.html", context)


def _start(request: HttpRequest, form: LeagueStartForm, overrides: dict | None) -> League:
    v = form.cleaned_data
    return league_services.league_start(
        name=v["name"],
        name_zh=v["name_zh"],
        slug=v["slug"],
        languages=v["languages"],
        time_zone=v["time_zone"],
        promotion_count=v["promotion_count"],
        preset=v["preset"],
        overrides=overrides,
        season_year=v["season_year"],
        season_number=v["season_number"],
        season_label=v["season_label"],
        starts_on=v["starts_on"],
        ends_on=v["ends_on"],
        divisions=form.division_rows(),
        actor=request_user_actor(request),
    )


def _started(request: HttpRequest, league: League) -> HttpResponse:
    if league.approval == League.Approval.PENDING:
        messages.success(
            request, _("%(league)s is started and waits for a site admin's approval.") % {"league": league.name}
        )
    else:
        messages.success(request, _("%(league)s is started: you are its admin.") % {"league": league.name})
    return redirect("league-page", slug=league.slug)
