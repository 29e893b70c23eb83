"""The cut to a stage (a semi-final, the final): a tie there that no tiebreak separates is decided
by the director (a playoff hand, a draw of lots), recorded and audited, never by the listing order."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.audit import audit_log_write
from kyoku.principals import Actor, actor_label
from kyoku.text import name_clean

from .. import ranking
from ..models import CutDecision, Event, Round
from .common import authorize, event_board_bump, fail


@transaction.atomic
def cut_decide(*, event: Event, stage: str, order: list[int], method: str, note: str = "", actor: Actor) -> CutDecision:
    """Record how a tie at ``stage``'s cut was decided: ``order`` lists the tied players as the
    playoff or the draw placed them (the first ones go through). Only while the stage has not
    started, and only for the players tied now."""
    from .. import selectors

    authorize(actor, event, authz.Need.DIRECTOR)
    event = Event.objects.select_for_update().get(pk=event.pk)
    if method not in CutDecision.Method.values:
        raise fail("method", _("How the tie was decided: a playoff hand, a draw of lots or other."), "cut_method")
    note = name_clean(note, field="note", max_length=200, required=method == CutDecision.Method.OTHER)
    stages = selectors.event_stages(event)
    index = next((i for i, s in enumerate(stages) if s.name == stage), None)
    if index is None:
        raise fail("stage", _("This event has no such stage."), "stage_unknown")
    first = Round.objects.get(event=event, number=stages[index].rounds[0])
    if first.started_at is not None:
        raise fail("stage", _("This stage has started: its players are decided."), "stage_started")
    by_stage = selectors.standings_by_stage(event)
    if index >= len(by_stage):
        raise fail("stage", _("Seat the stage before this one first."), "stage_before_unseated")
    tied, places = ranking.cut_tie(by_stage[index][1], stages[index].cut)
    if not tied:
        raise fail("order", _("No tie at this cut needs deciding."), "cut_no_tie")
    before = range(1, event.rounds + 1) if index == 0 else stages[index - 1].rounds
    if not selectors.stage_rounds_complete(event, before):
        raise fail(
            "stage",
            _("Results before this cut are still to come: the tie is decided once they are all in."),
            "cut_results_missing",
        )
    if (
        not isinstance(order, list)
        or any(isinstance(p, bool) or not isinstance(p, int) for p in order)
        or sorted(order) != sorted(tied)
    ):
        raise fail(
            "order",
            _("List exactly the tied players: %(names)s."),
            "cut_order",
            names=", ".join(selectors.names(tied).values()),
        )
    user = authz.acting_user(actor)
    decision = CutDecision.objects.create(
        event=event,
        stage=stage,
        tied=sorted(tied),
        order=list(order),
        method=method,
        note=note,
        by=user,
        by_label="" if user is not None else actor_label(actor),
    )
    audit_log_write(
        actor=actor,
        action="event.cut_decide",
        obj=event,
        data={
            "stage": stage,
            "tied": sorted(tied),
            "order": list(order),
            "places": places,
            "method": method,
            "note": note,
        },
    )
    event_board_bump(event.pk)
    return decision


def stage_seating_stale(round_: Round) -> bool:
    """Whether a stage's first round is seated with players the corrected standings no longer send
    through (its clock may not start until it is seated again)."""
    from .. import selectors

    if round_.stage == Round.Stage.QUALIFYING:
        return False
    return any(
        c["stale"] and c["round"] is not None and c["round"].pk == round_.pk for c in selectors.cut_states(round_.event)
    )
