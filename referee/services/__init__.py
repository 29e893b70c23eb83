"""Referee writes: incidents, rulings, appeals, the penalty catalogue.

Every write runs in one transaction with its audit row (``league.services.audit_log_write``);
penalties go to the ledger through ``league.services.penalty_assign`` / ``penalty_cancel``,
which recompute the standings after commit. The engine (``referee.engine``) is pure; this package
feeds it the season's settings and stores what it said, what the referee decided, and why.

Incident status: open → ruled → appealed → closed (or ruled → closed when nobody appeals).

One module per concern, their public names re-exported here: ``common`` (the engine's input, its
errors as field errors, free text), ``incidents``, ``catalogue``, ``sanctions``, ``rulings``,
``appeals``.
"""

from .appeals import appeal_decide, appeal_file, player_concerned
from .catalogue import penalty_catalogue_current, penalty_catalogue_revise
from .common import incident_record, rules_record_for, ruling_error, text_checked
from .incidents import EVENT_KEYS, INCIDENT_KINDS, MAX_EVENTS, current_ruling, incident_log, ruling_propose
from .rulings import incident_close, ruling_decide
from .sanctions import (
    OVERRIDABLE,
    TABLE_POINTS_PER_LEAGUE_POINT,
    penalties_clean,
    ruling_override_apply,
    ruling_penalties_issue,
)

__all__ = [
    "EVENT_KEYS",
    "INCIDENT_KINDS",
    "MAX_EVENTS",
    "OVERRIDABLE",
    "TABLE_POINTS_PER_LEAGUE_POINT",
    "appeal_decide",
    "appeal_file",
    "current_ruling",
    "incident_close",
    "incident_log",
    "incident_record",
    "penalties_clean",
    "penalty_catalogue_current",
    "penalty_catalogue_revise",
    "player_concerned",
    "rules_record_for",
    "ruling_decide",
    "ruling_error",
    "ruling_override_apply",
    "ruling_penalties_issue",
    "ruling_propose",
    "text_checked",
]
