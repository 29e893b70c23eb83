"""Tournament pages: the event, its director's desk, a table's phone view, the big screen,
printable seating cards, table signs and the results sheet."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from kyoku import authz
from kyoku.second_factor import second_factor_require
from kyoku.access import ANY_DIRECTOR, DESK, DIRECTOR, PLAYER, PUBLIC, TABLE, access, object_for_request
from kyoku.labels import label
from kyoku.principals import System, request_actor
from league.forms import service_errors_to_form, service_errors_to_messages
from league.models import SEAT_NAMES, Game, Player
from league.names import player_name_for

from . import selectors, services
from .ema import EMA_BOM, Placed, Tournament, ema_csv, ema_xlsx
from .forms import EventForm, RegistrationForm, SelfRegistrationForm, TableScoresForm
from .models import CutDecision, Event, Registration, Round, TableReport
from .stages import round_start_offer

CODES_KEY = services.CODES_KEY  # the session's table codes: {game id: code}


@access(GET=PUBLIC)
def event_list(request):
    admin_of = authz.leagues_where(request.user, authz.Need.DIRECTOR)
    events = selectors.events_list()
    return render(
        request,
        "events/list.html",
        {
            "events": events,
            "may_create": admin_of is None or bool(admin_of),
            # the events whose desk this user runs (a director or admin of their league)
            "desk_ids": {e.pk for e in events if admin_of is None or e.league_id in admin_of},
        },
    )


@access(GET=ANY_DIRECTOR, POST=ANY_DIRECTOR)
def event_new(request):
    from kyoku.models import League

    ids = authz.leagues_where(request.user, authz.Need.DIRECTOR)
    leagues = League.objects.all() if ids is None else League.objects.filter(pk__in=ids)
    form = EventForm(request.POST or None, leagues=leagues)
    if request.method == "POST" and form.is_valid():
        v = form.cleaned_data
        # the league comes from the form: its second-factor rule is checked here (kyoku.second_factor)
        second_factor_require(request.user, v["league"])
        try:
            event = services.event_create(
                league=v["league"],
                name=v["name"],
                slug=v["slug"],
                venue=v["venue"],
                starts_on=v["starts_on"],
                ends_on=v["ends_on"],
                rule_set=v["rule_set"],
                capacity=v["capacity"],
                rounds=v["rounds"],
                round_minutes=v["round_minutes"],
                cut=v["cut"],
                final_points=v["final_points"],
                semi_final_cut=v["semi_final_cut"],
                semi_final_rounds=v["semi_final_rounds"],
                semi_final_points=v["semi_final_points"],
                time_rule=v["time_rule"],
                dealer_repeats_after_time=v["dealer_repeats_after_time"],
                seated_by_standings=v["seated_by_standings"],
                tiebreaks=v["tiebreaks"],
                team_scoring=v["team_scoring"],
                team_best=v["team_best"],
                leftover=v["leftover"],
                ema_id=v["ema_id"],
                city=v["city"],
                country=v["country"],
                mers_qualification=v["mers_qualification"],
                actor=request.user,
            )
        except ValidationError as exc:
            service_errors_to_form(form, exc)
        else:
            messages.success(request, _("Event created."))
            return redirect("event-desk", event_id=event.pk)
    return render(request, "events/new.html", {"form": form})


def _cut_places(tied: list[int], data) -> dict[int, int]:
    """The place the director chose for each tied player: every place chosen explicitly, each
    once (the listing order never settles a tie), else a 400 naming the players, in words."""
    if not tied or len(set(tied)) != len(tied):
        raise ValidationError({"order": [_("Name each tied player once.")]})
    places: dict[int, int] = {}
    for p in tied:
        value = (data.get(f"place_{p}") or "").strip()
        if value.isdigit() and 1 <= int(value) <= len(tied):
            places[p] = int(value)
    who = selectors.names(tied)
    missing = [who.get(p, str(p)) for p in tied if p not in places]
    if missing:
        raise ValidationError(
            {
                "order": [
                    _("Choose a place for every tied player: none chosen for %(names)s.")
                    % {"names": ", ".join(missing)}
                ]
            }
        )
    repeated = sorted({v for v in places.values() if list(places.values()).count(v) > 1})
    if repeated:
        same = [who.get(p, str(p)) for p in tied if places[p] in repeated]
        raise ValidationError(
            {
                "order": [
                    _("Each place goes to one player: %(names)s were given the same place.")
                    % {"names": ", ".join(same)}
                ]
            }
        )
    return places


def _event_context(request, event: Event) -> dict:
    state = selectors.event_state(event)
    rows = state["by_stage"][-1][1]
    own = authz.player_of(request.user)
    registration = Registration.objects.filter(event=event, player=cast(Player, own)).first() if own else None
    round_ = selectors.current_round(event)
    return {
        "event": event,
        "standings": selectors.standings_rows(event, rows),
        "teams": selectors.team_standings(event, rows),
        "registration": registration,
        "player": own,
        "confirmed": Registration.objects.filter(
            event=event, status=Registration.Status.CONFIRMED, substitute=False
        ).count(),
        "waiting": Registration.objects.filter(event=event, status=Registration.Status.WAITING).count(),
        "round": round_,
        "clock": selectors.round_clock_state(round_),
        "tables": selectors.round_tables(round_) if round_ else [],
        "rounds": event.round_set.order_by("number"),
        "tiebreaks": selectors.tiebreak_words(event),
        "tie_notes": selectors.tie_notes(rows),
        "cut_decisions": selectors.cut_decisions(event),
        "cuts": state["cuts"],
        "is_event_admin": authz.is_director(request.user, event.league),
        "self_form": SelfRegistrationForm(),
    }


@access("event", GET=PUBLIC)
def event_detail(request, event_id):
    event = object_for_request(request, Event.objects.select_related("league", "season__rule_set"), pk=event_id)
    return render(request, "events/detail.html", _event_context(request, event))


@access("event", POST=PLAYER)
def event_register(request, event_id):
    event = object_for_request(request, Event, pk=event_id)
    form = SelfRegistrationForm(request.POST)
    if form.is_valid():
        try:
            reg = services.registration_add(
                event=event,
                player=cast(Player, authz.player_of(request.user)),  # PLAYER
                actor=request.user,
                **form.cleaned_data,
            )
        except ValidationError as exc:
            service_errors_to_messages(request, exc)
        else:
            messages.success(
                request,
                _("You are registered.")
                if reg.status == Registration.Status.CONFIRMED
                else _("The event is full: you are on the waiting list."),
            )
    else:
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)  # type: ignore[arg-type]  # an ErrorList yields its messages as str
    return redirect("event", event_id=event.pk)


@access("event", POST=PLAYER)
def event_withdraw(request, event_id):
    event = object_for_request(request, Event, pk=event_id)
    reg = Registration.objects.filter(event=event, player=cast(Player, authz.player_of(request.user))).first()
    if reg is None:
        messages.error(request, _("You are not registered."))
    else:
        try:
            services.registration_withdraw(registration=reg, actor=request.user)
        except ValidationError as exc:
            service_errors_to_messages(request, exc)
        else:
            messages.success(request, _("You have withdrawn."))
    return redirect("event", event_id=event.pk)


def _reseat_after_attendance(request, event: Event) -> None:
    """After a late arrival, a dropout or a withdrawal while the event runs, the rounds already
    seated but not started are seated again without the absent and with the newcomer; when that
    cannot be done (substitutes needed), the desk says why and keeps warning."""
    event.refresh_from_db()
    if event.status != Event.Status.RUNNING or not selectors.planned_rounds_open(event):
        return
    try:
        plan = services.seating_plan(event=event, actor=request.user, time_limit=5)
    except ValidationError as exc:
        messages.warning(request, _("The rounds not started were not seated again:"))
        service_errors_to_messages(request, exc)
    else:
        messages.success(
            request,
            _("Rounds %(rounds)s seated again for the players present.")
            % {"rounds": ", ".join(map(str, plan["rounds"]))},
        )
        _sitting_out_note(request, plan)


def _sitting_out_note(request, plan: dict) -> None:
    """Substitutes checked in beyond those the tables need: the desk names who sits out."""
    out = plan.get("sitting_out") or []
    if out:
        messages.info(
            request,
            ngettext(
                "Substitute not needed, sitting out: %(names)s.",
                "Substitutes not needed, sitting out: %(names)s.",
                len(out),
            )
            % {"names": ", ".join(selectors.names(out).get(p, "") for p in out)},
        )


def _desk_action(request, event: Event) -> None:
    action = request.POST.get("action", "")
    if action == "register":
        form = RegistrationForm(request.POST)
        if not form.is_valid():
            raise ValidationError(form.errors)
        v = form.cleaned_data
        from people.desk import desk_player_find  # members of the league, or registered: no oracle

        player = desk_player_find(event=event, number=v["membership_number"], actor=request.user)
        reg = services.registration_add(
            event=event,
            player=player,
            team=v["team"],
            ema_number=v["ema_number"],
            nationality=v["nationality"],
            substitute=v["substitute"],
            actor=request.user,
        )
        if reg.status == Registration.Status.WAITING:
            place = Registration.objects.filter(
                event=event, status=Registration.Status.WAITING, registered_at__lte=reg.registered_at
            ).count()
            messages.warning(
                request,
                _("The event is full: %(player)s is on the waiting list, place %(n)s.")
                % {"player": player, "n": place},
            )
        else:
            messages.success(request, _("%(player)s registered.") % {"player": player})
    elif action in ("checkin", "checkout"):
        reg = object_for_request(
            request, Registration.objects.filter(event=event), pk=int(request.POST.get("registration") or 0)
        )
        services.checkin_set(registration=reg, present=action == "checkin", actor=request.user)
        _reseat_after_attendance(request, event)
    elif action == "withdraw":
        reg = object_for_request(
            request, Registration.objects.filter(event=event), pk=int(request.POST.get("registration") or 0)
        )
        services.registration_withdraw(registration=reg, actor=request.user)
        messages.success(request, _("%(player)s has withdrawn.") % {"player": reg.player})
        _reseat_after_attendance(request, event)
    elif action == "plan":
        plan = services.seating_plan(event=event, actor=request.user, time_limit=5)
        _sitting_out_note(request, plan)
        messages.success(
            request,
            _(
                "Rounds %(rounds)s seated: %(repeats)s repeated meetings, wind imbalance "
                "%(winds)s (least possible %(least)s)."
            )
            % {
                "rounds": ", ".join(map(str, plan["rounds"])),
                "repeats": plan["repeats"],
                "winds": plan["wind_imbalance"],
                "least": plan["wind_imbalance_min"],
            },
        )
    elif action == "seat_by_standings":
        round_ = Round.objects.get(event=event, pk=int(request.POST.get("round") or 0))
        tables = services.seating_by_standings(round_=round_, actor=request.user)
        messages.success(
            request, _("Round %(n)s seated by standings: %(tables)s tables.") % {"n": round_.number, "tables": tables}
        )
    elif action == "schedule":
        round_ = Round.objects.get(event=event, pk=int(request.POST.get("round") or 0))
        starts_at = parse_datetime(request.POST.get("starts_at") or "")
        if starts_at is None:
            raise ValidationError({"starts_at": [_("A date and a time.")]})
        if timezone.is_naive(starts_at):
            starts_at = timezone.make_aware(starts_at)
        services.round_schedule(round_=round_, starts_at=starts_at, actor=request.user)
    elif action == "cut_decide":
        tied = [int(v) for v in request.POST.getlist("tied") if v.isdigit()]
        places = _cut_places(tied, request.POST)
        services.cut_decide(
            event=event,
            stage=request.POST.get("stage", ""),
            order=sorted(tied, key=lambda p: places[p]),
            method=request.POST.get("method", ""),
            note=request.POST.get("note", ""),
            actor=request.user,
        )
        messages.success(request, _("The tie at the cut is decided and recorded."))
    elif action in ("running", "finished"):
        services.event_status_set(event=event, status=action, actor=request.user)
        messages.success(request, _("The event is now: %(status)s.") % {"status": event.__class__.Status(action).label})
    else:
        raise ValidationError({"action": [_("Unknown action.")]})


DESK_ACTIONS = {
    a: DIRECTOR
    for a in (
        "register",
        "checkin",
        "checkout",
        "withdraw",
        "plan",
        "seat_by_standings",
        "cut_decide",
        "schedule",
        "running",
        "finished",
    )
}


@access("event", GET=DIRECTOR, POST=DIRECTOR, actions=DESK_ACTIONS)
def event_desk(request, event_id):
    """The director's desk: registrations and check-in, seating, the round clocks, the cut."""
    event = object_for_request(request, Event.objects.select_related("league", "season"), pk=event_id)
    if request.method == "POST":
        try:
            _desk_action(request, event)
        except (ValueError, Round.DoesNotExist, Http404):
            messages.error(request, _("Unknown round or registration."))
        except ValidationError as exc:
            service_errors_to_messages(request, exc)
        return redirect("event-desk", event_id=event.pk)
    _time_up_note(selectors.current_round(event))
    context = _event_context(request, event)
    context.update(
        {
            "registrations": Registration.objects.filter(event=event)
            .select_related("player")
            .order_by("status", "registered_at"),
            "register_form": RegistrationForm(),
            "seating_warnings": selectors.seating_warnings(event),
            "names_unconfirmed": selectors.names_unconfirmed(event),
            "cut_methods": CutDecision.Method.choices,
            "round_rows": [
                {
                    "round": r,
                    "clock": selectors.round_clock_state(r),
                    "seated": services.round_games(r).exists(),
                    "cut_round": r.stage != Round.Stage.QUALIFYING
                    and not Round.objects.filter(event=event, stage=r.stage, number__lt=r.number).exists(),
                    # another round still open: end it in the same step, or which tables it waits for
                    "offer": round_start_offer(r) if r.started_at is None else None,
                }
                for r in event.round_set.select_related("event").order_by("number")
            ],
        }
    )
    return render(request, "events/desk.html", context)


