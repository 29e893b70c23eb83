"""Server-rendered pages. Reads go through selectors, writes through services."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from kyoku.access import ADMIN, ANY_ADMIN, LOGGED_IN, OWNER, PUBLIC, access, object_for_request
from kyoku.authz import Need, player_private_visible, scope_for_actor
from kyoku.uploads import INLINE_TYPES, sniff

from kyoku import authz
from . import selectors, services
from .forms import (
    AuditFilterForm,
    ApplicationForm,
    DecidedFilterForm,
    DecisionForm,
    GameResultForm,
    service_errors_to_form,
)
from .models import Division, Game, InvitationBlock, LeagueInvitation, Player, QualificationApplication, Season
from .names import player_display_name


@access(GET=PUBLIC)
def home(request):
    # a league waiting for approval is listed nowhere public (its page says so to its creator)
    seasons = selectors.season_list().filter(league__approval="active")
    return render(request, "league/home.html", {"seasons": seasons})


@access("season", GET=PUBLIC)
def season_detail(request, season_id):
    """A season at a glance: per division its entrants and games, then its games a page at a
    time (latest match day first; a division or match day can be picked)."""
    season = object_for_request(request, Season.objects.select_related("rule_set", "league"), pk=season_id)
    division = request.GET.get("division", "")[:4]
    match_day = _page_number(request.GET.get("match_day")) if request.GET.get("match_day") else None
    summary = selectors.season_summary(season=season)
    games = selectors.season_games_page(
        season=season,
        division_code=division,
        match_day=match_day,
        page=_page_number(request.GET.get("page")),
        summary=summary,
    )
    return render(
        request,
        "league/season.html",
        {
            "season": season,
            "divisions": [row["division"] for row in summary],
            "summary": summary,
            "games": games,
            "games_rows": _season_game_rows(games),
            "division_filter": division,
            "match_day_filter": match_day,
        },
    )


def _season_game_rows(games) -> str:
    """The page of games as table rows, rendered here as the template printed them game by game
    (a link, a status and four seats each: fifty games cost more through tags and filters than
    the rest of the page)."""
    from django.urls import reverse
    from django.utils.html import escape
    from django.utils.safestring import mark_safe

    from kyoku.templatetags.kyoku_labels import league_points

    game_url = reverse("game", args=[0])[:-2]
    rows = []
    for game in games:
        seats = ", ".join(
            escape(player_display_name(seat.player))
            + (f" ({league_points(seat.points)})" if seat.points is not None else "")
            for seat in game.seats.all()
        )
        rows.append(
            f"\n    <tr>\n      <td>{escape(game.division.code)}</td><td>{game.match_day}</td>\n"
            f'      <td><a href="{game_url}{game.pk}/">{game.table}</a></td>\n      <td>{seats}</td>\n'
            f"      <td>{escape(game.get_status_display())}</td>\n    </tr>\n  "
        )
    return mark_safe("".join(rows))


@access("division", GET=PUBLIC)
def standings(request, season_id, code):
    """A division's standings, paged and sorted across the whole division; the table is cached per
    standings version (a result or penalty bumps it), language, sort and page."""
    division = object_for_request(
        request, Division.objects.select_related("season__league"), season_id=season_id, code=code
    )
    sort = request.GET.get("sort", "rank")
    page = _page_number(request.GET.get("page"))
    key = f"standings-page:{division.pk}:{division.standings_version}:{get_language()}:{sort}:{page}"
    table = cache.get(key)
    if table is None:
        table = selectors.standings_table(division=division, sort=sort, page=page)
        cache.set(key, table, 3600)  # keyed on the version: a result, penalty or renamed player moves it
    return render(
        request,
        "league/standings.html",
        {"division": division, "season": division.season, "table": table, "sort": table["sort"]},
    )


def _page_number(value) -> int:
    try:
        return max(1, min(int(value), 100000))
    except (TypeError, ValueError):
        return 1


@access("player", GET=PUBLIC)
def player_detail(request, player_id):
    """A player's page: the current season first (its running total counting penalties, ending on
    the standings total), every season's standings line (career), earlier seasons a click away."""
    player = object_for_request(request, Player, pk=player_id)
    if player.merged_into_id:  # a merged duplicate: its old links lead to the player it became
        from .services.merge import merged_target

        target = merged_target(player)
        if target is not None:
            return redirect("player", player_id=target.pk)
    wanted = _page_number(request.GET.get("season")) if request.GET.get("season") else None
    page = selectors.player_page(player=player, season_id=wanted)
    return render(
        request,
        "league/player.html",
        {
            "player": player,
            **page,
            "chart": _chart(page["history"]),
            "history_rows": _history_rows(page["history"]),
            "private_visible": player_private_visible(request.user, player),
            # private: the player's own, or those of the leagues where the reader is admin or referee
            "applications": scope_for_actor(
                player.applications.select_related("tier", "season"), actor=request.user, need=Need.OWNER
            )
            if request.user.is_authenticated
            else None,
        },
    )


