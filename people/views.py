"""People's pages: a league's claims (invitations and link requests), the invitation's link, a
person's link request, their own player, their data and closing their account."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from typing import Any

from django.contrib import messages
from django.contrib.auth import logout
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.access import ADMIN, LOGGED_IN, PUBLIC, access, object_for_request
from kyoku.csv_cells import csv_row
from kyoku.models import League
from kyoku.throttle import client_address, throttle_check, throttle_hit
from league.forms import service_errors_to_form, service_errors_to_messages

from . import selectors, services
from .forms import CloseForm, DecisionForm, InvitationForm, LinkRequestForm, OwnPlayerForm
from .models import ClaimInvitation, LinkRequest
from .services.claims import invitation_state_check
from .services.common import verified_addresses
from league.names import player_display_name

CLAIM_ACTIONS = ("send", "resend", "revoke", "approve", "reject")


def _base_url(request: HttpRequest) -> str:
    return request.build_absolute_uri("/")


# ---------------------------------------------------------------- a league's claims (admins)


def _claims_page(request: HttpRequest, league: League, form: InvitationForm, status: int = 200) -> HttpResponse:
    return render(
        request,
        "people/claims.html",
        {
            "league": league,
            "form": form,
            "invitations": selectors.league_invitations(league),
            "link_requests": selectors.league_link_requests_pending(league),
            "decision_form": DecisionForm(),
        },
        status=status,
    )


def _initial(request: HttpRequest, league: League, players: Any) -> dict[str, Any]:
    try:
        player = players.filter(pk=int(request.GET.get("player", ""))).first()
    except ValueError:
        player = None
    if player is None:
        return {}
    return {"player": player, "email": selectors.member_contact_email(league, player)}


def _posted(request: HttpRequest, qs: Any, field: str) -> Any:
    """The row of ``qs`` (already the league's) the form names in ``field``, or None."""
    try:
        return qs.filter(pk=int(request.POST.get(field, ""))).first()
    except ValueError:
        return None


def _invitation_sent(request: HttpRequest, sent: services.ClaimSent) -> None:
    if sent.delivered:
        messages.success(
            request,
            _("Invitation sent to %(email)s for %(player)s.")
            % {"email": sent.invitation.email, "player": sent.invitation.player},
        )
    else:
        messages.warning(
            request,
            _(
                "The mail server did not take the email to %(email)s. The invitation is kept: "
                "send it again below when the mail works."
            )
            % {"email": sent.invitation.email},
        )


def _claims_send(request: HttpRequest, league: League, players: Any) -> HttpResponse:
    form = InvitationForm(request.POST, players=players)
    if not form.is_valid():
        return _claims_page(request, league, form, status=400)
    try:
        sent = services.claim_invitation_send(
            league=league,
            player=form.cleaned_data["player"],
            email=form.cleaned_data["email"],
            base_url=_base_url(request),
            actor=request.user,
        )
    except ValidationError as exc:
        service_errors_to_form(form, exc)
        return _claims_page(request, league, form, status=400)
    _invitation_sent(request, sent)
    return redirect("league-claims", slug=league.slug)


def _claims_row_action(request: HttpRequest, league: League, action: str, players: Any) -> HttpResponse:
    """resend / revoke an invitation, approve / reject a link request (of this league)."""
    if action in ("resend", "revoke"):
        row = _posted(request, ClaimInvitation.objects.filter(league=league).select_related("player"), "invitation")
    else:
        row = _posted(request, LinkRequest.objects.filter(league=league), "request")
    if row is None:
        messages.error(request, _("Pick an invitation or a request of this league."))
        return _claims_page(request, league, InvitationForm(players=players), status=400)
    try:
        if action == "resend":
            _invitation_sent(
                request,
                services.claim_invitation_resend(invitation=row, base_url=_base_url(request), actor=request.user),
            )
        elif action == "revoke":
            services.claim_invitation_revoke(invitation=row, actor=request.user)
            messages.success(request, _("Invitation revoked: its link no longer works."))
        else:
            services.link_request_decide(
                link_request=row, approve=action == "approve", reason=request.POST.get("reason", ""), actor=request.user
            )
            messages.success(
                request,
                _("Request approved: the account is linked.") if action == "approve" else _("Request rejected."),
            )
    except ValidationError as exc:
        service_errors_to_messages(request, exc)
        return _claims_page(request, league, InvitationForm(players=players), status=400)
    return redirect("league-claims", slug=league.slug)


@access("league", GET=ADMIN, POST=ADMIN, actions={a: ADMIN for a in CLAIM_ACTIONS})
def league_claims(request: HttpRequest, slug: str) -> HttpResponse:
    """Invite a member to claim their player; read and decide the link requests."""
    league = object_for_request(request, League, slug=slug)
    players = selectors.league_members_unlinked(league)
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "send":
            return _claims_send(request, league, players)
        return _claims_row_action(request, league, action, players)
    return _claims_page(request, league, InvitationForm(players=players, initial=_initial(request, league, players)))


# ---------------------------------------------------------------- the invitation's link


def _account_urls(request: HttpRequest) -> dict[str, str]:
    """Sign in and sign up, each coming back to this page (``?next=``)."""
    here = request.get_full_path()
    urls = {}
    for key, names in (("login", ("account_login", "login")), ("signup", ("account_signup",))):
        for name in names:
            try:
                urls[key] = f"{reverse(name)}?next={here}"
                break
            except NoReverseMatch:
                continue
    return urls


def _claim_page(
    request: HttpRequest, invitation: ClaimInvitation, error: Any = None, status: int = 200
) -> HttpResponse:
    problem = error
    if problem is None:
        try:
            invitation_state_check(invitation)
        except ValidationError as exc:
            problem, status = exc, 410
    user = request.user
    mismatch = problem is None and user.is_authenticated and invitation.email not in verified_addresses(user)
    return render(
        request,
        "people/claim.html",
        {
            "invitation": invitation,
            "problems": problem.messages if problem is not None else [],
            "mismatch": mismatch,
            "has_player": authz.player_of(user) is not None,
            "urls": _account_urls(request),
        },
        status=status,
    )


@access("claim_invitation", GET=PUBLIC, POST=LOGGED_IN, actions={"accept": LOGGED_IN})
def claim_link(request: HttpRequest, token: str) -> HttpResponse:
    """What the link is (the league, the player's public name), and its acceptance when signed in."""
    invitation = object_for_request(
        request,
        ClaimInvitation.objects.select_related("league", "player"),
        token_hash=services.token_hash(token),
    )
    if request.method == "POST":
        try:
            services.claim_invitation_accept(token=token, actor=request.user)
        except ValidationError as exc:
            return _claim_page(request, invitation, error=exc, status=400)
        messages.success(
            request, _("Your account is now linked to %(player)s.") % {"player": player_display_name(invitation.player)}
        )
        return redirect("me")
    response = _claim_page(request, invitation)
    # the token stays out of other sites' logs; "no-referrer" would also make Chromium send
    # "Origin: null" with the page's own accept form, which CSRF protection refuses
    response["Referrer-Policy"] = "same-origin"
    return response


# ---------------------------------------------------------------- a person's link request


@access(GET=LOGGED_IN, POST=LOGGED_IN)
def my_claim(request: HttpRequest) -> HttpResponse:
    """Ask a league to link this account to the member with a number. The answer is the same
    whether the number is a member's or not; only the asks count towards the throttle."""
    has_player = authz.player_of(request.user) is not None
    form = LinkRequestForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if has_player:
            status = 409
        elif not form.is_valid():
            status = 400
        else:
            return _link_ask(request, form)
    return render(
        request,
        "people/my_claim.html",
        {"form": form, "has_player": has_player, "requests": selectors.user_link_requests(request.user)},
        status=status,
    )


def _link_ask(request: HttpRequest, form: LinkRequestForm) -> HttpResponse:
    user_key, client_key = f"user:{request.user.pk}", client_address(request)
    throttle_check("link_request_user", user_key)
    throttle_check("link_request_client", client_key)
    throttle_hit("link_request_user", user_key)
    throttle_hit("link_request_client", client_key)
    league = form.cleaned_data["league"]
    try:
        services.link_request_create(
            league=league,
            user=request.user,
            membership_number=form.cleaned_data["membership_number"],
            actor=request.user,
        )
    except ValidationError as exc:
        service_errors_to_form(form, exc)
        return render(request, "people/my_claim.html", {"form": form, "has_player": False, "requests": []}, status=400)
    messages.success(
        request,
        _("If this number belongs to a member of %(league)s, its admins will review your request.")
        % {"league": league.display_name},
    )
    return redirect("me-claim")


# ---------------------------------------------------------------- one's own player


@access(GET=LOGGED_IN, POST=LOGGED_IN)
def my_player_new(request: HttpRequest) -> HttpResponse:
    """A person on no roster makes their own player."""
    has_player = authz.player_of(request.user) is not None
    form = OwnPlayerForm(request.POST or None, initial={"language": request.LANGUAGE_CODE})
    status = 200
    if request.method == "POST":
        if has_player:
            status = 409
        elif form.is_valid():
            try:
                player = services.player_self_create(user=request.user, actor=request.user, **form.cleaned_data)
            except ValidationError as exc:
                service_errors_to_form(form, exc)
                status = 400
            else:
                messages.success(
                    request,
                    _("Your player %(player)s is made; your membership number is %(number)s.")
                    % {"player": player_display_name(player), "number": player.membership_number},
                )
                return redirect("me")
        else:
            status = 400
    return render(request, "people/player_new.html", {"form": form, "has_player": has_player}, status=status)


# ---------------------------------------------------------------- one's data


def _private(response: HttpResponseBase) -> HttpResponseBase:
    patch_cache_control(response, private=True, no_store=True, no_cache=True, max_age=0)
    return response


def _data_json(data: dict[str, list[dict[str, Any]]]) -> HttpResponse:
    body = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="my-data.json"'
    return response


def _data_zip(data: dict[str, list[dict[str, Any]]]) -> HttpResponse:
    """One CSV per table (its header the row's keys), in a zip; cells spreadsheet-safe."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for table, rows in data.items():
            text = io.StringIO()
            keys = list(rows[0]) if rows else []
            writer = csv.DictWriter(text, fieldnames=keys or ["(none)"])
            writer.writeheader()
            for row in rows:
                cells = {
                    k: json.dumps(v, cls=DjangoJSONEncoder, ensure_ascii=False) if isinstance(v, (dict, list)) else v
                    for k, v in row.items()
                }
                writer.writerow(csv_row(cells))
            archive.writestr(f"{table}.csv", "\ufeff" + text.getvalue())
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = 'attachment; filename="my-data.zip"'
    return response


@access(GET=LOGGED_IN)
def my_data(request: HttpRequest) -> HttpResponseBase:
    """Everything the site holds about the signed-in person: JSON or a zip of CSVs."""
    fmt = request.GET.get("format", "")
    if fmt == "json":
        return _private(_data_json(selectors.person_data(request.user)))
    if fmt == "csv":
        return _private(_data_zip(selectors.person_data(request.user)))
    status = 400 if fmt else 200
    error = _("format: ask for json or csv.") if fmt else ""
    return _private(render(request, "people/my_data.html", {"error": error}, status=status))


# ---------------------------------------------------------------- closing one's account


@access(GET=LOGGED_IN, POST=LOGGED_IN)
def my_close(request: HttpRequest) -> HttpResponse:
    """Close the account: its password and its login name typed again, then it is gone."""
    form = CloseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        address = client_address(request)
        throttle_check("login_client", address)
        if not user.check_password(form.cleaned_data["password"]):
            throttle_hit("login_client", address)
            form.add_error("password", _("This is not your password."))
        elif form.cleaned_data["confirm"].strip() != user.get_username():
            form.add_error("confirm", _("Type your login name exactly as it is."))
        else:
            services.account_close(user=user, actor=user)
            logout(request)
            messages.success(request, _("Your account is closed. Your results stay with the leagues."))
            return redirect("home")
    status = 400 if request.method == "POST" else 200
    return render(
        request, "people/my_close.html", {"form": form, "player": authz.player_of(request.user)}, status=status
    )
