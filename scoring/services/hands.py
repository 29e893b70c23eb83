"""Writes of one game's hands: preview, add, correct and delete a hand (the later hands
re-settled), find the hand a request means, and re-settle a whole game after a rule or engine fix."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from kyoku.authz import acting_user
from kyoku.principals import Actor
from kyoku.rows import instance_insert, instance_update
from league.models import Game, Season
from league.services import ResultConflict, audit_log_write
from league.locks import game_lock
from league.signals import game_facts_changed_now

from ..models import HandRecord
from .checks import game_closed_by_hands, game_check_writable, hands_of_game, honba_check, sequence_check
from .game_end import result_from_hands
from .state import (
    DERIVED_FIELDS,
    Rules,
    _derived_set,
    _state_of,
    hands_replay,
    position_after,
    record_clean,
    scores_add,
)


class HandConflict(ResultConflict):
    """A different record is already stored for this sequence; correcting it must be explicit."""


def hand_preview(*, game: Game, record, sequence: int | None = None) -> dict:
    """Settle a hand at ``sequence`` (default: the next one) without storing anything."""
    rules = Rules(game.season.rule_set)
    hands = hands_of_game(game)
    sequence = sequence_check(len(hands) + 1 if sequence is None else sequence, len(hands) + 1)
    state, scores = position_after(rules, hands[sequence - 2] if sequence > 1 else None)
    clean = record_clean(record, state, rules.system)
    honba_check(clean)
    settlement = rules.settle(clean)
    return {
        "sequence": sequence,
        "record": clean,
        "settlement": settlement,
        "scores_before": scores,
        "scores_after": scores_add(scores, settlement["deltas"]),
    }


@transaction.atomic
def hand_record_add(*, game: Game, record, actor: Actor, sequence: int | None = None) -> tuple[HandRecord, bool]:
    """Settle and store the next hand of ``game``. Returns (hand, created).

    Submitting the record already stored under ``sequence`` again changes nothing.
    """
    game = game_lock(game.pk)
    rules = Rules(game.season.rule_set)
    hands = hands_of_game(game)
    sequence = sequence_check(len(hands) + 1 if sequence is None else sequence, len(hands) + 1)
    if sequence <= len(hands):
        return _hand_repeat(rules, hands[sequence - 1], record), False
    game_check_writable(game)
    if game_closed_by_hands(hands):
        raise ValidationError(
            {
                "game": [
                    ValidationError(
                        _("this game was finished from its hands; correct a hand instead"),
                        code="game_finished_from_hands",
                    )
                ]
            }
        )
    state, scores = position_after(rules, hands[-1] if hands else None)
    clean = record_clean(record, state, rules.system)
    honba_check(clean)
    settlement = rules.settle(clean)
    hand = _derived_set(
        HandRecord(game=game, sequence=sequence, entered_by=acting_user(actor)),
        clean,
        settlement,
        scores_add(scores, settlement["deltas"]),
    )
    # plain statements (kyoku.rows): no receiver listens to a hand's or a game's save;
    # game_facts_changed below tells the figures
    instance_insert(hand)
    if game.status == Game.Status.SCHEDULED:
        game.status = Game.Status.IN_PROGRESS
        instance_update(game, ["status"])
    audit_log_write(
        actor=actor,
        action="hand.add",
        obj=hand,
        data={"game": game.pk, "sequence": sequence, "record": clean, "deltas": settlement["deltas"]},
    )
    game_facts_changed_now(game.pk)
    return hand, True


def _hand_repeat(rules: Rules, hand: HandRecord, record) -> HandRecord:
    if record_clean(record, _state_of(rules, hand), rules.system) != hand.record:
        raise HandConflict(
            {
                "sequence": [
                    ValidationError(
                        _("hand %(n)s is already entered with a different record; correct it explicitly"),
                        code="hand_conflict",
                        params={"n": hand.sequence},
                    )
                ]
            }
        )
    return hand


@transaction.atomic
def hand_record_correct(*, hand: HandRecord, record, actor: Actor) -> HandRecord:
    """Replace one hand's record and re-settle it and every later hand of the game."""
    game = game_lock(hand.game_id)
    game_check_writable(game)
    rules = Rules(game.season.rule_set)
    hands = hands_of_game(game)
    index = hand.sequence - 1
    state, scores = position_after(rules, hands[index - 1] if index else None)
    target = hands[index]
    clean = record_clean(record, state, rules.system)
    honba_check(clean)
    previous = target.record
    if clean == previous:
        return target
    rules.settle(clean)  # the corrected hand's own errors name its fields without a prefix
    target.record, target.entered_by = clean, acting_user(actor)
    target.save(update_fields=["record", "entered_by", "entered_at"])
    later = hands_replay(rules, hands[index:], state, scores)
    HandRecord.objects.bulk_update(later, DERIVED_FIELDS)
    audit_log_write(
        actor=actor,
        action="hand.correct",
        obj=target,
        data={
            "game": game.pk,
            "sequence": target.sequence,
            "previous": previous,
            "record": clean,
            "resettled": [h.sequence for h in later],
        },
    )
    if game_closed_by_hands(hands):
        result_from_hands(game, rules, hands, actor)
    game_facts_changed_now(game.pk)  # the figures (an unchanged result does not write again)
    return target


