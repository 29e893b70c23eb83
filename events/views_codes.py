"""The director's view of wrong table codes: who is waiting after wrong guesses at this event,
and freeing one (events.services.code_guesses)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from kyoku.access import DIRECTOR, access, object_for_request
from kyoku.principals import request_actor

from .models import Event
from .services import code_guesses


@access("event", GET=DIRECTOR, POST=DIRECTOR, actions={"clear": DIRECTOR})
def event_code_guesses(request: HttpRequest, event_id: int) -> HttpResponse:
    """GET: the guessers of the last hour (address, wrong codes, wait); POST ``clear``: free one."""
    event = object_for_request(request, Event, pk=event_id)
    if request.method == "POST":
        guesser = str(request.POST.get("guesser", ""))[:80]
        if code_guesses.guesser_clear(event=event, guesser=guesser, actor=request_actor(request)):
            messages.success(request, _("%(who)s may enter a table code again.") % {"who": guesser})
        else:
            messages.error(request, _("No wrong codes from %(who)s at this event.") % {"who": guesser or "?"})
        return redirect("event-code-guesses", event_id=event.pk)
    return render(
        request,
        "events/code_guesses.html",
        {"event": event, "guessers": code_guesses.guessers(event), "free": code_guesses.FREE},
    )