@access("event_round", POST=DIRECTOR, actions={a: DIRECTOR for a in (*services.CLOCK_ACTIONS, services.END_AND_START)})
def round_clock(request, round_id):
    round_ = object_for_request(request, Round.objects.select_related("event"), pk=round_id)
    try:
        minutes = int(request.POST.get("minutes") or 0)
    except ValueError:
        minutes = 0
    action = request.POST.get("action", "")
    try:
        if action == services.END_AND_START:  # end the round still open (all recorded) and start this one
            services.round_end_and_start(round_=round_, actor=request.user)
        else:
            services.round_clock_set(round_=round_, action=action, minutes=minutes, actor=request.user)
    except ValidationError as exc:
        service_errors_to_messages(request, exc)
    target = request.POST.get("next", "")
    return redirect(target if target.startswith("/events/") else f"/events/{round_.event_id}/desk/")


def _seat_rows(game: Game) -> list[dict]:
    return [
        {"seat": s.seat, "wind_word": str(SEAT_NAMES[s.seat]), "name": player_name_for(s.player), "player": s.player_id}
        for s in sorted(game.seats.select_related("player"), key=lambda s: s.seat)
    ]


# the desk settles a table: its referees, its directors (often the head referee), the league's admins
TABLE_ACTIONS = {"report": TABLE, "confirm": TABLE, "dispute": TABLE, "enter": DESK, "resolve": DESK}


