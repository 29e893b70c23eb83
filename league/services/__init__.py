"""Writes. Every function runs in one transaction and writes its audit row in it; the standings
follow incrementally in the same transaction (ratings follow in a task after the commit).

The writes live in one module per concern; this package re-exports their public names, so callers
keep writing ``services.game_result_record(...)`` or ``from league.services import ...``:

- :mod:`.common`: shared by the writes (audit log, actor re-check, engine errors, standings refresh);
- :mod:`.rule_sets`: rule sets created and revised;
- :mod:`.seasons`: seasons and their divisions, season status, entries;
- :mod:`.games`: games created, results recorded and re-derived;
- :mod:`.penalties`: the penalty ledger (assign, cancel);
- :mod:`.standings_writes`: the stored standings (full rebuild, incremental update, re-rank);
- :mod:`.summary`: the stored per-division summary of the season page (increments, full rebuild);
- :mod:`.applications`: qualification applications filed and decided;
- :mod:`.players`: a player's name split confirmed by an admin;
- :mod:`.memberships`: who is a league's member (what its admins may read), invitations;
- :mod:`.promotion`: season end, entries carried into the next season.

Private helpers are not re-exported: import them from their module (``league.services.games``
for ``game_lock``), which is also the module to patch in tests.
"""

from .applications import application_decide, application_submit
from .common import actor_authorize, audit_log_write
from .games import (
    MAX_ABS_SCORE,
    MAX_DEPOSITS,
    ResultConflict,
    game_create,
    game_points_compute,
    game_result_recompute,
    game_result_record,
    game_scores_check,
)
from .memberships import (
    InvitationRequired,
    consent_via,
    invitation_accept,
    invitation_create,
    invitation_block_lift,
    invitation_decline,
    is_member,
    membership_grant,
    membership_require,
)
from .penalties import penalty_assign, penalty_cancel
from .players import player_name_confirm, player_name_edited, player_name_unconfirm
from .promotion import season_promote
from .rule_sets import rule_set_create, rule_set_revise
from .seasons import DEFAULT_DIVISIONS, entry_create, season_create, season_status_set
from .standings_writes import STANDING_FIELDS, player_standings_touch, standings_recompute, standings_update
from .summary import (
    SUMMARY_FIELDS,
    division_summary_entrants,
    division_summary_game_moved,
    division_summary_recompute,
    division_summary_rows,
)

__all__ = [
    "DEFAULT_DIVISIONS",
    "MAX_ABS_SCORE",
    "MAX_DEPOSITS",
    "STANDING_FIELDS",
    "SUMMARY_FIELDS",
    "InvitationRequired",
    "ResultConflict",
    "actor_authorize",
    "application_decide",
    "application_submit",
    "audit_log_write",
    "division_summary_entrants",
    "division_summary_game_moved",
    "division_summary_recompute",
    "division_summary_rows",
    "consent_via",
    "entry_create",
    "game_create",
    "game_points_compute",
    "game_result_recompute",
    "game_result_record",
    "game_scores_check",
    "invitation_accept",
    "invitation_create",
    "invitation_block_lift",
    "invitation_decline",
    "is_member",
    "membership_grant",
    "membership_require",
    "penalty_assign",
    "penalty_cancel",
    "player_name_confirm",
    "player_name_edited",
    "player_name_unconfirm",
    "player_standings_touch",
    "rule_set_create",
    "rule_set_revise",
    "season_create",
    "season_promote",
    "season_status_set",
    "standings_recompute",
    "standings_update",
]
