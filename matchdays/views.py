"""Match day pages: tables (phone friendly), admin review/swap/publish, attendance, sheets, calendars."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from kyoku import authz
from kyoku.access import ADMIN, LOGGED_IN, PUBLIC, REFEREE, access, object_for_request
from league.models import Player, Season

from . import calendar, selectors, services
from .forms import AttendanceForm, AttendanceRosterForm, GenerateForm, MatchDayCreateForm, SubstituteForm, SwapForm
from .models import MatchDay, ReplacedGame, SeatingPlan
from league.names import player_display_name


def _day(request, match_day_id):
    """The match day, checked at the level the view declares for this method."""
    return object_for_request(request, MatchDay.objects.select_related("season__league", "division"), pk=match_day_id)


def _errors(request, exc: ValidationError):
    for errs in getattr(exc, "message_dict", {"": exc.messages}).values():
        for e in errs:
            messages.error(request, e)  # the message alone: the field's code is English


@access("season", GET=PUBLIC)
def match_day_list(request, season_id):
    season = object_for_request(request, Season.objects.select_related("league"), pk=season_id)
    days = MatchDay.objects.filter(season=season).select_related("division")
    is_admin = authz.is_admin(request.user, season.league)
    return render(
        request,
        "matchdays/list.html",
        {
            "season": season,
            "days": days,
            "is_admin": is_admin,
            "create_form": MatchDayCreateForm(season=season) if is_admin else None,
        },
    )


@access("season", POST=ADMIN)
def match_day_add(request, season_id):
    """A league admin adds a match day to one of the season's divisions."""
    season = object_for_request(request, Season.objects.select_related("league"), pk=season_id)
    form = MatchDayCreateForm(request.POST, season=season)
    if not form.is_valid():
        for field, errs in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            for e in errs:
                messages.error(request, f"{label}: {e}" if label else e)
        return redirect("matchday-list", season_id=season.pk)
    data = form.cleaned_data
    try:
        day = services.match_day_create(
            division=data["division"],
            number=data["number"] or services.match_day_next_number(data["division"]),
            date=data["date"],
            start_time=data["start_time"],
            venue=data["venue"],
            leftover=data["leftover"],
            actor=request.user,
        )
    except ValidationError as exc:
        _errors(request, exc)
        return redirect("matchday-list", season_id=season.pk)
    messages.success(request, _("Match day %(n)s added.") % {"n": day.number})
    return redirect("matchday", match_day_id=day.pk)


def _seat_choices(plan):
    choices = []
    for t in selectors.seating_tables(plan):
        for s in t["seats"]:
            if s["player"] is not None:
                # table and wind in the reader's words (1 East / 1 東), as the table cards show them
                choices.append((s["player_id"], f'{t["number"]} {_(s["wind"])} · {s["player"].display_name}'))
    bye = _("bye")
    for p in selectors.bye_players(plan):
        choices.append((p.pk, f"{bye} · {player_display_name(p)}"))
    return choices


@access("matchday", GET=PUBLIC)
def match_day_detail(request, match_day_id):
    day = _day(request, match_day_id)
    league = day.season.league
    is_admin = authz.is_admin(request.user, league)
    plan = SeatingPlan.objects.filter(match_day=day).first()
    visible = selectors.seating_visible(plan, request.user)
    me = authz.player_of(request.user)
    attendance = selectors.attendance_by_player(day)
    context = {
        "day": day,
        "is_admin": is_admin,
        "plan": plan if visible else None,
        "tables": selectors.seating_tables(plan) if visible else [],
        "byes": selectors.bye_players(plan) if visible else [],
        "games": selectors.published_games(day) if plan and plan.published_revision else [],
        "me": me,
        "my_attendance": attendance.get(me.pk) if me else None,
        "attendance_form": AttendanceForm(
            initial={"status": getattr(attendance.get(me.pk) if me else None, "status", None)}
        ),
        "entered": day.division.entries.select_related("player").order_by("player__display_name"),
        "attendance": attendance,
    }
    if authz.is_referee(request.user, league):
        context["roster_form"] = AttendanceRosterForm(
            entries=context["entered"], current={p: a.status for p, a in attendance.items()}
        )
    if is_admin and plan:
        context["unmet"] = _unmet_in_words(plan)
    if is_admin:
        context["generate_form"] = GenerateForm(initial={"seed": plan.seed + 1 if plan else 0})
        if plan:
            context["swap_form"] = SwapForm(choices=_seat_choices(plan))
        if plan and plan.published_revision:
            context["changes"] = selectors.seating_changes(plan)
            seated = [(s.player_id, player_display_name(s.player)) for g in context["games"] for s in g.seats.all()]
            reserves = [(r.player_id, player_display_name(r.player)) for r in selectors.reserves(day)]
            context["substitute_form"] = SubstituteForm(seated=seated, reserves=reserves)
    return render(request, "matchdays/detail.html", context)


