"""Registration, the waiting list and check-in."""

from __future__ import annotations


from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import live
from kyoku import authz
from kyoku.audit import audit_log_write
from kyoku.principals import Actor
from kyoku.text import name_clean
from league import services as league_services
from league.models import Entry, Player

from ..ema import ema_number_check, nationality_check
from ..models import Event, Registration
from .common import authorize, event_division, fail


def _entry_ensure(event: Event, player: Player, actor: Actor) -> None:
    division = event_division(event)
    if not Entry.objects.filter(season=event.season, player=player).exists():
        league_services.entry_create(division=division, player=player, actor=actor)


def _consent_require(event: Event, player: Player, actor: Actor) -> None:
    """Registering for an event joins its league: the player's own registration does (it is their
    consent); the director may register a player of another league only once that player has
    joined (an accepted invitation, their own application or registration: docs/privacy.md)."""
    try:
        league_services.membership_require(league=event.league, player=player, actor=actor)
    except league_services.InvitationRequired:
        raise fail(
            "player",
            _(
                "%(player)s has not joined this league: they register themselves on the event's page, "
                "or accept an invitation to one of the league's seasons first."
            ),
            "invitation_required",
            player=str(player),
        ) from None


def _acts_for_self(actor: Actor, player_id: int) -> bool:
    own = authz.player_of(actor)
    return own is not None and own.pk == player_id


def _desk_tell(event_id: int, kind: str) -> None:
    """The desk's screens hear of a registration, a withdrawal or a check-in once committed (live)."""
    live.publish_on_commit(live.desk_topic(event_id), None, kind)


@transaction.atomic
def registration_add(
    *,
    event: Event,
    player: Player,
    team: str = "",
    ema_number: str = "",
    nationality: str = "",
    substitute: bool = False,
    actor: Actor,
) -> Registration:
    """Register a player: confirmed while places remain, else on the waiting list (in order of
    registration). A substitute fills a seat on the day and is not ranked."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise fail("event", _("The event is over."), "event_finished")
    if not _acts_for_self(actor, player.pk) or substitute:
        authorize(actor, event, authz.Need.DIRECTOR)  # registering someone else is the director's job
    elif event.status != Event.Status.REGISTRATION and not authz.allowed(actor, event, authz.Need.DIRECTOR):
        raise fail("event", _("Registration has closed: ask the director."), "registration_closed")
    try:
        ema_number, nationality = ema_number_check(ema_number), nationality_check(nationality)
    except ValueError as exc:
        field, message = str(exc).split(": ", 1)
        raise fail(field, message, f"{field}_invalid") from None
    team = name_clean(team, field="team", max_length=60, required=False)  # NFC; no control, bidi or zero-width
    _consent_require(event, player, actor)
    existing = Registration.objects.filter(event=event, player=player).first()
    if existing and existing.status != Registration.Status.WITHDRAWN:
        raise fail("player", _("%(player)s is already registered."), "already_registered", player=str(player))
    confirmed = Registration.objects.filter(event=event, status=Registration.Status.CONFIRMED, substitute=False).count()
    status = Registration.Status.CONFIRMED if substitute or confirmed < event.capacity else Registration.Status.WAITING
    if existing:
        registration = existing
        registration.status, registration.team, registration.substitute = status, team, substitute
        registration.ema_number, registration.nationality = ema_number, nationality
        registration.registered_at = timezone.now()
        registration.save()
    else:
        registration = Registration.objects.create(
            event=event,
            player=player,
            status=status,
            team=team,
            ema_number=ema_number,
            nationality=nationality,
            substitute=substitute,
            checked_in=substitute,
        )
    if status == Registration.Status.CONFIRMED:
        _entry_ensure(event, player, actor)
    audit_log_write(
        actor=actor,
        action="event.register",
        obj=registration,
        data={"player": player.pk, "status": status, "substitute": substitute},
    )
    _desk_tell(event.pk, "registration")
    return registration


@transaction.atomic
def registration_withdraw(*, registration: Registration, actor: Actor) -> Registration | None:
    """Withdraw; the first player on the waiting list takes the place (returned)."""
    if not _acts_for_self(actor, registration.player_id):
        authorize(actor, registration, authz.Need.DIRECTOR)
    event = Event.objects.select_for_update().get(pk=registration.event_id)
    if event.status != Event.Status.REGISTRATION and not authz.allowed(actor, event, authz.Need.DIRECTOR):
        raise fail("event", _("Registration has closed: ask the director."), "registration_closed")
    was = registration.status
    registration.status, registration.checked_in = Registration.Status.WITHDRAWN, False
    registration.save(update_fields=["status", "checked_in"])
    audit_log_write(actor=actor, action="event.withdraw", obj=registration, data={"from": was})
    _desk_tell(event.pk, "withdraw")
    if was != Registration.Status.CONFIRMED:
        return None
    waiting = (
        Registration.objects.filter(event=event, status=Registration.Status.WAITING)
        .order_by("registered_at", "pk")
        .first()
    )
    if waiting:
        waiting.status = Registration.Status.CONFIRMED
        waiting.save(update_fields=["status"])
        _entry_ensure(event, waiting.player, actor)
        audit_log_write(actor=actor, action="event.promote_waiting", obj=waiting, data={"player": waiting.player_id})
    return waiting


@transaction.atomic
def checkin_set(*, registration: Registration, present: bool, actor: Actor) -> Registration:
    authorize(actor, registration, authz.Need.DIRECTOR)
    if registration.status != Registration.Status.CONFIRMED:
        raise fail("registration", _("Only a confirmed player checks in."), "not_confirmed")
    registration.checked_in = bool(present)
    registration.save(update_fields=["checked_in"])
    from .common import round_played

    late = bool(present) and any(round_played(r) for r in registration.event.round_set.all())
    audit_log_write(
        actor=actor,
        action="event.late_arrival" if late else "event.checkin",  # a late arrival joins the rounds not started
        obj=registration,
        data={"present": bool(present)},
    )
    _desk_tell(registration.event_id, "checkin")
    return registration