def _int_field(request, name: str) -> int | None:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        return None


def _table_action(request, game: Game, actor, form: TableScoresForm) -> None:
    """Run one posted action of a table's page through the table report's state machine."""
    action = request.POST.get("action", "")
    seat = _int_field(request, "seat")
    if action in ("report", "enter") and not form.is_valid():
        raise ValidationError(_("Check the scores."))
    # the desk's entry: the table's page it returns to says "Result recorded." itself (no second flash)
    if action == "enter":
        services.table_result_enter(
            game=game, scores=form.scores(), deposits_left=form.cleaned_data["deposits_left"], actor=actor
        )
    elif action == "resolve":
        services.table_result_enter(game=game, version=_int_field(request, "version") or 0, actor=actor)
    elif seat is None:
        raise ValidationError({"seat": [_("Pick a seat.")]})
    elif action == "report":
        report, changed = services.table_report_submit(
            game=game, scores=form.scores(), seat=seat, deposits_left=form.cleaned_data["deposits_left"], actor=actor
        )
        if report.status == TableReport.Status.DISPUTED and changed:
            messages.warning(request, _("These scores differ from the report: a referee is called to the table."))
        else:
            messages.success(request, _("Reported: the other players confirm."))
    elif action == "confirm":
        report = services.table_report_confirm(
            game=game, seat=seat, version=_int_field(request, "version") or 0, actor=actor
        )
        messages.success(
            request, _("Result confirmed and recorded.") if report.status == "confirmed" else _("Confirmed.")
        )
    elif action == "dispute":
        services.table_report_dispute(game=game, seat=seat, note=request.POST.get("note", ""), actor=actor)
        messages.warning(request, _("Disputed: a referee is called to the table."))