def _unmet_in_words(plan) -> list[str]:
    unmet = plan.figures.get("unmet", [])
    names = {
        p.pk: player_display_name(p)
        for p in Player.objects.filter(
            pk__in=[u.get("player") for u in unmet] + [u.get("other") for u in unmet if u.get("other")]
        )
    }
    out = []
    for u in unmet:
        if u["kind"] == "table":
            out.append(
                _("%(player)s should sit at table %(table)s")
                % {"player": names.get(u["player"], u["player"]), "table": u["table"]}
            )
        else:
            out.append(
                _("%(player)s and %(other)s must not meet but share table %(table)s")
                % {
                    "player": names.get(u["player"], u["player"]),
                    "other": names.get(u["other"], u["other"]),
                    "table": u["table"],
                }
            )
    return out


@access("matchday", POST=ADMIN)
def seating_generate(request, match_day_id):
    day = _day(request, match_day_id)
    form = GenerateForm(request.POST)
    if form.is_valid():
        try:
            services.seating_generate(match_day=day, seed=form.cleaned_data["seed"], actor=request.user)
            messages.success(request, _("Seating generated. Review it, then publish."))
        except ValidationError as exc:
            _errors(request, exc)
    else:
        messages.error(request, _("Check the seed."))
    return redirect("matchday", match_day_id=day.pk)


def _plan(request, match_day_id):
    day = _day(request, match_day_id)
    plan = SeatingPlan.objects.filter(match_day=day).first()
    if plan is None:
        raise Http404("no seating yet")
    return day, plan


@access("matchday", POST=ADMIN)
def seating_swap(request, match_day_id):
    day, plan = _plan(request, match_day_id)
    form = SwapForm(request.POST, choices=_seat_choices(plan))
    if form.is_valid():
        try:
            services.seating_swap(
                plan=plan,
                player_a=form.cleaned_data["player_a"],
                player_b=form.cleaned_data["player_b"],
                actor=request.user,
            )
            messages.success(request, _("Players swapped; the figures are updated."))
        except ValidationError as exc:
            _errors(request, exc)
    else:
        messages.error(request, _("Choose two players of this seating."))
    return redirect("matchday", match_day_id=day.pk)


def _published_words(first: bool, changes: selectors.SeatingChanges, games: int) -> str:
    """What publishing did, for the admin who pressed the button."""
    if first:
        return _("Published: %(n)s games created.") % {"n": games}
    if not changes.any:
        return _("Nothing changed since the seating was published: nobody is told.")
    return _(
        "Published again: %(kept)s tables unchanged; tables %(tables)s changed, and only their players are told."
    ) % {"kept": len(changes.kept), "tables": ", ".join(str(t) for t in changes.tables) or "–"}


@access("matchday", POST=ADMIN)
def seating_publish(request, match_day_id):
    day, plan = _plan(request, match_day_id)
    first, changes = plan.published_revision is None, selectors.seating_changes(plan)
    try:
        games = services.seating_publish(plan=plan, actor=request.user)
        messages.success(request, _published_words(first, changes, len(games)))
    except ValidationError as exc:
        _errors(request, exc)
    return redirect("matchday", match_day_id=day.pk)


def game_replaced(request: HttpRequest, game_id: int) -> HttpResponse:
    """The page of a game a new seating replaced (its address was sent to its players; the game
    page's view hands it here): what the table was, what replaced it, where its players play now.
    No such record: 404, as for any game that never was."""
    replaced = object_for_request(
        request, ReplacedGame.objects.select_related("division__season__league"), game_id=game_id
    )
    return render(request, "matchdays/replaced.html", {"r": selectors.game_replacement(replaced)})


