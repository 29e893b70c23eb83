"""Referee pages. Reads through selectors, writes through services."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from kyoku.access import ADMIN, ANY_REFEREE, LOGGED_IN, OWNER, PUBLIC, REFEREE, SELF, access, object_for_request
from kyoku.authz import is_admin
from kyoku.labels import LABELS, offence_label
from kyoku import authz
from league.forms import service_errors_to_form, service_errors_to_messages
from kyoku.models import League
from league.models import Game, Player, Season
from league.selectors import games_for

from . import selectors, services
from .seats import explanation_lines, reader_lang, ruling_named, seat_label, seat_labels_by_dealer, seat_rows
from .forms import (
    AppealDecisionForm,
    AppealForm,
    CatalogueFormSet,
    CatalogueHeadForm,
    IncidentForm,
    PenaltyFormSet,
    RulingDecisionForm,
    catalogue_initial,
)
from .models import Appeal, Incident, PenaltyCatalogue, Ruling
from league.names import player_display_name


def ruling_shown(ruling: dict | None, incident: Incident, names: dict[int, str] | None = None) -> dict:
    """A ruling as the pages show it: its seats and explanation named by the one seat-naming
    function (``referee.seats``), in the reader's language."""
    names = selectors.seat_names(incident) if names is None else names
    return {
        "named": ruling_named(ruling, dealer=incident.dealer, names=names, events=incident.events),
        "lines": explanation_lines(ruling, dealer=incident.dealer, names=names),
    }


def _timeline(incident: Incident) -> list[dict]:
    names = selectors.seat_names(incident)
    rows = []
    for i, ev in enumerate(incident.events):
        seat = ev.get("seat")
        extras = {k: v for k, v in ev.items() if k not in ("t", "seat", "act")}
        rows.append(
            {
                "i": i,
                "t": ev.get("t"),
                "seat": seat,
                "act": ev.get("act"),
                "extras": extras,
                "label": seat_label(seat, dealer=incident.dealer, names=names) if isinstance(seat, int) else "",
            }
        )
    return rows


@access(GET=ANY_REFEREE)
def dashboard(request):
    """The desk's front page: for a referee of any league (each object it lists is scoped)."""
    return render(
        request,
        "referee/dashboard.html",
        {
            "incidents": selectors.incidents_open(request.user),
            "appeals": selectors.appeals_pending(request.user),
            "recent": selectors.rulings_public()[:20],
            "catalogue_leagues": [lg for lg in League.objects.order_by("name") if authz.is_referee(request.user, lg)],
            "games": games_for()
            .exclude(status=Game.Status.VOID)
            .order_by("-season__year", "-season__number", "-match_day", "table")[:40],
        },
    )


@access("game", GET=REFEREE, POST=REFEREE, query="game={game_id}")
def incident_new(request):
    game_id = str(request.GET.get("game") or request.POST.get("game") or "")
    game = object_for_request(
        request,
        games_for().select_related("season__rule_set", "season__league"),
        pk=int(game_id) if game_id.isdigit() else 0,
    )
    seats = list(game.seats.select_related("player"))
    form = IncidentForm(request.POST or None, seats=seats)
    if request.method == "POST" and form.is_valid():
        v = form.cleaned_data
        try:
            incident = services.incident_log(
                game=game,
                hand_number=v["hand_number"],
                dealer=v["dealer"],
                kind=v["kind"],
                events=v["events"],
                description=v["description"],
                private_notes=v["private_notes"],
                reporter=request.user,
            )
        except ValidationError as exc:
            service_errors_to_form(form, exc)
        else:
            messages.success(request, _("Incident logged. Check the proposed ruling and confirm it."))
            return redirect("referee-incident", incident_id=incident.pk)
    names = {s.seat: player_display_name(s.player) for s in seats}
    dealer = form["dealer"].value()
    dealer = int(dealer) if str(dealer) in ("0", "1", "2", "3") else 0
    return render(
        request,
        "referee/incident_form.html",
        {
            "game": game,
            "form": form,
            "seats": seat_rows(dealer=dealer, names=names),
            "rules": services.rules_record_for(game.season),
            "i18n": _js_strings(names),
        },
    )