@access("event_table", GET=PUBLIC, POST=TABLE, actions=TABLE_ACTIONS)
def event_table(request, game_id):
    """A table's phone view: the clock, the seats, and the result the table reports and confirms.
    Who may act: a player seated here (logged in), the table's phone (with the code on the table's
    sign), or a referee or admin of the league (who enters the result, or records a version the
    table reported, as the desk)."""
    if request.method == "GET" and not Game.objects.filter(pk=game_id).exists():
        from matchdays.views import game_replaced  # a table seated again: its address still answers

        return game_replaced(request, game_id)
    game = object_for_request(request, Game.objects.select_related("season__event", "season__rule_set"), pk=game_id)
    try:
        event = game.season.event
    except Event.DoesNotExist:
        return redirect("game", game_id=game.pk)
    actor = request_actor(request, game)
    may_act = services.seats_for(game, actor)
    is_desk = authz.is_desk(request.user, event.league)
    seats = _seat_rows(game)
    report = TableReport.objects.filter(game=game).first()
    posted = request.POST.get("action") if request.method == "POST" else None
    form = TableScoresForm(request.POST if posted in ("report", "enter") else None, seats=seats)
    if request.method == "POST":
        try:
            _table_action(request, game, actor, form)
        except ValidationError as exc:
            if form.is_bound and not form.is_valid():
                return _table_render(request, event, game, seats, report, form, may_act, is_desk, status=400)
            service_errors_to_messages(request, exc)
        return redirect("event-table", game_id=game.pk)
    return _table_render(request, event, game, seats, report, form, may_act, is_desk)