@access("matchday", POST=LOGGED_IN)
def attendance_mark(request, match_day_id):
    """A player marks their own attendance; a league admin or referee may mark anyone's."""
    day = _day(request, match_day_id)
    form = AttendanceForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose an attendance."))
        return redirect("matchday", match_day_id=day.pk)
    staff = authz.is_referee(request.user, day.season.league)
    if form.cleaned_data["player"] and staff:
        player = Player.objects.filter(pk=form.cleaned_data["player"]).first()
        if player is None:
            raise Http404("no such player")
    else:
        player = authz.player_of(request.user)
        if player is None or not day.division.entries.filter(player=player).exists():
            raise PermissionDenied(_("Only players of this division mark their attendance."))
    try:
        services.attendance_mark(match_day=day, player=player, status=form.cleaned_data["status"], actor=request.user)
        messages.success(request, _("Attendance saved."))
    except ValidationError as exc:
        _errors(request, exc)
    return redirect("matchday", match_day_id=day.pk)


@access("matchday", POST=REFEREE)
def attendance_roster(request, match_day_id):
    """The desk marks the whole division's attendance with one Save."""
    day = _day(request, match_day_id)
    entries = day.division.entries.select_related("player")
    form = AttendanceRosterForm(request.POST, entries=entries)
    if not form.is_valid():
        messages.error(request, _("Choose an attendance."))
        return redirect("matchday", match_day_id=day.pk)
    try:
        changed = services.attendance_roster_mark(match_day=day, statuses=form.statuses(), actor=request.user)
    except ValidationError as exc:
        _errors(request, exc)
    else:
        messages.success(
            request,
            ngettext("Attendance saved: %(n)s change.", "Attendance saved: %(n)s changes.", changed) % {"n": changed},
        )
    return redirect("matchday", match_day_id=day.pk)


@access("matchday", POST=ADMIN)
def substitute(request, match_day_id):
    day = _day(request, match_day_id)
    games = selectors.published_games(day)
    seated = [(s.player_id, player_display_name(s.player)) for g in games for s in g.seats.all()]
    reserves = [(r.player_id, player_display_name(r.player)) for r in selectors.reserves(day)]
    form = SubstituteForm(request.POST, seated=seated, reserves=reserves)
    if form.is_valid():
        try:
            services.substitution_make(
                match_day=day,
                player_out=Player.objects.get(pk=form.cleaned_data["player_out"]),
                player_in=Player.objects.get(pk=form.cleaned_data["player_in"]),
                actor=request.user,
            )
            messages.success(request, _("Substitution recorded."))
        except ValidationError as exc:
            _errors(request, exc)
    else:
        messages.error(request, _("Choose a seated player and a reserve."))
    return redirect("matchday", match_day_id=day.pk)


# A hanchan is eight hands without a repeat; dealer repeats and draws add one each, and long
# games of 20 or more hands happen: the paper sheet has room for 24.
SHEET_HANDS = 24


@access("matchday", GET=PUBLIC)
def table_sheet(request, match_day_id, table):
    day = _day(request, match_day_id)
    plan = SeatingPlan.objects.filter(match_day=day).first()
    if not selectors.seating_visible(plan, request.user):
        raise Http404("no seating published")
    tables = selectors.seating_tables(plan)
    if not 1 <= table <= len(tables):
        raise Http404("no such table")
    return render(
        request, "matchdays/sheet.html", {"day": day, "table": tables[table - 1], "rows": range(1, SHEET_HANDS + 1)}
    )


@access("season", GET=PUBLIC)
def season_calendar(request, season_id):
    season = object_for_request(request, Season.objects.select_related("league"), pk=season_id)
    return HttpResponse(calendar.season_feed(season, request.get_host()), content_type="text/calendar; charset=utf-8")


@access("player", GET=PUBLIC)
def player_calendar(request, player_id):
    # players belong to no single league and are public (as their page, league.views.player_detail)
    player = object_for_request(request, Player, pk=player_id)
    body = calendar.player_feed(player, list(selectors.player_games(player)), request.get_host())
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")
