"""The season office for a league admin: the season's steps in order, and the promotion page."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from kyoku.access import ADMIN, access, object_for_request

from . import office
from .forms import NextSeasonForm
from .models import Entry, LeagueInvitation, Season


# what each status means for the season's players, on the office page
STATUS_WORDS = {
    Season.Status.DRAFT: gettext_lazy("Draft: registration is not open yet; the league's members have not been told."),
    Season.Status.OPEN: gettext_lazy("Open: registration is open and results can be entered."),
    Season.Status.CLOSED: gettext_lazy("Closed: no result can be entered or changed until it is reopened."),
}


def _season(request, season_id):
    """The season, checked at the level the view declares (its league's admins)."""
    return object_for_request(request, Season.objects.select_related("league", "rule_set"), pk=season_id)


@access("season", GET=ADMIN)
def season_office(request, season_id):
    season = _season(request, season_id)
    starts_on, ends_on = office.season_next_dates(season=season)
    return render(
        request,
        "league/office/season.html",
        {
            "season": season,
            "next_season": office.season_next_find(season=season),
            "next_form": NextSeasonForm(initial={"starts_on": starts_on, "ends_on": ends_on}),
            "divisions": season.divisions.all(),
            "entries": Entry.objects.filter(season=season).count(),
            "open_work": office.season_open_work(season=season) if season.status != Season.Status.CLOSED else [],
            "status_words": STATUS_WORDS.get(season.status, ""),
            "members_told": office.season_open_audience(season=season) if season.status == Season.Status.DRAFT else 0,
        },
    )


@access("season", POST=ADMIN)
def season_next_create(request, season_id):
    season = _season(request, season_id)
    form = NextSeasonForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            messages.error(request, f"{form.fields[field].label}: {' '.join(errors)}")
        return redirect("office-season", season_id=season.pk)
    try:
        nxt = office.season_create_next(season=season, actor=request.user, **form.cleaned_data)
    except ValidationError as exc:
        _errors_said(request, exc)
        return redirect("office-season", season_id=season.pk)
    messages.success(request, _("Next season %(season)s is ready.") % {"season": nxt})
    return redirect("office-season", season_id=season.pk)


def _errors_said(request, exc: ValidationError) -> None:
    """A refusal's words as messages on the office page (the words already say what is wrong; the
    field names are the API's)."""
    for msgs in exc.message_dict.values():
        for msg in msgs:
            messages.error(request, msg)


@access("season", POST=ADMIN)
def season_open(request, season_id):
    """Open a draft season's registration (the league's members are told, its channels announce it)."""
    season = _season(request, season_id)
    try:
        office.season_open(season=season, actor=request.user)
    except ValidationError as exc:
        _errors_said(request, exc)
    else:
        messages.success(request, _("Registration is open: the league's members are told."))
    return redirect("office-season", season_id=season.pk)


@access("season", POST=ADMIN)
def season_close(request, season_id):
    season = _season(request, season_id)
    try:
        office.season_close(season=season, actor=request.user, confirm=request.POST.get("confirm") == "1")
    except ValidationError as exc:
        _errors_said(request, exc)
    else:
        messages.success(request, _("Season closed."))
    return redirect("office-season", season_id=season.pk)


@access("season", POST=ADMIN)
def season_reopen(request, season_id):
    season = _season(request, season_id)
    try:
        office.season_reopen(season=season, actor=request.user, reason=request.POST.get("reason", "")[:500])
    except ValidationError as exc:
        _errors_said(request, exc)
    else:
        messages.success(request, _("Season reopened: results can be entered and corrected again."))
    return redirect("office-season", season_id=season.pk)


@access("season", GET=ADMIN, POST=ADMIN)
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
    return render(
        request,
        "league/office/promotion.html",
        {
            "season": season,
            "next_season": nxt,
            "rows": office.promotion_preview(season=season),
            "entered": entered,
        },
    )


@access("season", GET=ADMIN, POST=ADMIN)
def season_entries(request, season_id):
    """Entries of the season by division: add one, remove one that has not played."""
    from .forms import OfficeEntryForm, service_errors_to_form

    season = _season(request, season_id)
    form = OfficeEntryForm(request.POST or None, season=season)
    if request.method == "POST" and form.is_valid():
        try:
            added = office.entry_add(
                division=form.cleaned_data["division"], player=form.cleaned_data["player"], actor=request.user
            )
        except ValidationError as exc:
            service_errors_to_form(form, exc)
        else:
            if isinstance(added, LeagueInvitation):
                messages.success(
                    request,
                    _("%(player)s has not joined this league: invited, entered when they accept.")
                    % {"player": added.player},
                )
            else:
                messages.success(request, _("Entry added."))
            return redirect("office-entries", season_id=season.pk)
    entries = (
        Entry.objects.filter(season=season)
        .select_related("player", "division")
        .order_by("division__order", "player__display_name")
    )
    invitations = LeagueInvitation.objects.filter(season=season, status=LeagueInvitation.Status.PENDING).select_related(
        "player", "division"
    )
    return render(
        request,
        "league/office/entries.html",
        {"season": season, "form": form, "entries": entries, "invitations": invitations},
    )


@access("entry", POST=ADMIN)
def entry_remove(request, season_id, entry_id):
    entry = object_for_request(
        request, Entry.objects.filter(season_id=season_id).select_related("division", "season"), pk=entry_id
    )
    season = entry.season
    try:
        office.entry_remove(entry=entry, actor=request.user)
    except ValidationError:
        messages.error(request, _("This player has games in the division; the entry stays."))
    else:
        messages.success(request, _("Entry removed."))
    return redirect("office-entries", season_id=season.pk)


@access("season", GET=ADMIN, POST=ADMIN)
def season_games(request, season_id):
    """Create a game of a division: match day, table and the four seats."""
    from .forms import OfficeGameForm, service_errors_to_form

    season = _season(request, season_id)
    form = OfficeGameForm(request.POST or None, season=season)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            game = office.game_create(
                division=d["division"],
                match_day=d["match_day"],
                table=d["table"],
                players=[d["east"], d["south"], d["west"], d["north"]],
                actor=request.user,
            )
        except ValidationError as exc:
            service_errors_to_form(form, exc)
        else:
            messages.success(request, _("Game created."))
            return redirect("game", game_id=game.pk)
    return render(request, "league/office/games.html", {"season": season, "form": form})
