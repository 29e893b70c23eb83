"""A league's front door: start one (/leagues/new/), a superuser's queue of leagues waiting for
approval (/leagues/requests/), the league's own page (/leagues/<slug>/), its roles and invitations
(/leagues/<slug>/roles/), its settings (/leagues/<slug>/settings/) and a role invitation's link
(/roles/accept/<token>/). The writes are league.services.leagues and kyoku.roles."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from kyoku import authz, roles
from kyoku.access import ADMIN, LOGGED_IN, PUBLIC, SUPERUSER, access, object_for_request
from kyoku.models import League, LeagueRole, RoleInvitation

from .forms import service_errors_to_form, service_errors_to_messages
from .forms_start import (
    LeagueFieldsForm,
    LeagueRefuseForm,
    LeagueStartForm,
    RoleInviteForm,
    preset_names,
    preset_system,
)
from .models import Season
from .services import leagues as league_services

# ---------------------------------------------------------------- start a league


def _presets_context() -> dict[str, Any]:
    from scoring.selectors import riichi_presets

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
    from scoring.engine.riichi import PRESETS

    from scoring.forms import RiichiRulesForm

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
        actor=request.user,
    )


def _started(request: HttpRequest, league: League) -> HttpResponse:
    if league.approval == League.Approval.PENDING:
        messages.success(
            request, _("%(league)s is started and waits for a site admin's approval.") % {"league": league.name}
        )
    else:
        messages.success(request, _("%(league)s is started: you are its admin.") % {"league": league.name})
    return redirect("league-page", slug=league.slug)


# ---------------------------------------------------------------- a superuser's requests queue


@access(GET=SUPERUSER, POST=SUPERUSER, actions={"approve": SUPERUSER, "refuse": SUPERUSER})
def league_requests(request: HttpRequest) -> HttpResponse:
    status = 200
    if request.method == "POST":
        status = _request_decide(request)
        if status == 200:
            return redirect("league-requests")
    pending = (
        League.objects.filter(approval=League.Approval.PENDING).select_related("created_by").order_by("created_at")
    )
    decided = (
        League.objects.exclude(decided_at=None)
        .exclude(created_by=None)
        .select_related("created_by", "decided_by")
        .order_by("-decided_at")[:20]
    )
    return render(
        request,
        "league/start/requests.html",
        {"pending": pending, "decided": decided, "refuse_form": LeagueRefuseForm()},
        status=status,
    )


def _request_decide(request: HttpRequest) -> int:
    try:
        league = League.objects.get(pk=int(request.POST.get("league") or 0))
    except (League.DoesNotExist, ValueError):
        messages.error(request, _("Unknown league."))
        return 400
    try:
        if request.POST.get("action") == "approve":
            league = league_services.league_approve(league=league, actor=request.user)
        else:
            league = league_services.league_refuse(
                league=league, reason=request.POST.get("reason", ""), actor=request.user
            )
    except ValidationError as exc:
        service_errors_to_messages(request, exc)
        return 400
    sent = league_services.league_decision_mail(league)
    words = _("%(league)s is approved.") if league.is_active else _("%(league)s is refused.")
    messages.success(request, words % {"league": league.name})
    if not sent:
        messages.warning(request, _("The creator could not be emailed; they see the decision on the league's page."))
    return 200


# ---------------------------------------------------------------- the league's page


def _league(request: HttpRequest, slug: str) -> League:
    return object_for_request(request, League.objects.select_related("created_by"), slug=slug)


@access("league", GET=PUBLIC)
def league_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The league: its seasons, its tournaments, and (its admins) roles, settings, security."""
    league = _league(request, slug)
    from events.models import Event

    return render(
        request,
        "league/start/league.html",
        {
            "league": league,
            "seasons": Season.objects.filter(league=league, kind=Season.Kind.LEAGUE)
            .select_related("rule_set")
            .order_by("-year", "-number"),
            "events": Event.objects.filter(league=league).order_by("-starts_on"),
            "is_admin": authz.is_admin(request.user, league),
            "is_director": authz.is_director(request.user, league),
        },
    )


# ---------------------------------------------------------------- roles and invitations

ROLE_ACTIONS = {a: ADMIN for a in ("invite", "resend", "revoke", "remove")}


