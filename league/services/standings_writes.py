"""The stored standings: rebuilt in full, updated incrementally in a change's transaction,
re-ranked when a player's name changes; each write moves the division's standings version.
The arithmetic (rows, ranks, promotion plan) is :mod:`league.standings`."""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from ..models import Division

STANDING_FIELDS = ("rank", "games", "game_points", "penalty_points", "total_points", "average_place", "firsts",
                   "seconds", "thirds", "fourths")


@transaction.atomic
def standings_recompute(*, division: Division) -> int:
    """Rebuild the stored standings of one division from seat results and the penalty ledger
    (the audit of the incremental updates: both must give the same table)."""
    from ..models import Standing
    from ..standings import standings_rows

    division = _division_lock(division)
    rows = standings_rows(division=division)
    Standing.objects.filter(division=division).delete()
    Standing.objects.bulk_create(Standing(season_id=division.season_id, division=division, **row) for row in rows)
    _standings_version_bump(division)
    return len(rows)


@transaction.atomic
def standings_update(*, division: Division, player_ids) -> int:
    """Incremental standings, in the change's own transaction: the rows of ``player_ids`` (the
    four players of a new, corrected or deleted result, or the one of a penalty) are recomputed,
    then the division is re-ranked in memory and only the rows whose values moved are written.
    Returns how many rows were written."""
    from ..models import Standing
    from ..standings import entrant_names, rank_rows, standings_rows_for

    division = _division_lock(division)
    fresh = standings_rows_for(division=division, player_ids=player_ids)
    # plain tuples, not model instances: a re-rank reads the whole division (1,000 rows)
    stored = {row[1]: (row[0], dict(zip(STANDING_FIELDS, row[2:])))
              for row in Standing.objects.filter(division=division).order_by()
              .values_list("id", "player_id", *STANDING_FIELDS)}
    gone = [stored.pop(p)[0] for p, row in fresh.items() if row is None and p in stored]
    rows = [{"player_id": p, **values} for p, (_, values) in stored.items() if p not in fresh]
    rows += [row for row in fresh.values() if row is not None]
    rank_rows(rows, entrant_names(division))
    changed, shifted, created = [], defaultdict(list), []
    for row in rows:
        pk, before = stored.get(row["player_id"], (None, None))
        if pk is None:
            created.append(Standing(season_id=division.season_id, division=division, **row))
        elif any(before[f] != row[f] for f in STANDING_FIELDS):
            if all(before[f] == row[f] for f in STANDING_FIELDS if f != "rank"):
                shifted[row["rank"] - before["rank"]].append(pk)
            else:
                changed.append((pk, row))
    now = timezone.now()
    if gone:
        Standing.objects.filter(pk__in=gone).delete()
    # the few players of the change get every column, one row each
    for pk, row in changed:
        Standing.objects.filter(pk=pk).update(**{f: row[f] for f in STANDING_FIELDS}, computed_at=now)
    # the many that only moved shift by the same few steps (+1 or -1 when one player passes
    # them): one UPDATE per step, instead of a CASE with a branch per row
    for step, pks in shifted.items():
        for chunk in _chunks(pks, 500):
            Standing.objects.filter(pk__in=chunk).update(rank=F("rank") + step, computed_at=now)
    Standing.objects.bulk_create(created)
    _standings_version_bump(division)
    return len(changed) + sum(map(len, shifted.values())) + len(created) + len(gone)


def _chunks(items: list, size: int):
    return (items[i:i + size] for i in range(0, len(items), size))


@transaction.atomic
def player_standings_touch(*, player_id: int) -> None:
    """A player's name or accounts changed: their standings rows are shown with them (and the
    name breaks ties), so each division they stand in is re-ranked and its version moves: cached
    tables and API answers keyed on the version are fresh at once."""
    from ..models import Standing

    for division_id in (Standing.objects.filter(player_id=player_id).order_by()
                        .values_list("division_id", flat=True).distinct()):
        standings_update(division=Division(pk=division_id), player_ids=[player_id])


def _division_lock(division: Division) -> Division:
    """Serialise standings writers of one division (two results entered at once re-rank in turn)."""
    return Division.objects.select_for_update().get(pk=division.pk)


def _standings_version_bump(division: Division) -> None:
    """The standings' version: conditional requests (ETag) and cached renderings key on it."""
    Division.objects.filter(pk=division.pk).update(standings_version=F("standings_version") + 1)
