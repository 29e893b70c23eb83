"""Row locks that serialise writes to one object: a row lock on PostgreSQL; SQLite takes the
database's write lock at the transaction's start (IMMEDIATE, config/settings.py), which
serialises writers the same way."""

from __future__ import annotations

from .models import Game


def game_lock(game_id: int) -> Game:
    """Lock one game for the rest of the transaction (result entry, hands, imports). Its season
    and rule set come in the same read (every caller reads them next); only the game's row is
    locked."""
    return Game.objects.select_related("season__rule_set").select_for_update(of=("self",)).get(pk=game_id)
