"""The stored standings: rebuilt in full, updated incrementally in a change's transaction,
re-ranked when a player's name changes; each write moves the division's standings version.
The arithmetic (rows, ranks, promotion plan) is :mod:`league.standings`."""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from decimal import Decimal

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from kyoku.rows import instances_where, rows_update

from ..models import Division

MANY = 16  # more changed players than this: one re-rank of the whole division in memory
STANDING_FIELDS = (
    "rank",
    "games",
    "game_points",
    "penalty_points",
    "total_points",
    "average_place",
    "firsts",
    "seconds",
    "thirds",
    "fourths",
)


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
    return len(rows)


@transaction.atomic(savepoint=False)  # inside a caller's transaction: no savepoint round trip
def standings_update(*, division: Division, player_ids, moves: dict | None = None) -> int:
    """Incremental standings, in the change's own transaction: the rows of ``player_ids`` (the
    four players of a new, corrected or deleted result, or the one of a penalty) are recomputed
    and put in their new places; of the rest of the division only the rows whose rank moves are
    written, without reading the division.

    The other rows keep their order among themselves, so a row's new rank is its old rank, less
    the changed players who were ahead of it, plus those now ahead of it. For each changed
    player the other rows ahead of their new figures are found (``_others_ahead``); the ranks in
    between then shift in a few ranges, one UPDATE. Returns how many rows were written.

    ``moves``: when the change is one game's seats (a result entered or corrected), each
    player's seat as it counted before and as it counts now (``standings.row_moved``): a player
    with a stored row gets it moved by the difference, without reading their seats again."""
    from ..models import Standing
    from ..standings import entrant_names, rank_key, row_moved, standings_rows_for

    division = _division_lock(division)
    changed_ids = list(dict.fromkeys(player_ids))
    if len(changed_ids) > MANY:
        return _standings_rerank(division, standings_rows_for(division=division, player_ids=changed_ids))
    stored = {
        row.player_id: (row.pk, {f: getattr(row, f) for f in STANDING_FIELDS})
        for row in instances_where(Standing, "division_id", division.pk, among=("player_id", changed_ids))
    }
    moves = moves or {}
    fresh = {p: row_moved(stored[p][1], p, *moves[p]) for p in changed_ids if p in moves and p in stored}
    unread = [p for p in changed_ids if p not in fresh]
    if unread:
        fresh.update(standings_rows_for(division=division, player_ids=unread))
    # names break only ties on every figure: read only when two changed rows are level so
    names = entrant_names(division, changed_ids) if _level_on_figures(fresh.values()) else {}
    new = sorted(
        (row for row in fresh.values() if row is not None), key=lambda r: rank_key(r, names.get(r["player_id"], ""))
    )
    ahead = _others_ahead(division, new, stored, names, changed_ids) if new else {}
    # each changed row's place among the others, before (``was``) and after (``now``): the count
    # of other rows ahead of it
    old_ranks = sorted(before["rank"] for _, before in stored.values())
    was = [rank - 1 - i for i, rank in enumerate(old_ranks)]
    now = sorted(ahead.values())
    now_id = timezone.now()
    written = 0
    # the other row at position j (0-based among the others) moves by (changed rows now ahead of
    # it) - (changed rows ahead of it before); constant between the boundaries
    bounds = sorted(set(was) | set(now))
    shifts = []  # (lowest old rank, highest or None, step), one statement: ranges read before any moves
    for i, start in enumerate(bounds):
        step = bisect_right(now, start) - bisect_right(was, start)
        if step:
            before_ahead = bisect_right(was, start)
            shifts.append(
                (start + 1 + before_ahead, bounds[i + 1] + before_ahead if i + 1 < len(bounds) else None, step)
            )
    if shifts:
        written += _ranks_shift(division.pk, changed_ids, shifts, now_id)
    gone = [stored[p][0] for p, row in fresh.items() if row is None and p in stored]
    if gone:
        Standing.objects.filter(pk__in=gone).delete()
    created, changed = [], []
    for position, row in enumerate(new):  # ``new`` is in order: the changed rows ahead of it are before it
        row["rank"] = ahead[row["player_id"]] + 1 + position
        pk, before = stored.get(row["player_id"], (None, None))
        if pk is None:
            created.append(Standing(season_id=division.season_id, division=division, **row))
        elif any(before[f] != row[f] for f in STANDING_FIELDS):
            changed.append((pk, row))
    _rows_write(changed, now_id)
    written += len(changed)
    Standing.objects.bulk_create(created)
    return written + len(created) + len(gone)