def _time_up_note(round_: Round | None) -> None:
    """A page that sees a round's time run out stores each table's hand in play (once; the clock's
    sweep does it too where a worker runs)."""
    if round_ is not None and round_.started_at is not None and round_.ended_at is None:
        services.round_time_up_record(round_=round_, actor=System(f"clock: round {round_.pk}"))


def _table_render(request, event, game, seats, report, form, may_act, is_desk, status=200):
    round_ = Round.objects.filter(event=event, number=game.match_day).select_related("event").first()
    _time_up_note(round_)
    names = {s["seat"]: s["name"] for s in seats}
    versions = list(report.versions.all()) if report else []
    for v in versions:
        v.agreed_names = [names[s] for s in v.confirmed_seats if s in names]
    return render(
        request,
        "events/table.html",
        {
            "event": event,
            "game": game,
            "seats": seats,
            "report": report,
            "versions": versions,
            "form": form,
            "may_act": sorted(may_act),
            "act_names": [(s, names[s]) for s in sorted(may_act)],
            "is_desk": is_desk,
            "clock": selectors.round_clock_state(round_),
            "last_hand": selectors.table_last_hand(game),
            "seating_warnings": selectors.seating_warnings(event, game_id=game.pk),
            "round": round_,
            "in_play": bool(round_ and services.round_in_play(round_)),
            "result": getattr(game, "result", None),
            "unconfirmed": [(s, names[s]) for s in range(4) if report and s not in report.confirmed_seats],
        },
        status=status,
    )