def _history_rows(history) -> str:
    """The running total's table rows, rendered here as the template printed them row by row: a
    busy season has hundreds, and a row's link, words and numbers cost more through template tags
    and filters than the rest of the page together."""
    from django.urls import reverse
    from django.utils.html import escape
    from django.utils.safestring import mark_safe

    from kyoku.labels import label
    from kyoku.templatetags.kyoku_labels import league_points, score

    game_url = reverse("game", args=[0])[:-2]
    table, penalty = escape(_("table")), escape(_("Penalty"))
    rows = []
    for r in history:
        if r["kind"] == "penalty":
            p = r["penalty"]
            row = (
                f'<tr class="penalty-row"><td colspan="4">{penalty}: {escape(label(p.offence, "offence"))} · '
                f'{escape(p.get_sanction_display())}</td><td class="num">{league_points(r["points"])}</td>'
                f'<td class="num">{league_points(r["running"])}</td></tr>'
            )
        else:
            g = r["game"]
            row = (
                f'<tr><td><a href="{game_url}{g.pk}/">{escape(g.division.code)} · {escape(g.round_label)} · '
                f'{table} {g.table}</a></td>\n      <td>{escape(r["seat"].seat_name)}</td>'
                f'<td class="num">{score(r["raw_score"])}</td><td class="num">{r["place"]}</td>'
                f'<td class="num">{league_points(r["points"])}</td><td class="num">{league_points(r["running"])}</td></tr>'
            )
        rows.append(f"\n    \n    {row}\n    \n  ")
    return mark_safe("".join(rows))


def _chart(history, width=640, height=200, pad=24) -> dict | None:
    """Running total as SVG polyline coordinates (drawn server-side, no JS library needed)."""
    if not history:
        return None
    values = [0.0] + [float(r["running"]) for r in history]
    low, high = min(values + [0.0]), max(values + [0.0])
    span = (high - low) or 1.0
    step = (width - 2 * pad) / max(len(values) - 1, 1)

    def y(v):
        return round(height - pad - (v - low) / span * (height - 2 * pad), 1)

    points = [(round(pad + i * step, 1), y(v)) for i, v in enumerate(values)]
    return {
        "width": width,
        "height": height,
        "points": " ".join(f"{x},{yy}" for x, yy in points),
        "dots": points[1:],
        "zero_y": y(0.0),
        "high": high,
        "low": low,
        "pad": pad,
    }


