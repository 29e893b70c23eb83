"""Row locks that serialise writes to one object: a row lock on PostgreSQL; SQLite takes the
database's write lock at the transaction's start (IMMEDIATE, config/settings.py), which
serialises writers the same way."""

from __future__ import annotations

from functools import cache

from django.db import connection
from django.db.transaction import TransactionManagementError

from kyoku.rows import instance_from_row, select_list

from .models import Game, RuleSet, Season


def game_lock(game_id: int) -> Game:
    """Lock one game for the rest of the transaction (result entry, hands, imports). Its season
    and rule set come in the same read (every caller reads them next); only the game's row is
    locked. A plain statement built once (kyoku.rows): every result and hand starts here."""
    if not connection.in_atomic_block:
        raise TransactionManagementError("a game is locked inside a transaction")
    with connection.cursor() as cursor:
        cursor.execute(_game_lock_sql(), [game_id])
        row = cursor.fetchone()
    if row is None:
        raise Game.DoesNotExist(f"game {game_id}")
    game, at = instance_from_row(Game, row)
    season, at = instance_from_row(Season, row, at)
    season.rule_set, _ = instance_from_row(RuleSet, row, at)
    game.season = season
    return game


@cache
def _game_lock_sql() -> str:
    q = connection.ops.quote_name
    lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {select_list(Game, 'g')}, {select_list(Season, 's')}, {select_list(RuleSet, 'r')} "
        f"FROM {q(Game._meta.db_table)} g JOIN {q(Season._meta.db_table)} s ON s.{q('id')} = g.{q('season_id')} "
        f"JOIN {q(RuleSet._meta.db_table)} r ON r.{q('id')} = s.{q('rule_set_id')} WHERE g.{q('id')} = %s{lock}"
    )