@access("event_table", GET=PUBLIC, POST=TABLE)
def table_scorekeeper(request, game_id):
    """The scorekeeper for the players at a tournament table (logged in and seated, or the table's
    phone with its code): hands entered here are settled as the league's scorekeeper settles them,
    with its offline outbox; finishing reports the final scores for the other seats to confirm."""
    from scoring.views import scorekeeper_page

    game = object_for_request(
        request, Game.objects.select_related("season__rule_set", "season__league", "division"), pk=game_id
    )
    actor = request_actor(request, game)
    if request.method == "GET" and getattr(game.season, "kind", "") == "event":
        _time_up_note(
            Round.objects.filter(event__season=game.season, number=game.match_day).select_related("event").first()
        )
    if getattr(game.season, "kind", "") != "event" or not services.seats_for(game, actor):
        messages.error(request, _("Only a player at this table (or its phone, with the table's code) may do this."))
        return redirect("event-table", game_id=game.pk)
    urls = {
        "page": reverse("event-table-scorekeeper", args=[game.pk]),
        "save": reverse("api-event-table-hands", args=[game.pk]),
        "preview": reverse("api-event-table-hands-preview", args=[game.pk]),
        "finish": reverse("api-event-table-hands-finish", args=[game.pk]),
    }

    def add(record, sequence):  # the page's own form (no script) goes through the table's checks too
        return services.table_hand_add(game=game, record=record, sequence=sequence, actor=actor)

    return scorekeeper_page(
        request, game, urls=urls, add=add, undo=False, extra={"table_url": reverse("event-table", args=[game.pk])}
    )


@access("event", GET=PUBLIC, POST=PUBLIC)
def event_table_code(request, event_id):
    """Enter the code printed on a table's sign: the phone then acts for that table (while its round
    is in play). Wrong codes are counted per client and per event (kyoku.throttle)."""
    event = object_for_request(request, Event, pk=event_id)
    error = ""
    if request.method == "POST":
        services.table_code_guard(request, event)
        code = services.table_code_normal(request.POST.get("code"))
        round_ = selectors.current_round(event)
        games = Game.objects.filter(season=event.season, match_day=round_.number) if round_ else Game.objects.none()
        game = next((g for g in games if code and services.table_code_valid(g, code)), None) if code else None
        if game is not None:
            codes = dict(request.session.get(CODES_KEY) or {})
            codes[str(game.pk)] = code
            request.session[CODES_KEY] = codes
            return redirect("event-table", game_id=game.pk)
        services.table_code_miss(request, event)
        error = _("No table of the current round has this code.")
    return render(request, "events/code.html", {"event": event, "error": error}, status=400 if error else 200)


