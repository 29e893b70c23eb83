"""A league's front door (starting one, /leagues/new/, is scoring.views_start: it shows the rules
pages' option widgets): a superuser's queue of leagues waiting for approval (/leagues/requests/), the league's own page (/leagues/<slug>/), its roles and invitations
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
from .forms_start import LeagueFieldsForm, LeagueRefuseForm, RoleInviteForm
from .models import Season
from .services import leagues as league_services

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
    return render(
        request,
        "league/start/league.html",
        {
            "league": league,
            "seasons": Season.objects.filter(league=league, kind=Season.Kind.LEAGUE)
            .select_related("rule_set")
            .order_by("-year", "-number"),
            "events": league.events.order_by("-starts_on"),  # events.Event's link to its league
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