def _js_strings(names: dict[int, str]) -> dict:
    """Labels for static/incident.js, in the active language; ``seat_labels[dealer][seat]`` and
    ``winds[dealer][seat]`` name the seats exactly as the ruling will once the dealer is chosen."""
    lang = reader_lang()
    return {
        "lang": lang,
        "remove": _("Remove"),
        "proposed": _("Proposed ruling"),
        "seat_labels": seat_labels_by_dealer(names=names, lang=lang),
        "winds": {d: [r["wind_name"] for r in seat_rows(dealer=d, names=names, lang=lang)] for d in range(4)},
        "procedure": _("Procedure at the last event"),
        "play_started": _("PLAY began"),
        "still_deal": _("not yet (still in DEAL)"),
        "winners": _("Winners"),
        "corrections": _("Deal corrections"),
        "allowed": _("may correct"),
        "refused": _("may not correct (dead hand)"),
        "invalid": _("Invalid calls / declarations"),
        "offences": _("Offences"),
        "clauses": _("Clauses applied"),
        "explanation": _("Explanation"),
        "none": _("none"),
        "seat": _("seat"),
        "error": _("The timeline has an error"),
        "failed": _("The preview failed"),
        "labels": {
            "code": {
                **{k: str(v) for k, v in LABELS["act"].items()},
                **{k: str(v) for k, v in LABELS["event_detail"].items() if k not in ("kind", "by")},
            },
            "offence": {k: str(v) for k, v in LABELS["offence"].items()},
            "phase": {k: str(v) for k, v in LABELS["phase"].items()},
            "play_start": {k: str(v) for k, v in LABELS["play_start"].items()},
        },
    }


def _incident_for(request, incident_id) -> Incident:
    """An incident the actor may see (404 for others: its existence is not told), at the declared level."""
    return object_for_request(request, selectors.incidents_visible_to(request.user), pk=incident_id)


@access("incident", GET=OWNER)
def incident_detail(request, incident_id):
    incident = _incident_for(request, incident_id)
    is_ref = authz.is_referee(request.user, incident.game.season.league)
    player = authz.player_of(request.user)
    rulings = list(selectors.rulings_for(incident))
    current = rulings[-1] if rulings else None
    proposed, proposal_error = None, None
    if is_ref and incident.status == Incident.Status.OPEN:
        try:
            proposed = services.ruling_propose(incident=incident)
        except ValidationError as exc:
            proposal_error = "; ".join(f"{f}: {', '.join(m)}" for f, m in exc.message_dict.items())
    pending = (
        Appeal.objects.filter(ruling__incident=incident, status=Appeal.Status.PENDING)
        .select_related("player", "ruling")
        .first()
    )
    seats = list(incident.game.seats.select_related("player"))
    names = {s.seat: player_display_name(s.player) for s in seats}
    dealer = incident.dealer
    catalogue = selectors.penalty_catalogue_data(league=incident.game.season.league)
    deciding = is_ref and incident.status == Incident.Status.OPEN
    return render(
        request,
        "referee/incident.html",
        {
            "catalogue_rows": _catalogue_rows(catalogue) if is_ref else [],
            "catalogue": catalogue,
            "extra_formset": PenaltyFormSet(prefix="extra", seats=seats, catalogue=catalogue, dealer=dealer)  # type: ignore[call-arg]
            if deciding
            else None,
            "appeal_formset": PenaltyFormSet(prefix="newpen", seats=seats, catalogue=catalogue, dealer=dealer)  # type: ignore[call-arg]
            if (is_ref and pending)
            else None,
            "incident": incident,
            "timeline": _timeline(incident),
            "seats": seat_rows(dealer=dealer, names=names),
            "dealer_label": seat_label(dealer, dealer=dealer, names=names),
            "is_ref": is_ref,
            "private": selectors.can_see_private(request.user, incident),
            "proposed": proposed,
            "proposed_shown": ruling_shown(proposed, incident, names),
            "proposal_error": proposal_error,
            "rulings": [{"r": r, **ruling_shown(r.final, incident, names)} for r in rulings],
            "current": current,
            "decide_form": RulingDecisionForm(seats=seats, proposed=proposed, dealer=dealer) if deciding else None,
            "appeal_form": AppealForm()
            if (
                current
                and incident.status == Incident.Status.RULED
                and services.player_concerned(current, cast(Player | None, player))
            )
            else None,
            "pending_appeal": pending,
            "appeal_decision_form": AppealDecisionForm(
                seats=seats, current=pending.ruling.final if pending else None, dealer=dealer
            )
            if (is_ref and pending)
            else None,
            "same_referee": bool(pending and pending.ruling.referee_id == request.user.pk),
        },
    )


