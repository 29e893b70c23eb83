"""Shared by the league writes: the audit log, the actor re-check, engine errors as field errors,
the user a row records as its author, and the in-transaction standings refresh that every
change of games, entries or penalties ends with."""

from __future__ import annotations


from kyoku import audit as kyoku_audit
from kyoku import authz
from kyoku.principals import Actor

from ..models import Division
from .standings_writes import standings_update

# The audit log is shared plumbing (kyoku.audit); kept importable from here for the services.
audit_log_write = kyoku_audit.audit_log_write


def actor_authorize(actor: Actor, obj, need: authz.Need) -> None:
    """Services re-check the actor in the object's league (defence in depth behind the views):
    the system (a task, a command) passes, a user needs the role, a table phone or an anonymous
    visitor is refused what is not theirs (kyoku.authz); None is a programming error (TypeError)."""
    authz.authorize(actor, obj, need)


def standings_refresh(division_id: int, player_ids, moves: dict | None = None) -> None:
    """Bring the standings up to date inside the change's transaction (incrementally: only these
    players' rows and the ranks), so a stored change and its standings never disagree and no
    work is left for after the commit. ``moves``: see ``standings_update``."""
    standings_update(division=Division(pk=division_id), player_ids=player_ids, moves=moves)