LEVEL_FIELDS = ("games", "total_points", "average_place", "firsts", "seconds", "thirds")


def _others_ahead(
    division: Division, new: list[dict], stored: dict, names: dict[int, str], changed_ids: list[int]
) -> dict[int, int]:
    """For each changed row (its new figures), how many of the other stored rows the order puts
    ahead of it. Those ahead on total points are found by two index seeks each, on the stored
    ranks: a group's rows (played, or not yet) follow the groups before it down the total
    points, so the rows ahead on points are the ranks before the first row at the highest total
    at or below the changed row's (less the changed rows themselves, as they stood). The few
    rows level on points are read and put in order by ``standings.rank_key`` itself, the name
    read only for rows level on every figure. (One statement counting each tie-break instead
    took longer to plan than to run: 2.3 ms of 2.9.)"""
    from ..models import Standing
    from ..standings import entrant_names, figures_key, points_key, rank_key

    table = Standing._meta.db_table
    columns, params = [], []
    for row in new:
        group = '"games" > 0' if row["games"] else '"games" = 0'
        below = (
            f'SELECT "total_points" FROM "{table}" WHERE "division_id" = %s AND {group} AND "total_points" <= %s '
            f'ORDER BY "total_points" DESC LIMIT 1'
        )
        columns.append(
            f'(SELECT MIN("rank") FROM "{table}" WHERE "division_id" = %s AND {group} AND "total_points" = ({below}))'
        )
        params += [division.pk, division.pk, row["total_points"]]
    points = sorted({row["total_points"] for row in new})
    ahead = {}
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(columns)}", params)
        firsts = cursor.fetchone()
        fields = ", ".join(f'"{f}"' for f in LEVEL_FIELDS)
        others, at = ", ".join(["%s"] * len(changed_ids)), ", ".join(["%s"] * len(points))
        cursor.execute(
            f'SELECT "player_id", {fields} FROM "{table}" WHERE "division_id" = %s '
            f'AND "player_id" NOT IN ({others}) AND "total_points" IN ({at})',
            [division.pk, *changed_ids, *points],
        )
        level = [{"player_id": r[0], **_figures(r[1:])} for r in cursor.fetchall()]
        for row, first in zip(new, firsts):
            if first is None:  # no row of its group at or below it: the whole group is ahead too
                cursor.execute(
                    f'SELECT COUNT(*) FROM "{table}" WHERE "division_id" = %s AND ("games" > 0 OR %s)',
                    [division.pk, not row["games"]],
                )
                first = cursor.fetchone()[0] + 1
            # less the changed rows counted there, as they stood
            mine = points_key(row)
            ahead[row["player_id"]] = first - 1 - sum(1 for _, was in stored.values() if points_key(was) < mine)
    # of the others level on points with a changed row, those the tie-breaks put ahead of it
    level = [r for r in level if any(points_key(r) == points_key(n) for n in new)]
    tied = {r["player_id"] for r in level for n in new if figures_key(r) == figures_key(n)}
    if tied:  # the changed rows' names too: read only when some row is level on every figure
        names = {**names, **entrant_names(division, tied | {n["player_id"] for n in new})}
    for row in new:
        mine = rank_key(row, names.get(row["player_id"], ""))
        ahead[row["player_id"]] += sum(
            1 for r in level if points_key(r) == points_key(row) and rank_key(r, names.get(r["player_id"], "")) < mine
        )
    return ahead


def _level_on_figures(rows) -> bool:
    """Whether two of ``rows`` (None: a row gone) are level on every figure of the order, so
    that only their names can part them."""
    from ..standings import figures_key

    keys = [figures_key(row) for row in rows if row is not None]
    return len(set(keys)) < len(keys)