@access("league", GET=ADMIN, POST=ADMIN, actions=ROLE_ACTIONS)
def league_roles(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    form = RoleInviteForm(request.POST if request.POST.get("action") == "invite" else None)
    status = 200
    if request.method == "POST":
        status = _role_action(request, league, form)
        if status == 200 and not _still_admin(request, league):  # removed their own admin role
            return redirect("league-page", slug=league.slug)
        if status == 200:
            return redirect("league-roles", slug=league.slug)
    return render(
        request,
        "league/start/roles.html",
        {
            "league": league,
            "roles": roles.league_roles(league),
            "invitations": roles.league_invitations_open(league),
            "form": form,
        },
        status=status,
    )


def _still_admin(request: HttpRequest, league: League) -> bool:
    user: Any = request.user
    return (
        bool(user.is_superuser)
        or LeagueRole.objects.filter(league=league, user=user, role=LeagueRole.Role.ADMIN).exists()
    )


def _role_action(request: HttpRequest, league: League, form: RoleInviteForm) -> int:
    action = request.POST.get("action")
    try:
        if action == "invite":
            if not form.is_valid():
                return 400
            invitation, token = roles.role_invite(league=league, actor=request.user, **form.cleaned_data)
            _mailed(request, invitation, token)
        elif action == "resend":
            invitation = _invitation(request, league)
            _mailed(request, invitation, roles.role_invitation_resend(invitation=invitation, actor=request.user))
        elif action == "revoke":
            roles.role_invitation_revoke(invitation=_invitation(request, league), actor=request.user)
            messages.success(request, _("Invitation revoked: its link no longer works."))
        else:
            role = _role(request, league)
            roles.role_remove(role=role, actor=request.user)
            messages.success(request, _("Role removed."))
    except Http404:
        messages.error(request, _("Unknown role or invitation."))
        return 400
    except ValidationError as exc:
        service_errors_to_form(form, exc) if action == "invite" else service_errors_to_messages(request, exc)
        return 400
    return 200


def _mailed(request: HttpRequest, invitation: RoleInvitation, token: str) -> None:
    if roles.role_invitation_mail(invitation=invitation, token=token):
        messages.success(request, _("Invitation sent to %(email)s.") % {"email": invitation.email})
    else:
        messages.warning(
            request,
            _("The invitation to %(email)s is saved but the email could not be sent: send it again later.")
            % {"email": invitation.email},
        )


def _pk(request: HttpRequest, name: str) -> int:
    try:
        return int(request.POST.get(name) or 0)
    except ValueError:
        raise Http404(name) from None


def _invitation(request: HttpRequest, league: League) -> RoleInvitation:
    invitation = RoleInvitation.objects.filter(league=league, pk=_pk(request, "invitation")).first()
    if invitation is None:
        raise Http404("invitation")
    return invitation


def _role(request: HttpRequest, league: League) -> LeagueRole:
    role = LeagueRole.objects.filter(league=league, pk=_pk(request, "role")).first()
    if role is None:
        raise Http404("role")
    return role


# ---------------------------------------------------------------- settings


@access("league", GET=ADMIN, POST=ADMIN)
def league_settings(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    initial = {
        "name": league.name,
        "name_zh": league.name_zh,
        "languages": league.languages,
        "time_zone": league.time_zone,
        "promotion_count": league.promotion_count,
    }
    form = LeagueFieldsForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                league_services.league_settings_update(league=league, actor=request.user, **form.cleaned_data)
            except ValidationError as exc:
                service_errors_to_form(form, exc)
            else:
                messages.success(request, _("Settings saved."))
                return redirect("league-settings", slug=league.slug)
    return render(request, "league/start/settings.html", {"league": league, "form": form}, status=status)


# ---------------------------------------------------------------- accepting an invitation


@access("role_invitation", GET=PUBLIC, POST=LOGGED_IN)
def role_accept(request: HttpRequest, token: str) -> HttpResponse:
    """GET says what the invitation is (anyone holding the link); POST takes the role (signed in,
    with the invited address verified on the account)."""
    invitation = object_for_request(
        request, RoleInvitation.objects.select_related("league"), token_hash=roles.token_hash(token)
    )
    error, status = "", 200
    if request.method == "POST":
        try:
            roles.role_invitation_accept(invitation=invitation, actor=request.user)
        except ValidationError as exc:
            error, status = " ".join(m for msgs in exc.message_dict.values() for m in msgs), 400
        else:
            messages.success(
                request,
                _("You are now %(role)s of %(league)s.")
                % {"role": invitation.get_role_display(), "league": invitation.league.name},
            )
            return redirect("league-page", slug=invitation.league.slug)
    invitation.refresh_from_db()
    return render(
        request,
        "league/start/accept.html",
        {"invitation": invitation, "state": roles.invitation_state(invitation), "error": error},
        status=status,
    )
