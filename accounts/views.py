"""The answers allauth's pages need from the site (429, 403 with the reason), and a league's
security page (its second-factor rule)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from kyoku.access import ADMIN, access, object_for_request
from kyoku.models import League


def too_many_requests(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """allauth's rate limits (``ACCOUNT_RATE_LIMITS``): the site's 429 page, in the reader's language."""
    words = _("Too many requests from here: wait a few minutes, then try again.")
    return render(request, "429.html", {"words": words}, status=429)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 403 page; a write refused for a missing second factor says so (kyoku.second_factor)."""
    from kyoku.second_factor import SecondFactorRequired

    context: dict[str, Any] = {}
    if isinstance(exception, SecondFactorRequired):
        context["second_factor_words"] = str(exception)
    return render(request, "403.html", context, status=403)


@access("league", GET=ADMIN, POST=ADMIN)
def league_security(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's security: whether its admins, referees and directors must have a second factor
    (kyoku.second_factor). Switching it on needs the acting admin's own factor first."""
    from django.contrib import messages
    from django.shortcuts import redirect

    from kyoku.second_factor import SecondFactorRequired, has_second_factor, league_second_factor_set

    league = object_for_request(request, League, slug=slug)
    status = 200
    if request.method == "POST":
        choice = request.POST.get("requires_second_factor")
        if choice not in ("on", "off"):
            messages.error(request, _("Choose whether a second factor is required (on or off)."))
            status = 400
        else:
            try:
                league_second_factor_set(league, choice == "on", actor=request.user)
            except SecondFactorRequired as exc:
                messages.error(request, str(exc))
                status = 403
            else:
                messages.success(request, _("Saved."))
                return redirect("league-security", slug=league.slug)
    context = {"league": league, "has_factor": has_second_factor(request.user)}
    return render(request, "account/league_security.html", context, status=status)