def _figures(values: tuple) -> dict:
    """``LEVEL_FIELDS`` read by plain SQL, as the ORM gives them (SQLite hands back floats)."""
    out = dict(zip(LEVEL_FIELDS, values))
    for name in ("total_points", "average_place"):
        value = out[name]
        if value is not None and not isinstance(value, Decimal):
            out[name] = Decimal(str(value))
    return out


def _ranks_shift(division_id: int, changed_ids: list[int], shifts: list[tuple], now) -> int:
    """Move the other rows' ranks in one plain UPDATE: each range (lowest rank, highest or None,
    step) by its step. Built as text: the ORM's Q, Case and When cost more to compile than the
    statement takes to run. Returns the rows moved."""
    from ..models import Standing

    ranges = ['("rank" >= %s AND "rank" <= %s)' if high is not None else '("rank" >= %s)' for _, high, _ in shifts]
    bounds = [[low, high] if high is not None else [low] for low, high, _ in shifts]
    case = " ".join(f"WHEN {r} THEN %s" for r in ranges)
    marks = ", ".join(["%s"] * len(changed_ids))
    at = Standing._meta.get_field("computed_at").get_db_prep_save(now, connection)
    sql = (
        f'UPDATE "{Standing._meta.db_table}" SET "rank" = "rank" + CASE {case} ELSE 0 END, "computed_at" = %s '
        f'WHERE "division_id" = %s AND "player_id" NOT IN ({marks}) AND ({" OR ".join(ranges)})'
    )
    values = [v for b, (_, _, step) in zip(bounds, shifts) for v in (*b, step)]
    values += [at, division_id, *changed_ids, *(v for b in bounds for v in b)]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        return cursor.rowcount


def _rows_write(changed: list[tuple[int, dict]], now) -> None:
    """The changed players' rows, every column, in one statement (kyoku.rows: each value as its
    field prepares it); an ORM update each would cost more to build than to run."""
    from ..models import Standing

    rows_update(
        Standing,
        (*STANDING_FIELDS, "computed_at"),
        [(pk, (*(row[n] for n in STANDING_FIELDS), now)) for pk, row in changed],
    )


def _standings_rerank(division: Division, fresh: dict) -> int:
    """The rows of many players at once (a promotion's arrivals): the division is read and
    re-ranked in memory, and only the rows whose values moved are written."""
    from ..models import Standing
    from ..standings import entrant_names, rank_rows

    # plain tuples, not model instances: a re-rank reads the whole division (1,000 rows)
    stored = {
        row[1]: (row[0], dict(zip(STANDING_FIELDS, row[2:])))
        for row in Standing.objects.filter(division=division)
        .order_by()
        .values_list("id", "player_id", *STANDING_FIELDS)
    }
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
    return len(changed) + sum(map(len, shifted.values())) + len(created) + len(gone)


def _chunks(items: list, size: int):
    return (items[i : i + size] for i in range(0, len(items), size))


@transaction.atomic
def player_standings_touch(*, player_id: int) -> None:
    """A player's name or accounts changed: their standings rows are shown with them (and the
    name breaks ties), so each division they stand in is re-ranked and its version moves: cached
    tables and API answers keyed on the version are fresh at once."""
    from ..models import Standing

    for division_id in (
        Standing.objects.filter(player_id=player_id).order_by().values_list("division_id", flat=True).distinct()
    ):
        standings_update(division=Division(pk=division_id), player_ids=[player_id])


def _division_lock(division: Division) -> Division:
    """Serialise standings writers of one division (two results entered at once re-rank in turn)
    and move its standings' version, which conditional requests (ETag) and cached renderings key
    on: one statement, the update's own row lock serialising (plain SQL: it runs at every
    result). Returns the division with its season."""
    with connection.cursor() as cursor:
        cursor.execute(
            f'UPDATE "{Division._meta.db_table}" SET "standings_version" = "standings_version" + 1 '
            f'WHERE "id" = %s RETURNING "season_id"',
            [division.pk],
        )
        row = cursor.fetchone()
    if row is None:
        raise Division.DoesNotExist(f"division {division.pk}")
    return Division(pk=division.pk, season_id=row[0])
