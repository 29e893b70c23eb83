"""Referee pages. Reads through selectors, writes through services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league import roles
from league.forms import service_errors_to_form, service_errors_to_messages
from league.models import SEAT_NAMES, Game, Season
from league.selectors import games_for

from . import selectors, services
from .forms import AppealDecisionForm, AppealForm, IncidentForm, RulingDecisionForm
from .models import Appeal, Incident, Ruling


def _zh() -> bool:
    return (get_language() or "en").lower().startswith("zh")


def explained(ruling: dict | None) -> list[dict]:
    """A ruling's explanation in the active language, one line per step with the clauses it cites."""
    if not ruling or "explanation" not in ruling:
        return []
    texts = ruling.get("explanation_zh") if _zh() and ruling.get("explanation_zh") else ruling["explanation"]
    data = ruling.get("explanation_data") or [{}] * len(texts)
    return [{"text": t, "clauses": d.get("clauses", [])} for t, d in zip(texts, data)]


def _timeline(incident: Incident) -> list[dict]:
    names = selectors.seat_names(incident)
    rows = []
    for i, ev in enumerate(incident.events):
        seat = ev.get("seat")
        extras = {k: v for k, v in ev.items() if k not in ("t", "seat", "act")}
        rows.append({"i": i, "t": ev.get("t"), "seat": seat, "act": ev.get("act"), "extras": extras,
                     "wind": SEAT_NAMES[(seat - incident.dealer) % 4] if isinstance(seat, int) else "",
                     "player": names.get(seat, "")})
    return rows


def _require_referee(request, league=None):
    if not roles.is_referee(request.user, league):
        raise PermissionDenied


@login_required
def dashboard(request):
    _require_referee(request)
    return render(request, "referee/dashboard.html", {
        "incidents": selectors.incidents_open(request.user),
        "appeals": selectors.appeals_pending(request.user),
        "recent": selectors.rulings_public()[:20],
        "games": games_for().exclude(status=Game.Status.VOID).order_by("-season__year", "-season__number",
                                                                          "-match_day", "table")[:40],
    })


@login_required
def incident_new(request):
    game_id = str(request.GET.get("game") or request.POST.get("game") or "")
    game = get_object_or_404(games_for().select_related("season__rule_set", "season__league"),
                             pk=int(game_id) if game_id.isdigit() else 0)
    _require_referee(request, game.season.league)
    form = IncidentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        v = form.cleaned_data
        try:
            incident = services.incident_log(game=game, hand_number=v["hand_number"], dealer=v["dealer"],
                                             kind=v["kind"], events=v["events"], description=v["description"],
                                             private_notes=v["private_notes"], reporter=request.user)
        except ValidationError as exc:
            service_errors_to_form(form, exc)
        else:
            messages.success(request, _("Incident logged. Check the proposed ruling and confirm it."))
            return redirect("referee-incident", incident_id=incident.pk)
    return render(request, "referee/incident_form.html", {
        "game": game, "form": form, "seats": list(game.seats.all()),
        "rules": services.rules_record_for(game.season), "i18n": _js_strings(),
    })


def _js_strings() -> dict:
    """Labels for static/incident.js, in the active language."""
    return {
        "lang": "zh" if _zh() else "en", "remove": _("Remove"), "proposed": _("Proposed ruling"),
        "procedure": _("Procedure at the last event"), "play_started": _("PLAY began"),
        "still_deal": _("not yet (still in DEAL)"), "winners": _("Winners"), "corrections": _("Deal corrections"),
        "allowed": _("may correct"), "refused": _("may not correct (dead hand)"),
        "invalid": _("Invalid calls / declarations (event #)"), "offences": _("Offences"),
        "clauses": _("Clauses applied"), "explanation": _("Explanation"), "none": _("none"), "seat": _("seat"),
        "error": _("The timeline has an error"), "failed": _("The preview failed"),
    }


def _incident_for(request, incident_id) -> Incident:
    incident = get_object_or_404(selectors.incidents_visible_to(request.user), pk=incident_id)
    return incident