@access("incident", GET=OWNER)
def incident_print(request, incident_id):
    """The incident and its rulings on one printable page: the referee's word at the table, naming
    every seat as the incident page and the API do."""
    incident = _incident_for(request, incident_id)
    seats = list(incident.game.seats.select_related("player"))
    names = {s.seat: player_display_name(s.player) for s in seats}
    rulings = list(selectors.rulings_for(incident))
    return render(
        request,
        "referee/incident_print.html",
        {
            "incident": incident,
            "timeline": _timeline(incident),
            "seats": seat_rows(dealer=incident.dealer, names=names),
            "dealer_label": seat_label(incident.dealer, dealer=incident.dealer, names=names),
            "private": selectors.can_see_private(request.user, incident),
            "catalogue": selectors.penalty_catalogue_data(league=incident.game.season.league),
            "rulings": [{"r": r, **ruling_shown(r.final, incident, names)} for r in rulings],
        },
    )


@access("incident", POST=REFEREE)
def ruling_decide(request, incident_id):
    incident = object_for_request(request, Incident.objects.select_related("game__season__league"), pk=incident_id)
    seats = list(incident.game.seats.select_related("player"))
    catalogue = selectors.penalty_catalogue_data(league=incident.game.season.league)
    form = RulingDecisionForm(request.POST, seats=seats, dealer=incident.dealer)
    extra = _penalty_table(request, "extra", seats, catalogue, incident.dealer)
    if not (form.is_valid() & extra.is_valid()):
        _form_errors_to_messages(request, form, extra)
        return redirect("referee-incident", incident_id=incident.pk)
    v = form.cleaned_data
    accept = v["decision"] == "accept"
    try:
        ruling = services.ruling_decide(
            incident=incident,
            referee=request.user,
            accept=accept,
            override=form.override(None),
            override_reason=v["override_reason"],
            penalties=extra.penalties(),
        )
    except ValidationError as exc:
        _service_errors_to_messages(request, exc, form)
    else:
        n = ruling.penalties.count()
        messages.success(
            request,
            ngettext("Ruling stored; %(n)d penalty issued.", "Ruling stored; %(n)d penalties issued.", n) % {"n": n},
        )
    return redirect("referee-incident", incident_id=incident.pk)


@access("incident", POST=REFEREE)
def incident_close(request, incident_id):
    incident = object_for_request(request, Incident.objects.select_related("game__season__league"), pk=incident_id)
    try:
        services.incident_close(incident=incident, actor=request.user)
    except ValidationError as exc:
        service_errors_to_messages(request, exc)
    else:
        messages.success(request, _("Incident closed."))
    return redirect("referee-incident", incident_id=incident.pk)


