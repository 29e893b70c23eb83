"""The engine state between hands: a season's rule set resolved (:class:`Rules`), the admin's record
checked against the state the previous hand leaves, the position before a hand (state and
running scores), and the replay that re-derives the stored hands' settlement and scores."""

from __future__ import annotations

import json
from importlib import import_module

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from scoring.engine import SYSTEMS, SettlementError, resolve_rules
from scoring.engine.replay import STATE_KEYS, derived_digest, encode, scores_start, state_first, state_next
from scoring.engine.replay import hands_replay as engine_hands_replay

from ..models import HandRecord
from kyoku.errors import engine_error
from ..record_gate import record_gate


class Rules:
    """A rule set resolved once: its system, full options and engine module."""

    def __init__(self, rule_set):
        try:
            self.system, self.options = resolve_rules(rule_set.spec)
        except SettlementError as exc:
            raise ValidationError({"rule_set": [str(exc)]}) from None
        self.module = import_module(SYSTEMS[self.system])

    def settle(self, record: dict, prefix: str = "") -> dict:
        try:
            return self.module.settle(record, self.options)
        except SettlementError as exc:
            raise engine_error(exc, prefix) from None


def record_clean(record, state: dict, system: str) -> dict:
    """The admin's record with the derived state filled in; a state field typed differently is an error.
    ``system``: the season's rule system, whose engine declares the record's keys (the gate)."""
    record_gate(record, system)
    if "rules" in record:
        raise ValidationError({"rules": [gettext("leave rules out: the season's rule set applies")]})
    for key, value in state.items():
        if key in record and (record[key] != value or type(record[key]) is not type(value)):
            raise ValidationError(
                {
                    key: [
                        gettext("the previous hand leaves %(key)s = %(dumps)s, not %(dumps2)s")
                        % {"key": key, "dumps": json.dumps(value), "dumps2": json.dumps(record[key])}
                    ]
                }
            )
    return {**record, **state}


def scores_add(scores: list[int], deltas: list[int]) -> list[int]:
    return [s + d for s, d in zip(scores, deltas)]


def position_after(rules: Rules, previous: HandRecord | None) -> tuple[dict, list[int]]:
    """(state, running scores) before the hand that follows ``previous``."""
    if previous is None:
        return state_first(rules.system), scores_start(rules.system, rules.options)
    return state_next(rules.system, previous.record, previous.settlement), list(previous.scores_after)


def _state_of(rules: Rules, hand: HandRecord) -> dict:
    return {k: hand.record[k] for k in STATE_KEYS[rules.system] if k in hand.record}


def _derived_set(hand: HandRecord, record: dict, settlement: dict, scores: list[int]) -> HandRecord:
    """Set a hand's record and derived fields, with the digest a season re-settle compares."""
    hand.record, hand.settlement, hand.scores_after = record, settlement, scores
    hand.derived_digest = derived_digest(encode(settlement), encode(scores))
    return hand


DERIVED_FIELDS = ["record", "settlement", "scores_after", "derived_digest"]


def hands_replay(rules: Rules, hands: list[HandRecord], state: dict, scores: list[int]) -> list[HandRecord]:
    """Re-derive state, settlement and running scores of ``hands`` in order; returns the changed ones."""
    changed = []
    replay = engine_hands_replay(rules.system, rules.options, [h.record for h in hands], state, scores)
    try:
        for hand, (record, settlement, scores) in zip(hands, replay):
            if (record, settlement, scores) != (
                hand.record,
                hand.settlement,
                hand.scores_after,
            ) or hand.derived_digest is None:
                changed.append(_derived_set(hand, record, settlement, scores))
    except SettlementError as exc:
        sequence = hands[exc.index].sequence  # type: ignore[index]  # the replay names the hand that failed
        raise engine_error(exc, f"hands[{sequence}].") from None
    return changed