@login_required
def incident_detail(request, incident_id):
    incident = _incident_for(request, incident_id)
    is_ref = roles.is_referee(request.user, incident.game.season.league)
    player = roles.player_of(request.user)
    rulings = list(selectors.rulings_for(incident))
    current = rulings[-1] if rulings else None
    proposed, proposal_error = None, None
    if is_ref and incident.status == Incident.Status.OPEN:
        try:
            proposed = services.ruling_propose(incident=incident)
        except ValidationError as exc:
            proposal_error = "; ".join(f"{f}: {', '.join(m)}" for f, m in exc.message_dict.items())
    pending = Appeal.objects.filter(ruling__incident=incident, status=Appeal.Status.PENDING).select_related(
        "player", "ruling").first()
    return render(request, "referee/incident.html", {
        "incident": incident, "timeline": _timeline(incident), "seats": list(incident.game.seats.all()),
        "is_ref": is_ref, "private": selectors.can_see_private(request.user, incident),
        "proposed": proposed, "proposed_lines": explained(proposed), "proposal_error": proposal_error,
        "rulings": [{"r": r, "lines": explained(r.final)} for r in rulings],
        "current": current,
        "decide_form": RulingDecisionForm() if is_ref and incident.status == Incident.Status.OPEN else None,
        "appeal_form": AppealForm() if (current and incident.status == Incident.Status.RULED
                                         and services.player_concerned(current, player)) else None,
        "pending_appeal": pending,
        "appeal_decision_form": AppealDecisionForm() if (is_ref and pending) else None,
        "same_referee": bool(pending and pending.ruling.referee_id == request.user.pk),
    })


@login_required
@require_POST
def ruling_decide(request, incident_id):
    incident = get_object_or_404(Incident.objects.select_related("game__season__league"), pk=incident_id)
    _require_referee(request, incident.game.season.league)
    form = RulingDecisionForm(request.POST)
    if not form.is_valid():
        for field, errs in form.errors.items():
            for e in errs:
                messages.error(request, f"{field}: {e}" if field != "__all__" else e)
        return redirect("referee-incident", incident_id=incident.pk)
    v = form.cleaned_data
    accept = v["decision"] == "accept"
    try:
        ruling = services.ruling_decide(incident=incident, referee=request.user, accept=accept,
                                        override=None if accept else (v["override"] or {}),
                                        override_reason=v["override_reason"], penalties=v["extra_penalties"])
    except ValidationError as exc:
        service_errors_to_messages(request, exc)
    else:
        n = ruling.penalties.count()
        messages.success(request, _("Ruling stored; %(n)d penalty(ies) issued.") % {"n": n})
    return redirect("referee-incident", incident_id=incident.pk)


@login_required
@require_POST
def incident_close(request, incident_id):
    incident = get_object_or_404(Incident.objects.select_related("game__season__league"), pk=incident_id)
    _require_referee(request, incident.game.season.league)
    try:
        services.incident_close(incident=incident, actor=request.user)
    except ValidationError as exc:
        service_errors_to_messages(request, exc)
    else:
        messages.success(request, _("Incident closed."))
    return redirect("referee-incident", incident_id=incident.pk)


@login_required
@require_POST
def appeal_file(request, ruling_id):
    ruling = get_object_or_404(Ruling.objects.select_related("incident"), pk=ruling_id)
    player = roles.player_of(request.user)
    if not services.player_concerned(ruling, player):
        raise PermissionDenied
    form = AppealForm(request.POST)
    if form.is_valid():
        try:
            services.appeal_file(ruling=ruling, player=player, reason=form.cleaned_data["reason"],
                                 actor=request.user)
        except ValidationError as exc:
            service_errors_to_messages(request, exc)
        else:
            messages.success(request, _("Appeal filed. Another referee will decide it."))
    else:
        messages.error(request, _("Give a reason for the appeal."))
    return redirect("referee-incident", incident_id=ruling.incident_id)


@login_required
@require_POST
def appeal_decide(request, appeal_id):
    appeal = get_object_or_404(Appeal.objects.select_related("ruling__incident__game__season__league"),
                               pk=appeal_id)
    _require_referee(request, appeal.ruling.incident.game.season.league)
    form = AppealDecisionForm(request.POST)
    if form.is_valid():
        v = form.cleaned_data
        try:
            services.appeal_decide(appeal=appeal, referee=request.user, uphold=v["decision"] == "uphold",
                                   reason=v["reason"], new_final=v["new_final"])
        except ValidationError as exc:
            service_errors_to_messages(request, exc)
        else:
            messages.success(request, _("Appeal decided."))
    else:
        for field, errs in form.errors.items():
            for e in errs:
                messages.error(request, f"{field}: {e}")
    return redirect("referee-incident", incident_id=appeal.ruling.incident_id)


@login_required
def mine(request):
    player = roles.player_of(request.user)
    rulings = list(selectors.rulings_concerning(player=player)) if player else []
    return render(request, "referee/mine.html", {
        "player": player, "rulings": [{"r": r, "lines": explained(r.final)} for r in rulings],
    })


def season_rulings(request, season_id):
    season = get_object_or_404(Season.objects.select_related("league"), pk=season_id)
    rulings = selectors.rulings_public(season=season)
    return render(request, "referee/season_rulings.html", {
        "season": season, "rulings": [{"r": r, "lines": explained(r.final)} for r in rulings],
    })