@access("ruling", POST=SELF)
def appeal_file(request, ruling_id):
    """A player concerned (seated at the incident's game) appeals the ruling."""
    ruling = object_for_request(request, Ruling.objects.select_related("incident"), pk=ruling_id)
    player = authz.player_of(request.user)
    form = AppealForm(request.POST)
    if form.is_valid():
        try:
            services.appeal_file(
                ruling=ruling,
                player=cast(Player | None, player),
                reason=form.cleaned_data["reason"],
                actor=request.user,
            )
        except ValidationError as exc:
            service_errors_to_messages(request, exc)
        else:
            messages.success(request, _("Appeal filed. Another referee will decide it."))
    else:
        messages.error(request, _("Give a reason for the appeal."))
    return redirect("referee-incident", incident_id=ruling.incident_id)


@access("appeal", POST=REFEREE)
def appeal_decide(request, appeal_id):
    appeal = object_for_request(
        request, Appeal.objects.select_related("ruling__incident__game__season__league"), pk=appeal_id
    )
    seats = list(appeal.ruling.incident.game.seats.select_related("player"))
    catalogue = selectors.penalty_catalogue_data(league=appeal.ruling.incident.game.season.league)
    form = AppealDecisionForm(request.POST, seats=seats, dealer=appeal.ruling.incident.dealer)
    table = _penalty_table(request, "newpen", seats, catalogue, appeal.ruling.incident.dealer)
    if form.is_valid() & table.is_valid():
        v = form.cleaned_data
        try:
            services.appeal_decide(
                appeal=appeal,
                referee=request.user,
                uphold=v["decision"] == "uphold",
                reason=v["reason"],
                new_final=form.new_final(table.penalties()),
            )
        except ValidationError as exc:
            _service_errors_to_messages(request, exc, form)
        else:
            messages.success(request, _("Appeal decided."))
    else:
        _form_errors_to_messages(request, form, table)
    return redirect("referee-incident", incident_id=appeal.ruling.incident_id)


@access(GET=LOGGED_IN)
def mine(request):
    player = authz.player_of(request.user)
    rulings = list(selectors.rulings_concerning(player=cast(Player, player))) if player else []
    return render(
        request,
        "referee/mine.html",
        {
            "player": player,
            "rulings": [{"r": r, **ruling_shown(r.final, r.incident)} for r in rulings],
            "catalogue": None,  # rulings of several leagues: offences by the shared names (kyoku/labels.py)
        },
    )


@access("season", GET=PUBLIC)
def season_rulings(request, season_id):
    season = object_for_request(request, Season.objects.select_related("league"), pk=season_id)
    rulings = selectors.rulings_public(season=season)
    return render(
        request,
        "referee/season_rulings.html",
        {
            "season": season,
            "catalogue": selectors.penalty_catalogue_data(league=season.league),
            "rulings": [{"r": r, **ruling_shown(r.final, r.incident)} for r in rulings],
        },
    )


def _form_errors_to_messages(request, form, formset) -> None:
    """Form and table errors as messages naming the field's label (translated), never its code."""
    for field, errs in form.errors.items():
        name = form.fields[field].label if field in form.fields else ""
        for e in errs:
            messages.error(request, f"{name}: {e}" if name else e)
    for e in formset.non_form_errors():
        messages.error(request, e)
    for i, errors in enumerate(formset.errors, start=1):
        for field, errs in errors.items():
            name = formset.forms[i - 1].fields[field].label if field in formset.forms[i - 1].fields else ""
            for e in errs:
                messages.error(request, _("Row %(n)d") % {"n": i} + (f" · {name}: {e}" if name else f": {e}"))


def _catalogue_rows(catalogue: dict | None) -> list[dict]:
    """The catalogue's offences for display: name, code, sanction, points, clauses."""
    rows = []
    for code, entry in ((catalogue or {}).get("offences") or {}).items():
        rows.append(
            {
                "code": code,
                "name": offence_label(code, catalogue),
                "sanction": entry.get("sanction"),
                "points": entry.get("points"),
                "clauses": entry.get("clauses", []),
            }
        )
    return sorted(rows, key=lambda r: str(r["name"]))