@access("event", GET=PUBLIC)
def event_board(request, event_id):
    event = object_for_request(request, Event, pk=event_id)
    _time_up_note(selectors.current_round(event))
    # the board built once per version and language (as its JSON is), the clock as of now: a
    # thousand spectators opening the page cost one build, not a thousand
    board = selectors.board_now(event.pk) or selectors.board(event)
    return render(
        request,
        "events/board.html",
        {
            "event": event,
            "board": board,
            "board_stale": any(c["stale"] for c in board["cuts"]),
            "tiebreaks": selectors.tiebreak_words(event),
            "tie_notes": board["tie_notes"],
        },
    )


@access("event", GET=PUBLIC)
def event_cards(request, event_id):
    event = object_for_request(request, Event, pk=event_id)
    return render(request, "events/cards.html", {"event": event, "cards": selectors.seating_cards(event)})


@access("event", GET=DIRECTOR)
def event_signs(request, event_id):
    """One sign per table for every seated round, with the table's code (director only: the code
    lets a phone report for the table)."""
    event = object_for_request(request, Event, pk=event_id)
    signs = []
    for r in event.round_set.order_by("number"):
        for t in selectors.round_tables(r):
            signs.append({"round": r, "table": t["table"], "seats": t["seats"], "code": services.table_code(t["game"])})
    return render(request, "events/signs.html", {"event": event, "signs": signs})


@access("event", GET=PUBLIC)
def event_results(request, event_id):
    event = object_for_request(request, Event.objects.select_related("league"), pk=event_id)
    state = selectors.event_state(event)
    ranked = state["by_stage"][-1][1]
    rows = selectors.standings_rows(event, ranked)
    return render(
        request,
        "events/results.html",
        {
            "event": event,
            "standings": rows,
            "cuts": state["cuts"],
            "teams": selectors.team_standings(event, ranked),
            "champion": rows[0] if rows and event.status == Event.Status.FINISHED and not state["stale"] else None,
            "mers_weight": selectors.mers_weight(event, ranked),
            "tiebreaks": selectors.tiebreak_words(event),
            "tie_notes": selectors.tie_notes(ranked),
            "cut_decisions": selectors.cut_decisions(event),
        },
    )


def _ema_export(event: Event) -> tuple[tuple[list[Placed], Tournament] | None, HttpResponse | None]:
    """(placed, tournament) from the event's one derived state, or a 409 in words while a cut's
    seating is stale (a correction changed who goes through and the stage has not started): the
    federation receives nothing until the director decides and seats the stage again."""
    state = selectors.event_state(event)
    if state["stale"]:
        stages = ", ".join(str(label(c["stage"], "event_stage")) for c in state["cuts"] if c["stale"])
        text = _(
            "The EMA file waits: a correction changed who goes through the cut to the %(stages)s. "
            "The director decides and seats the stage again first (the desk says who moved)."
        ) % {"stages": stages}
        return None, HttpResponse(text, status=409, content_type="text/plain; charset=utf-8")
    rows = state["by_stage"][-1][1]
    return (selectors.ema_placed(event, rows), selectors.ema_tournament(event, rows)), None


@access("event", GET=DIRECTOR)
def event_ema(request, event_id):
    event = object_for_request(request, Event, pk=event_id)
    data, refused = _ema_export(event)
    if data is None:
        return refused
    # UTF-8 with its byte-order mark, so a spreadsheet shows the CJK names right (events.ema)
    body = ema_csv(*data)
    response = HttpResponse(EMA_BOM + body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-ema.csv"'
    return response


@access("event", GET=DIRECTOR)
def event_ema_xlsx(request, event_id):
    """The EMA file as a workbook with text-typed cells (events.ema.ema_xlsx)."""
    event = object_for_request(request, Event, pk=event_id)
    data, refused = _ema_export(event)
    if data is None:
        return refused
    response = HttpResponse(
        ema_xlsx(*data), content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-ema.xlsx"'
    return response
