"""SQL for the bulk path, many rows in a few statements and no query per row: a season's hands
read in batches of whole games, re-settled hands written back (COPY on PostgreSQL), and
:func:`rows_update` for the derived columns of results and seats."""

from __future__ import annotations

from typing import cast

import json

from django.db import connection

from league.models import Game, Season
from scoring.engine.replay import encode

from ..models import HandRecord
from ..parallel import copy_text, whole_games


def season_hand_batches(season: Season, batch_hands: int):
    """Batches of whole games, each row ``(id, game id, record JSON, ends game, derived digest)``,
    every hand of the season in play order: one query, read in batches (a server-side cursor on
    PostgreSQL, so the engine works on one batch while the next is read), the JSON left as text
    for the workers to parse."""
    hands, games = HandRecord._meta.db_table, Game._meta.db_table
    record = "h.record::text" if connection.vendor == "postgresql" else "h.record"
    with connection.chunked_cursor() as cursor:
        cursor.execute(
            f"SELECT h.id, h.game_id, {record}, h.ends_game, h.derived_digest FROM {hands} h "
            f"JOIN {games} g ON g.id = h.game_id WHERE g.season_id = %s "
            "ORDER BY h.game_id, h.sequence",
            [season.pk],
        )
        yield from whole_games(_fetched(cursor, batch_hands), batch_hands)


def _fetched(cursor, size: int):
    while rows := cursor.fetchmany(size):
        yield from rows


class HandsWriter:
    """Writes re-settled hands back, given part by part: rows ``(id, record JSON or None if
    unchanged, settlement JSON, scores JSON, digest)``, or on PostgreSQL their COPY text
    (:func:`scoring.parallel.copy_text`, made by the workers). PostgreSQL: each part is streamed by
    COPY into a temporary table as it comes (while the engine settles the next parts), then
    :meth:`finish` runs one UPDATE; elsewhere ``finish`` runs one executemany."""

    COPY_SQL = "COPY scoring_hand_resettle (id, record, settlement, scores_after, digest) FROM STDIN"

    def __init__(self):
        self.streaming = connection.vendor == "postgresql"
        self.table_made = False
        self.unwritten: list[tuple] = []

    def add(self, changed: list[tuple] | bytes) -> None:
        if not changed:
            return
        if not self.streaming:
            self.unwritten += cast(list, changed)  # encoded (bytes) only when streaming
            return
        with connection.cursor() as cursor:
            if not self.table_made:
                # typed as the table's columns, so COPY parses each part while the workers settle
                # the next (the UPDATE then only moves values: 0.93 → 0.52 s for 93,000 hands);
                # the derived columns are json (scoring.fields), which only checks the syntax
                cursor.execute(
                    "CREATE TEMPORARY TABLE scoring_hand_resettle (id bigint, record jsonb, "
                    "settlement json, scores_after json, digest bigint) ON COMMIT DROP"
                )
                self.table_made = True
            with cursor.cursor.copy(self.COPY_SQL) as copy:
                copy.write(changed if isinstance(changed, bytes) else copy_text(changed))

    def finish(self) -> None:
        table = connection.ops.quote_name(HandRecord._meta.db_table)
        with connection.cursor() as cursor:
            if self.table_made:
                try:
                    # the hash join of ~100,000 rows stays in memory instead of spilling to disk
                    cursor.execute("SET LOCAL work_mem = '256MB'")
                    cursor.execute(
                        f"UPDATE {table} AS h SET record = COALESCE(x.record, h.record), "
                        "settlement = x.settlement, scores_after = x.scores_after, "
                        "derived_digest = x.digest FROM scoring_hand_resettle AS x WHERE h.id = x.id"
                    )
                finally:
                    cursor.execute("DROP TABLE scoring_hand_resettle")
                    self.table_made = False
            elif self.unwritten:
                cursor.executemany(
                    f"UPDATE {table} SET record = COALESCE(%s, record), settlement = %s, scores_after = %s, "
                    "derived_digest = %s WHERE id = %s",
                    [(_text(r), s.decode(), a.decode(), d, i) for i, r, s, a, d in self.unwritten],
                )
                self.unwritten = []


def _text(json_bytes: bytes | None) -> str | None:
    return None if json_bytes is None else json_bytes.decode()


def rows_update(model, columns: list[tuple[str, str]], rows: list[tuple]) -> None:
    """Set ``columns`` (name, PostgreSQL type) of many rows ``(pk, *values)``, values as Python
    objects (lists for JSON columns): on PostgreSQL one ``UPDATE … FROM json_to_recordset(…)``
    with every row in one compact JSON parameter, elsewhere ``executemany``. No model signals."""
    if not rows:
        return
    qn = connection.ops.quote_name
    table = qn(model._meta.db_table)
    names = [c for c, _ in columns]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            document = encode([dict(zip(["id", *names], row)) for row in rows]).decode()
            record_type = ", ".join(["id bigint"] + [f"{qn(c)} {t}" for c, t in columns])
            sets = ", ".join(f"{qn(c)} = v.{qn(c)}" for c in names)
            cursor.execute(
                f"UPDATE {table} AS t SET {sets} FROM json_to_recordset(%s::json) AS v({record_type}) "
                "WHERE t.id = v.id",
                [document],
            )
        else:
            json_columns = [t == "jsonb" for _, t in columns]
            sets = ", ".join(f"{qn(c)} = %s" for c in names)
            values = [[json.dumps(v) if j else v for v, j in zip(row[1:], json_columns)] + [row[0]] for row in rows]
            cursor.executemany(f"UPDATE {table} SET {sets} WHERE id = %s", values)