@access("league", GET=REFEREE, POST=ADMIN)
def catalogue_edit(request, league_id):
    """The league's penalty catalogue as a table: referees read it, admins revise it (a new version)."""
    league = object_for_request(request, League, pk=league_id)
    can_edit = is_admin(request.user, league)  # whether to offer the form
    current = (
        services.penalty_catalogue_current(league=league)
        if request.method == "POST"
        else selectors.penalty_catalogue_latest(league=league)
    )
    if current is None:  # nothing stored yet: show the default, stored on the first save
        current = PenaltyCatalogue(league=league, version=1, data=selectors.penalty_catalogue_data(league=league))
    if request.method == "POST":
        head = CatalogueHeadForm(request.POST)
        table = CatalogueFormSet(request.POST, prefix="offences")
        if head.is_valid() & table.is_valid():
            data = {k: v for k, v in current.data.items() if k not in ("offences", "version")}
            data.update(version=head.cleaned_data["version"], offences=table.offences())  # type: ignore[attr-defined]  # a BaseCatalogueFormSet
            try:
                revised = services.penalty_catalogue_revise(league=league, data=data, actor=request.user)
            except ValidationError as exc:
                for field, msgs in exc.message_dict.items():
                    for msg in msgs:
                        head.add_error(None, _catalogue_error(field, msg, current.data))
            else:
                messages.success(request, _("Penalty catalogue saved as version %(v)d.") % {"v": revised.version})
                return redirect("referee-catalogue", league_id=league.pk)
    else:
        head = CatalogueHeadForm(initial={"version": current.data.get("version", "")})
        table = CatalogueFormSet(prefix="offences", initial=catalogue_initial(current.data))
    return render(
        request,
        "referee/catalogue.html",
        {
            "league": league,
            "current": current,
            "head": head,
            "table": table,
            "can_edit": can_edit,
            "rows": _catalogue_rows(current.data),
            "escalation": current.data.get("escalation", []),
            "sanction_points": current.data.get("sanction_points", {}),
        },
    )


def _catalogue_error(field: str, message: str, data: dict) -> str:
    """A catalogue check's message, naming the offence by its display name and the column by its label."""
    parts = field.split(".")
    if parts[0] != "offences" or len(parts) < 2:
        return f"{field}: {message}"
    name = offence_label(parts[1], data)
    if len(parts) == 2 and message.startswith("missing"):
        return _("%(name)s: rulings name this offence, so the catalogue must keep it.") % {"name": name}
    columns = {"points": _("Points"), "sanction": _("Sanction"), "clauses": _("Clauses")}
    column = columns.get(parts[2], parts[2]) if len(parts) > 2 else ""
    return f"{name} · {column}: {message}" if column else f"{name}: {message}"


def _penalty_table(request, prefix, seats, catalogue, dealer: int = 0):
    """The posted penalty table; a post without one (a tool, an older page) is an empty table."""
    data = (
        request.POST
        if f"{prefix}-TOTAL_FORMS" in request.POST
        else {f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"}
    )
    return PenaltyFormSet(data, prefix=prefix, seats=seats, catalogue=catalogue, dealer=dealer)  # type: ignore[call-arg]  # formset_factory keeps the formset class's own keywords; the stubs do not


def _service_errors_to_messages(request, exc: ValidationError, form) -> None:
    """A service's errors as messages; a field the form shows is named by its label, not its code."""
    names = {"override": _("Override"), "new_final": _("New ruling"), "penalties": _("Penalties")}
    for field, msgs in getattr(exc, "message_dict", {"": exc.messages}).items():
        base = field.split(".")[0].split("[")[0]
        name = form.fields[base].label if base in form.fields else names.get(base)
        for msg in msgs:
            messages.error(request, f"{name}: {msg}" if name else msg)
