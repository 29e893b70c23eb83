"""The EMA export page: before the director downloads the file, the players whose names it cannot
write as a person confirmed them in Latin script (none in Latin script, a guessed split, parts
nobody confirmed), each with a link to fix it, then the downloads (events.views.event_ema)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from kyoku import authz
from kyoku.access import DIRECTOR, access, object_for_request
from league.models import LeagueMembership

from . import selectors
from .models import Event


def _fix_links(request: HttpRequest, event: Event, listed: list[dict]) -> None:
    """Where each listed player's name is fixed, for this reader: the site's admin for a site
    administrator, the league's member page for an admin of the league (when the player is a
    member), else nothing (the page says who fixes names)."""
    staff = request.user.is_staff
    members: set[int] = set()
    if not staff and authz.is_admin(request.user, event.league):
        members = set(
            LeagueMembership.objects.filter(league=event.league, player_id__in=[p["pk"] for p in listed]).values_list(
                "player_id", flat=True
            )
        )
    for p in listed:
        if staff:
            p["fix"] = reverse("admin:league_player_change", args=[p["pk"]])
        elif p["pk"] in members:
            p["fix"] = reverse("member", args=[event.league.slug, p["pk"]])
        else:
            p["fix"] = ""


@access("event", GET=DIRECTOR)
def event_ema_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """The names the EMA file would guess or leave blank, then the file (CSV, XLSX)."""
    event = object_for_request(request, Event.objects.select_related("league", "season__rule_set"), pk=event_id)
    listed = selectors.ema_names(event)
    _fix_links(request, event, listed)
    return render(
        request,
        "events/ema.html",
        {
            "event": event,
            "listed": listed,
            "rules": selectors.rules_said(event.season.rule_set),
        },
    )
