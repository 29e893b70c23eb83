"""A table keeps its own hands (the scorekeeper for the players at the table, or its phone): entered
and corrected while its round is in play and before a report is recorded; finishing turns the
hands' final scores into the table's report."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

import live
from kyoku import authz
from kyoku.principals import Actor
from league.models import Game

from ..models import TableReport
from .common import authorize, conflict, fail
from .table_reports import game_open_require, recorded_refuse, table_report_submit
from .tables import round_in_play_require, seat_of
from .time_up import hand_past_last_check


def _table_check(game: Game, actor: Actor) -> None:
    authorize(actor, game, authz.Need.TABLE)
    game_open_require(game)
    round_in_play_require(game)
    report = TableReport.objects.filter(game=game).only("status").first()
    recorded_refuse(report, game, field="game")
    if report and report.status == TableReport.Status.PENDING:
        raise conflict(
            "game",
            _("The table's final scores wait for confirmation: dispute them to correct a hand."),
            "report_pending",
        )


def table_hand_add(*, game: Game, record, sequence: int | None, actor: Actor):
    """A player at the table (or the table's phone) enters the next hand, as the scorekeeper does."""
    from scoring import services as scoring

    _table_check(game, actor)
    hand_past_last_check(game=game, sequence=sequence, actor=actor)
    with transaction.atomic():
        added = scoring.hand_record_add(game=game, record=record, actor=actor, sequence=sequence)
        _past_last_tell(game, actor)
        live.publish_on_commit(live.table_topic(game.pk), added[0].sequence, "hand")
    return added


def _past_last_tell(game: Game, actor: Actor) -> None:
    """The hand just stored takes the table past its last hand (the dealer repeats after time, the
    event allows it): the league's referees and admins are called, once per table, in the hand's
    transaction (the referee desk lists the same call: events.selectors.after_time_calls)."""
    from .. import notices, selectors

    info = selectors.table_last_hand(game)
    state = info["state"] if info else None
    if state is not None and (state.recorded > state.last or state.extra):
        notices.past_last_call(game=game, actor=actor)


def table_hand_correct(*, game: Game, sequence: int, record, actor: Actor):
    from scoring import services as scoring
    from scoring.models import HandRecord

    _table_check(game, actor)
    hand = HandRecord.objects.filter(game=game, sequence=sequence).first()
    if hand is None:
        raise fail("sequence", _("No hand %(n)s at this table."), "no_such_hand", n=sequence)
    with transaction.atomic():
        corrected = scoring.hand_record_correct(hand=hand, record=record, actor=actor)
        live.publish_on_commit(live.table_topic(game.pk), sequence, "hand")
    return corrected


def table_hand_preview(*, game: Game, record, sequence: int | None, actor: Actor) -> dict:
    from scoring import services as scoring

    _table_check(game, actor)
    return scoring.hand_preview(game=game, record=record, sequence=sequence)


def table_hands_finish(*, game: Game, actor: Actor) -> tuple[TableReport, bool]:
    """The table ends its game at the last hand entered: the final scores the hands give become the
    table's report, which the other seats confirm (the reporting seat is the player's own, or East
    for the table's phone)."""
    from scoring import services as scoring
    from scoring.models import HandRecord

    _table_check(game, actor)
    hands = list(HandRecord.objects.filter(game=game).order_by("sequence"))
    if not hands:
        raise fail("hands", _("No hand has been entered at this table."), "no_hands")
    scores, deposits_left = scoring.final_scores(scoring.Rules(game.season.rule_set), hands)
    seat = seat_of(game, actor)
    return table_report_submit(
        game=game, scores=scores, deposits_left=deposits_left, seat=seat if seat is not None else 0, actor=actor
    )
