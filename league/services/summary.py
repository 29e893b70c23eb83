"""The stored per-division summary of the season page (:class:`league.models.DivisionSummary`):
moved by the changes that move it (a game created, finished or removed; an entry made, moved or
removed), in the change's transaction; rebuilt in full from the games and entries by
:func:`division_summary_recompute`, which gives the same row."""

from __future__ import annotations

from django.db import connection

from ..models import Division, DivisionSummary, Entry, Game
from ..summary import SUMMARY_FIELDS, division_summary_rows

__all__ = [
    "SUMMARY_FIELDS",
    "division_summary_entrants",
    "division_summary_game_moved",
    "division_summary_recompute",
    "division_summary_rows",
]


def division_summary_recompute(*, division: Division) -> dict:
    """Rebuild one division's row from its games and entries (the audit of the increments)."""
    row = division_summary_rows(season_id=division.season_id, division_ids=[division.pk])[division.pk]
    DivisionSummary.objects.update_or_create(division_id=division.pk, defaults={"season_id": division.season_id, **row})
    return row


def division_summary_game_moved(*, game: Game, before: str | None, after: str | None) -> None:
    """A game of the division changed status (``before`` None: created; ``after`` None: removed).
    One plain UPDATE (it runs at every result, where the ORM's expressions cost more to build
    than the statement takes to run)."""
    if before == after:
        return
    column = {Game.Status.FINISHED: "finished", Game.Status.VOID: "void"}
    change: dict[str, int] = {}
    for status, sign in ((before, -1), (after, 1)):
        if status is not None:
            field = column.get(status, "to_play")
            change[field] = change.get(field, 0) + sign
    sets = [f'"{field}" = "{field}" + %s' for field in change]
    params: list = list(change.values())
    if before == Game.Status.FINISHED:  # the last match day played may be an earlier one now
        sets.append('"last_match_day" = %s')
        params.append(
            Game.objects.filter(season_id=game.season_id, division_id=game.division_id, status=Game.Status.FINISHED)
            .exclude(pk=game.pk)
            .order_by("-match_day")
            .values_list("match_day", flat=True)
            .first()
        )
    elif after == Game.Status.FINISHED:
        sets.append(
            '"last_match_day" = CASE WHEN "last_match_day" IS NULL OR "last_match_day" < %s THEN %s '
            'ELSE "last_match_day" END'
        )
        params += [game.match_day, game.match_day]
    # the counts this change lowers must hold the game it takes away
    held = "".join(f' AND "{field}" >= 1' for field, step in change.items() if step < 0)
    with connection.cursor() as cursor:
        cursor.execute(
            f'UPDATE "{DivisionSummary._meta.db_table}" SET {", ".join(sets)} WHERE "division_id" = %s{held}',
            [*params, game.division_id],
        )
        moved = cursor.rowcount
    # no row yet, or a row that a change made outside the services left behind (a count that
    # would fall below zero): count the division again instead of storing a wrong figure
    if not moved:
        division_summary_recompute(division=Division(pk=game.division_id, season_id=game.season_id))


def division_summary_entrants(*, division_id: int) -> None:
    """A division's entries changed: count them again (a few thousand rows on an index)."""
    n = Entry.objects.filter(division_id=division_id).count()
    if not DivisionSummary.objects.filter(division_id=division_id).update(entrants=n):
        division_summary_recompute(division=Division.objects.get(pk=division_id))
