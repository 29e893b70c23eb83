"""Incidents logged with their timeline, and the engine's proposed ruling for one."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from kyoku.authz import acting_user
from kyoku.principals import Actor
from kyoku.labels import LABELS
from kyoku.safe_json import check_field
from league.models import Game
from league.services import audit_log_write
from referee.engine import RulingError, rule

from ..models import Incident, Ruling
from .common import incident_record, rules_record_for, ruling_error, text_checked


MAX_EVENTS = 500  # a hand's timeline: a few dozen events; far more is not a real incident


# What a stored timeline event may carry: the keys the engine reads (ruling contract) and the two
# annotations the contract names (``note``, ``tile``). The engine ignores other keys; storage
# refuses them, so a typo (``setled_t``) is caught instead of silently changing the ruling.
EVENT_KEYS = frozenset({"t", "seat", "act", "settled_t", "visible", "kind", "by", "note", "tile"})


def _event_keys_check(events: list) -> None:
    for i, event in enumerate(events):
        if isinstance(event, dict):
            unknown = sorted(set(event) - EVENT_KEYS)
            if unknown:
                raise ValidationError({f"events[{i}].{unknown[0]}": [gettext("unknown field")]})


# the kinds a page can name in every language (kyoku.labels); anything else would show as a code
INCIDENT_KINDS = tuple(LABELS["incident_kind"])


@transaction.atomic
def incident_log(
    *,
    game: Game,
    hand_number: int | None,
    dealer: int,
    kind: str,
    events: list,
    description: str = "",
    private_notes: str = "",
    reporter: Actor,
) -> Incident:
    """Store an incident after checking its timeline with the engine (nothing is stored when the
    engine rejects it; the error names the field, e.g. ``events[2].t``)."""
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer <= 3:
        raise ValidationError({"dealer": [gettext("the seat (0..3) of East this hand")]})
    if not isinstance(kind, str) or kind.strip() not in INCIDENT_KINDS:
        raise ValidationError({"kind": ["one of: " + ", ".join(INCIDENT_KINDS)]})
    if hand_number is not None and (
        isinstance(hand_number, bool) or not isinstance(hand_number, int) or hand_number < 0
    ):
        raise ValidationError({"hand_number": [gettext("a hand number, 0 or more")]})
    if not isinstance(events, list) or not events:
        raise ValidationError({"events": [gettext("record the timeline: at least one event")]})
    if len(events) > MAX_EVENTS:
        raise ValidationError(
            {"events": [gettext("at most %(events)s events in one incident") % {"events": MAX_EVENTS}]}
        )
    check_field(events, "events")
    _event_keys_check(events)
    kind = text_checked(kind, "kind", 40)
    description = text_checked(description or "", "description", 5000)
    private_notes = text_checked(private_notes or "", "private_notes", 5000)
    try:
        rule({"rules": rules_record_for(game.season), "dealer": dealer, "events": events})
    except RulingError as exc:
        raise ruling_error(exc) from None
    incident = Incident.objects.create(
        game=game,
        hand_number=hand_number,
        dealer=dealer,
        kind=kind.strip()[:40],
        events=events,
        description=description or "",
        private_notes=private_notes or "",
        reporter=acting_user(reporter),
        occurred_at=timezone.now(),
    )
    audit_log_write(
        actor=reporter,
        action="incident.log",
        obj=incident,
        data={"game": game.pk, "kind": incident.kind, "events": len(events)},
    )
    return incident


def ruling_propose(*, incident: Incident) -> dict:
    """The engine's ruling for an incident under its season's settings (stores nothing)."""
    try:
        return rule(incident_record(incident))
    except RulingError as exc:  # a stored timeline that the current engine no longer accepts
        raise ruling_error(exc) from None


def current_ruling(incident: Incident) -> Ruling | None:
    return incident.rulings.order_by("-decided_at", "-id").first()
