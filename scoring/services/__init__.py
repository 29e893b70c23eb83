"""Writes for hand-by-hand games. Each hand's raw record is the fact; its settlement and the
running scores after it are derived by the engine and stored. The engine state of a hand
(riichi: dealer, honba, deposits; Beijing: dealer, dealer streak, after a draw) follows from the
previous hand's settlement, so it is derived here and never retyped.

Every write runs in one transaction with its audit row; engine errors become Django
``ValidationError`` keyed by the record field (``result.winners[0].fu``) and store nothing.

The writes live in one module per concern; this package re-exports their public names, so callers
keep writing ``services.hand_record_add(...)`` or ``from scoring.services import ...``:

- :mod:`.settlement`: stateless settlement (the ``settle`` command, ``/api/settle``);
- :mod:`.state`: the engine state between hands (rules, record check, position, replay);
- :mod:`.checks`: checks and reads the writes of one game's hands share;
- :mod:`.hands`: hand writes (preview, add, correct, delete; a game re-settled);
- :mod:`.game_end`: a game finished from its hands, its result derived;
- :mod:`.chombo`: the chombo deductions of the hands in the penalty ledger;
- :mod:`.season`: a whole season in bulk (re-settle, re-score, rules revised);
- :mod:`.bulk_sql`: the SQL of the bulk path (streamed read, hands writer, ``rows_update``).
"""

from .bulk_sql import HandsWriter, rows_update
from .chombo import chombo_ledger_sync, game_chombo_ledger_sync
from .game_end import final_scores, game_hands_finish
from .hands import (
    HandConflict,
    game_hands_resettle,
    hand_expected,
    hand_preview,
    hand_record_add,
    hand_record_correct,
    hand_record_delete,
)
from .season import season_hands_resettle, season_results_rescore, season_rules_revise
from .settlement import settle_document, settle_one
from .state import DERIVED_FIELDS, Rules, hands_replay, position_after, record_clean, scores_add

__all__ = [
    "DERIVED_FIELDS",
    "HandConflict",
    "HandsWriter",
    "Rules",
    "chombo_ledger_sync",
    "final_scores",
    "game_chombo_ledger_sync",
    "game_hands_finish",
    "game_hands_resettle",
    "hand_expected",
    "hand_preview",
    "hand_record_add",
    "hand_record_correct",
    "hand_record_delete",
    "hands_replay",
    "position_after",
    "record_clean",
    "rows_update",
    "scores_add",
    "season_hands_resettle",
    "season_results_rescore",
    "season_rules_revise",
    "settle_document",
    "settle_one",
]