@access("game", GET=ADMIN, POST=ADMIN)
def game_result_entry(request, game_id):
    game = object_for_request(request, Game.objects.select_related("season__rule_set", "division"), pk=game_id)
    options = game.season.rule_set.options
    initial = {}
    if hasattr(game, "result"):
        initial = {f"score_{i}": v for i, v in enumerate(game.result.scores)}
        initial["deposits_left"] = game.result.deposits_left
    form = GameResultForm(request.POST or None, game=game, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.game_result_record(
                game=game,
                scores=form.scores(),
                actor=request.user,
                deposits_left=form.cleaned_data["deposits_left"],
                replace=hasattr(game, "result"),
            )
        except ValidationError as exc:
            service_errors_to_form(form, exc)
        else:
            messages.success(request, _("Result saved. The standings are up to date; the ratings follow."))
            return redirect("game", game_id=game.pk)
    return render(
        request,
        "league/result_form.html",
        {
            "game": game,
            "form": form,
            "start_points": options.get("start_points", 0),
            "system": game.season.rule_set.system,
        },
    )


@access(GET=ANY_ADMIN)
def applications_review(request):
    """The queue of the leagues where the actor is an admin (each list is scoped)."""
    pending = scope_for_actor(selectors.applications_pending(), actor=request.user, need=Need.ADMIN)
    # decided applications stay visible beside the queue, filterable (issue 11)
    filters = DecidedFilterForm(request.GET or None)
    decided = scope_for_actor(
        selectors.applications_decided(**(filters.cleaned_data if filters.is_valid() else {})),
        actor=request.user,
        need=Need.ADMIN,
    )
    history = Paginator(decided, AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "league/review.html",
        {"applications": pending, "form": DecisionForm(), "filters": filters, "history": history},
    )


@access("application", POST=ADMIN)
def application_decide(request, application_id):
    application = object_for_request(request, QualificationApplication, pk=application_id)
    form = DecisionForm(request.POST)
    form.is_valid()
    approve = request.POST.get("decision") == "approve"
    try:
        services.application_decide(
            application=application, approve=approve, actor=request.user, reason=form.cleaned_data.get("reason", "")
        )
    except ValidationError as exc:
        for field, msgs in exc.message_dict.items():
            messages.error(request, f"{application.player}: {field}: {'; '.join(msgs)}")
    else:
        messages.success(request, _("Application approved.") if approve else _("Application rejected."))
    return redirect("review")


@access(GET=LOGGED_IN, POST=LOGGED_IN)
def my_page(request):
    player = authz.player_of(request.user)
    if player is None:
        return render(request, "league/me.html", {"player": None})
    if request.method == "POST" and "invitation" in request.POST:
        return _invitation_answer(request, player)
    if request.method == "POST" and "unblock" in request.POST:
        return _invitation_unblock(request)
    form = ApplicationForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.application_submit(
                player=player,
                season=form.cleaned_data["season"],
                tier=form.cleaned_data["tier"],
                evidence=form.evidence(),
                proof=form.cleaned_data.get("proof"),
                actor=request.user,
            )
        except ValidationError as exc:
            service_errors_to_form(form, exc)
        else:
            messages.success(request, _("Application submitted."))
            return redirect("me")
    return render(
        request,
        "league/me.html",
        {
            "player": player,
            "form": form,
            "history": selectors.player_history(player=player),
            "applications": player.applications.select_related("tier", "season"),
            "penalties": selectors.player_penalties(player=player),
            "invitations": player.invitations.filter(status=LeagueInvitation.Status.PENDING).select_related(
                "league", "season", "division"
            ),
            "invitation_blocks": player.invitation_blocks.select_related("league"),
        },
    )


def _invitation_answer(request, player):
    """The player accepts or declines an invitation of theirs (another player's is 403)."""
    try:
        invitation_id = int(request.POST.get("invitation", ""))
    except ValueError:
        invitation_id = 0
    invitation = object_for_request(request, LeagueInvitation.objects.all(), need=Need.SELF, pk=invitation_id)
    decision = request.POST.get("decision")
    try:
        if decision == "accept":
            invitation = services.invitation_accept(invitation=invitation, actor=request.user)
            messages.success(
                request, _("Invitation accepted: you are entered in %(season)s.") % {"season": invitation.season}
            )
        elif decision == "decline":
            services.invitation_decline(invitation=invitation, actor=request.user)
            messages.success(request, _("Invitation declined."))
        elif decision == "block":
            services.invitation_decline(invitation=invitation, actor=request.user, block=True)
            messages.success(
                request,
                _("Invitation declined: %(league)s cannot invite you again until you allow it.")
                % {"league": invitation.league.display_name},
            )
        else:
            messages.error(request, _("Accept or decline the invitation."))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return redirect("me")


def _invitation_unblock(request):
    """The player accepts a league's invitations again (another player's block is 403)."""
    try:
        block_id = int(request.POST.get("unblock", ""))
    except ValueError:
        block_id = 0
    block = object_for_request(request, InvitationBlock.objects.select_related("league"), need=Need.SELF, pk=block_id)
    services.invitation_block_lift(block=block, actor=request.user)
    messages.success(request, _("%(league)s may invite you again.") % {"league": block.league.display_name})
    return redirect("me")


@access("application", GET=OWNER)
def application_proof(request, application_id):
    """An application's evidence file, to the owning player and that league's admins and
    referees only. Always a download unless the stored type, checked again from the file's
    first bytes, is an allowed image or PDF and ``?inline=1`` asks to view it."""
    application = object_for_request(
        request, QualificationApplication.objects.select_related("season__league"), pk=application_id
    )
    if not application.proof:
        raise Http404(_("This application has no file."))
    try:
        handle = application.proof.open("rb")
    except FileNotFoundError:
        raise Http404(_("The file is missing from storage.")) from None
    head = handle.read(4096)
    handle.seek(0)
    detected = sniff(head)
    inline = (
        request.GET.get("inline") == "1"
        and detected is not None
        and detected == application.proof_type
        and detected in INLINE_TYPES
    )
    extension = application.proof.name.rsplit(".", 1)[-1] if "." in application.proof.name else "bin"
    response = FileResponse(
        handle,
        as_attachment=not inline,
        filename=f"application-{application.pk}-proof.{extension}",
        content_type=detected if inline else "application/octet-stream",
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    # even if a browser rendered it, nothing in it may run or load anything
    response["Content-Security-Policy"] = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox"
    return response


AUDIT_PAGE_SIZE = 50


@access("season", GET=ADMIN)
def season_audit(request, season_id):
    """A season's audit log for its league's admins: every change with who, when, before and
    after; filterable by action, object type, actor and date."""
    season = object_for_request(request, Season.objects.select_related("league"), pk=season_id)
    filters = AuditFilterForm(request.GET or None)
    rows = selectors.season_audit_log(season=season, **(filters.cleaned_data if filters.is_valid() else {}))
    page = Paginator(rows, AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request, "league/audit.html", {"season": season, "page": page, "filters": filters, "query": query.urlencode()}
    )