def hand_expected(*, game: Game, sequence: int, hand_id) -> HandRecord:
    """The hand stored as number ``sequence`` of ``game``, provided it is hand ``hand_id``: when a
    hand is deleted the later ones move up, so a repeated or stale request must name the hand it
    means rather than hit the one that moved into its place."""
    hand = HandRecord.objects.filter(game=game, sequence=sequence).first()
    if hand is None or str(hand.pk) != str(hand_id):
        raise HandConflict(
            {
                "hand_id": [
                    f"hand {sequence} of this game is not hand #{hand_id} (it was deleted "
                    "already, or the hands have moved); reload the hands"
                ]
            }
        )
    return hand


@transaction.atomic
def hand_record_delete(*, hand: HandRecord, actor: Actor) -> dict:
    """Delete one hand entered by mistake: the hands after it move up one number and are re-settled
    from the position before it (dealer, honba, sticks, running scores). A game finished from its
    hands stays finished at its new last hand, its result and chombo deductions re-derived; its
    only hand cannot be deleted. Returns ``{"sequence", "record", "resettled"}``."""
    game = game_lock(hand.game_id)
    game_check_writable(game)
    rules = Rules(game.season.rule_set)
    hands = hands_of_game(game)
    target = next((h for h in hands if h.pk == hand.pk), None)
    if target is None:
        raise HandConflict({"hand": [f"hand {hand.sequence} is no longer stored; it was deleted already"]})
    finished = game_closed_by_hands(hands)
    if finished and len(hands) == 1:
        raise ValidationError(
            {"hand": [gettext("this game was finished from its only hand; correct that hand instead")]}
        )
    index = target.sequence - 1
    later = hands[index + 1 :]
    target.delete()
    _sequences_shift_down(game, target.sequence)
    for h in later:
        h.sequence -= 1
    kept = hands[:index] + later
    resettled = hands_replay(rules, later, *position_after(rules, kept[index - 1] if index else None))
    HandRecord.objects.bulk_update(resettled, DERIVED_FIELDS)
    if finished and not kept[-1].ends_game:
        kept[-1].ends_game = True
        kept[-1].save(update_fields=["ends_game"])
    audit_log_write(
        actor=actor,
        action="hand.delete",
        obj=game,
        data={
            "sequence": target.sequence,
            "record": target.record,
            "deltas": target.settlement.get("deltas"),
            "resettled": [h.sequence for h in resettled],
        },
    )
    if finished:
        result_from_hands(game, rules, kept, actor)
    game_facts_changed_now(game.pk)  # the figures (an unchanged result does not write again)
    return {"sequence": target.sequence, "record": target.record, "resettled": [h.sequence for h in resettled]}


def _sequences_shift_down(game: Game, after: int) -> None:
    """Renumber the hands after ``after`` one down, through numbers no hand uses, so the unique
    (game, sequence) index never sees two hands on one number mid-statement."""
    later = HandRecord.objects.filter(game=game, sequence__gt=after)
    later.update(sequence=F("sequence") + SHIFT_THROUGH)
    HandRecord.objects.filter(game=game, sequence__gt=SHIFT_THROUGH).update(sequence=F("sequence") - SHIFT_THROUGH - 1)


SHIFT_THROUGH = 10000  # above any real hand number (a game has tens of hands; the column holds up to 32,767)


@transaction.atomic
def game_hands_resettle(*, game: Game, actor: Actor) -> int:
    """Re-settle every stored hand of ``game`` (after an engine or rule fix) as ``actor`` (whoever
    asked: an admin, a command). Returns the hands changed."""
    game = game_lock(game.pk)
    rules = Rules(game.season.rule_set)
    hands = hands_of_game(game)
    changed = hands_replay(rules, hands, *position_after(rules, None))
    HandRecord.objects.bulk_update(changed, DERIVED_FIELDS)
    if changed:
        audit_log_write(
            actor=actor, action="game.hands_resettle", obj=game, data={"resettled": [h.sequence for h in changed]}
        )
        if game_closed_by_hands(hands) and game.season.status != Season.Status.CLOSED:
            result_from_hands(game, rules, hands, actor)
        game_facts_changed_now(game.pk)
    return len(changed)
