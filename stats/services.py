"""Writes of the statistics: a hand's kept details (a raw fact, at import), and the derived
figures, kept up in the transaction of every change (``game_stats_sync``: one game's rows, then
the season and league rows of its players) and rebuilt in full by ``stats_recompute`` (the same
functions over every game: both give the same rows, tests/stats check it)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import json

from django.db import connection, transaction

from kyoku.audit import audit_log_write
from kyoku.models import League
from kyoku.principals import Actor
from kyoku.rows import rows_update
from league.models import Game, GameSeat, RuleSet, Season
from scoring.models import HandRecord

from .figures import COUNTS, game_counts, place_runs, place_runs_step
from .models import HandDetail, PlayerGameStats, PlayerStats, ScopeStats, version_new


def order_key(*, year: int, number: int, match_day: int, table: int, game_id: int) -> str:
    """Season, match day, table, game id as one string that sorts like the tuple (the league's
    order of games, as ratings.services.order_key)."""
    return f"{year:04d}{number:01d}-{match_day:05d}-{table:05d}-{game_id:012d}"


SEAT_COLUMNS = ("seat", "player_id", "place", "raw_score", "points")


@dataclass(frozen=True)
class GameInfo:
    """What a game's rows need of the game and its season."""

    pk: int
    status: str
    match_day: int
    table: int
    season_id: int
    year: int
    number: int
    league_id: int
    system: str

    @classmethod
    def of(cls, game: Game) -> GameInfo:
        season = game.season
        return cls(
            game.pk,
            game.status,
            game.match_day,
            game.table,
            season.pk,
            season.year,
            season.number,
            season.league_id,
            season.rule_set.system,
        )


Hand = tuple[dict, dict, "dict | None", int]  # record, settlement, kept details, sequence


def _game_rows(game: GameInfo, hands: list[Hand], seats: list[tuple]) -> list[dict[str, Any]]:
    """The four players' rows of one game, from its hands and its result (unsaved); ``seats``
    are ``SEAT_COLUMNS`` in seat order."""
    if len(seats) != 4 or game.status == Game.Status.VOID:
        return []
    finished = game.status == Game.Status.FINISHED and all(s[2] is not None for s in seats)
    if not hands and not finished:
        return []
    counts = game_counts(game.system, hands, [s[2] for s in seats] if finished else None)
    key = order_key(year=game.year, number=game.number, match_day=game.match_day, table=game.table, game_id=game.pk)
    return [
        {
            "game_id": game.pk,
            "player_id": player_id,
            "season_id": game.season_id,
            "league_id": game.league_id,
            "system": game.system,
            "order_key": key,
            "match_day": game.match_day,
            "place": place if finished else None,
            "raw_score": raw if finished else None,
            "points": _decimal(points) if finished else None,
            "yaku": dict(sorted(c.yaku.items())),
            "biggest": c.biggest,
            **{name: c.counts[name] for name in COUNTS},
        }
        for (_seat, player_id, place, raw, points), c in zip(seats, counts)
    ]


JSON_FIELDS = ("yaku", "biggest", "best_game", "worst_game", "best_day", "last_day", "before_last")


def rows_insert(
    model: type[PlayerGameStats] | type[PlayerStats] | type[ScopeStats], rows: list[dict[str, Any]]
) -> None:
    """Insert derived rows in one statement per batch, without building model instances (the
    full recompute writes a row per player and game: the ORM's per-field preparation would be
    most of its time). JSON columns are written as JSON text (jsonb on PostgreSQL)."""
    if not rows:
        return
    q = connection.ops.quote_name
    names = list(rows[0])
    json_param = "%s::jsonb" if connection.vendor == "postgresql" else "%s"
    marks = ", ".join(json_param if n in JSON_FIELDS else "%s" for n in names)
    sql = f"INSERT INTO {q(model._meta.db_table)} ({', '.join(q(n) for n in names)}) VALUES ({marks})"
    with connection.cursor() as cursor:
        for i in range(0, len(rows), BATCH * 4):
            cursor.executemany(
                sql,
                [[json.dumps(r[n]) if n in JSON_FIELDS else r[n] for n in names] for r in rows[i : i + BATCH * 4]],
            )


def _decimal(value: Any) -> Decimal | None:
    if value is None or isinstance(value, Decimal):
        return value
    return Decimal(str(value)).quantize(Decimal("0.1"))


def _json(value: Any) -> Any:
    """A JSON column read by plain SQL (text on SQLite; decoded already from PostgreSQL's jsonb)."""
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def _hands_of(game_ids: list[int]) -> dict[int, list[Hand]]:
    hands: dict[int, list] = defaultdict(list)
    details = dict(HandDetail.objects.filter(hand__game_id__in=game_ids).values_list("hand_id", "facts"))
    for pk, game_id, sequence, record, settlement in (
        HandRecord.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "sequence")
        .values_list("pk", "game_id", "sequence", "record", "settlement")
    ):
        hands[game_id].append((record, settlement, details.get(pk), sequence))
    return hands


def _one_game(game_id: int) -> tuple[GameInfo | None, list[Hand], list[tuple]]:
    """One game's facts in a few plain queries (the path every hand and result takes)."""
    q = connection.ops.quote_name
    game_t, season_t, rules_t = (q(m._meta.db_table) for m in (Game, Season, RuleSet))
    hand_t, detail_t, seat_t = (q(m._meta.db_table) for m in (HandRecord, HandDetail, GameSeat))
    with connection.cursor() as cursor:
        # the game, whether it has hands (a game scored by its final result alone reads none) and
        # its seats in one statement: a row per seat, one row of empty seat columns without seats
        cursor.execute(
            f"SELECT g.{q('status')}, g.{q('match_day')}, g.{q('table')}, s.{q('id')}, s.{q('year')}, "
            f"s.{q('number')}, s.{q('league_id')}, r.{q('system')}, "
            f"EXISTS (SELECT 1 FROM {hand_t} h WHERE h.{q('game_id')} = g.{q('id')}), "
            f"{', '.join('gs.' + q(c) for c in SEAT_COLUMNS)} FROM {game_t} g "
            f"JOIN {season_t} s ON s.{q('id')} = g.{q('season_id')} "
            f"JOIN {rules_t} r ON r.{q('id')} = s.{q('rule_set_id')} "
            f"LEFT JOIN {seat_t} gs ON gs.{q('game_id')} = g.{q('id')} WHERE g.{q('id')} = %s "
            f"ORDER BY gs.{q('seat')}",
            [game_id],
        )
        found = cursor.fetchall()
        if not found:
            return None, [], []
        game = GameInfo(game_id, *found[0][:8])
        seats = [tuple(r[9:]) for r in found if r[9] is not None]
        if not found[0][8]:
            return game, [], seats
        cursor.execute(
            f"SELECT h.{q('sequence')}, h.{q('record')}, h.{q('settlement')}, d.{q('facts')} FROM {hand_t} h "
            f"LEFT JOIN {detail_t} d ON d.{q('hand_id')} = h.{q('id')} "
            f"WHERE h.{q('game_id')} = %s ORDER BY h.{q('sequence')}",
            [game_id],
        )
        hands = [(_json(r), _json(st), _json(d), n) for n, r, st, d in cursor.fetchall()]
    return game, hands, seats


@transaction.atomic(savepoint=False)  # inside the change's own transaction
def game_stats_sync(*, game_id: int) -> None:
    """Re-derive one game's rows and its players' season and league rows (after a hand, a
    correction, a deletion, a result, an import). A game no longer stored leaves only the
    refresh of its former players' rows."""
    q = connection.ops.quote_name
    table = q(PlayerGameStats._meta.db_table)
    with connection.cursor() as cursor:  # the game's rows go, and say whose they were
        cursor.execute(
            f"DELETE FROM {table} WHERE {q('game_id')} = %s "
            f"RETURNING {q('player_id')}, {q('season_id')}, {q('league_id')}, {q('system')}",
            [game_id],
        )
        before = [tuple(r) for r in cursor.fetchall()]
    game, hands, seats = _one_game(game_id)
    rows = _game_rows(game, hands, seats) if game is not None else []
    rows_insert(PlayerGameStats, rows)
    scopes = set(before) | {(r["player_id"], r["season_id"], r["league_id"], r["system"]) for r in rows}
    # a game with no rows before (a new result) may simply extend the players' figures; one with
    # rows before (its next hand, a corrected result) may replace the latest game they hold
    game_rows = {(r["player_id"], r["league_id"]): tuple(r[c] for c in AGG_COLUMNS) for r in rows}
    players_refresh(scopes, game_rows, replacing=bool(before))


def players_refresh(
    scopes: Iterable[tuple[int, int, int, str]],
    appended: dict[tuple[int, int], tuple] | None = None,
    replacing: bool = False,
) -> None:
    """Rebuild the season rows and the league row of each ``(player, season, league, system)``
    from the player's game rows, and move the scopes' sums (``ScopeStats``) by the difference:
    for each league and system, one read of the players' game rows there (a season's rows are
    among them) and one of their stored rows, the sums in Python (``aggregate``, as the full
    recompute), the writes batched. Plain SQL: at four players a change, the ORM's compiling
    would cost more than the queries.

    ``appended``: by (player, league), the row of a game just added that may be later than all
    the player's games there (a new result): where the stored rows end before it, it is added
    to them (``aggregate_append``) and the player's games are not read. With ``replacing`` the
    game was there before (its next hand, a corrected result): where it is the stored rows'
    latest game, it is added to their figures before it (``before_last``) instead."""
    seasons: dict[tuple[int, str], dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    for player_id, season_id, league_id, system in scopes:
        seasons[(league_id, system)][player_id].add(season_id)
    for (league_id, system), players in sorted(seasons.items()):
        _players_refresh(league_id, system, players, appended or {}, replacing)


# what a player row keeps beyond the sums, read back for ``aggregate_append``
STATE_FIELDS = (
    "yaku",
    "biggest",
    "biggest_points",
    "best_game",
    "worst_game",
    "first_streak",
    "last_streak",
    "best_day_wins",
    "best_day",
    "last_key",
    "first_run",
    "last_run",
    "last_day",
    "last_day_wins",
)


def _players_refresh(
    league_id: int,
    system: str,
    players: dict[int, set[int]],
    appended: dict[tuple[int, int], tuple],
    replacing: bool = False,
) -> None:
    q = connection.ops.quote_name
    game_table, stats_table = q(PlayerGameStats._meta.db_table), q(PlayerStats._meta.db_table)
    ids = sorted(players)

    def where(players: list[int]) -> str:
        marks = ", ".join(["%s"] * len(players))
        return f"WHERE {q('player_id')} IN ({marks}) AND {q('league_id')} = %s AND {q('system')} = %s"

    totals_n = len(TOTAL_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {q('id')}, {q('player_id')}, {q('season_id')}, "
            f"{', '.join(q(f) for f in (*TOTAL_FIELDS, *STATE_FIELDS, 'before_last'))} FROM {stats_table} {where(ids)}",
            [*ids, league_id, system],
        )
        existing = {}
        for r in cursor.fetchall():
            totals = [*r[3 : 3 + totals_n - 1], _decimal(r[3 + totals_n - 1])]
            state = {f: _json(v) if f in JSON_FIELDS else v for f, v in zip(STATE_FIELDS, r[3 + totals_n : -1])}
            existing[(r[1], r[2])] = (r[0], totals, state, _json(r[-1]))
        # the figures of each player a game is appended to, from their stored rows alone
        figures: dict[int, dict[int | None, dict[str, Any] | None]] = {}
        for player_id in ids:
            game_row = appended.get((player_id, league_id))
            if game_row is not None:
                added = _appended(existing, player_id, players[player_id], game_row, replacing)
                if added is not None:
                    figures[player_id] = added
        unread = [p for p in ids if p not in figures]
        rows: dict[int, list[tuple]] = defaultdict(list)
        if unread:
            cursor.execute(
                f"SELECT {q('player_id')}, {', '.join(q(c) for c in AGG_COLUMNS)} FROM {game_table} "
                f"{where(unread)} ORDER BY {q('player_id')}, {q('order_key')}",
                [*unread, league_id, system],
            )
            for row in cursor.fetchall():
                rows[row[0]].append(_decoded(row[1:]))
    for player_id in unread:
        mine = rows.get(player_id, [])
        league_values = aggregate_kept(mine)
        scoped: dict[int | None, dict[str, Any] | None] = {None: league_values}
        for season in sorted(players[player_id]):
            in_season = [r for r in mine if r[SEASON_AT] == season]
            # a season holding all the player's rows of the league has the league's figures
            scoped[season] = league_values if len(in_season) == len(mine) else aggregate_kept(in_season)
        figures[player_id] = scoped
    created: list[dict[str, Any]] = []
    updated: list[tuple[int, dict[str, Any]]] = []
    deleted: list[int] = []
    deltas: dict[int | None, list] = {}
    for player_id in ids:
        for season_id, values in figures[player_id].items():
            stored_pk, old, _state, _before = existing.get((player_id, season_id), (None, None, None, None))
            new = [values[f] for f in TOTAL_FIELDS] if values is not None else None
            if old != new:
                delta = deltas.setdefault(season_id, [0] * len(TOTAL_FIELDS))
                for i, (before, after) in enumerate(zip(old or [0] * len(delta), new or [0] * len(delta))):
                    delta[i] += after - before
            if values is None:
                if stored_pk is not None:
                    deleted.append(stored_pk)
            elif stored_pk is None:
                created.append(
                    {"player_id": player_id, "league_id": league_id, "system": system, "season_id": season_id, **values}
                )
            else:
                updated.append((stored_pk, values))
    if deleted:
        PlayerStats.objects.filter(pk__in=deleted).delete()
    rows_insert(PlayerStats, created)
    _stats_update(updated)
    _totals_add(league_id, system, deltas)


def _appended(
    existing: dict, player_id: int, season_ids: set[int], row: tuple, replacing: bool = False
) -> dict[int | None, dict[str, Any] | None] | None:
    """The player's league row and season rows with the game ``row`` added after their games
    (``replacing``: in place of their latest game, that same game), or None when a row cannot
    take it from its stored figures alone (the game is not the player's latest there, or the
    row predates the kept ends) and the player's games must be read."""
    key, season_id = row[AGG_COLUMNS.index("order_key")], row[SEASON_AT]
    if season_ids != {season_id}:
        return None
    out: dict[int | None, dict[str, Any] | None] = {}
    for scope in (None, season_id):
        stored = existing.get((player_id, scope))
        if stored is None:
            if replacing or scope is None:  # a row the game was in, or the league's, is gone
                return None
            base = None  # the player's first game of the season
        elif replacing:
            if stored[2]["last_key"] != key or stored[3] is None:
                return None
            base = _before_decoded(stored[3])
        elif _ends_before(stored, key):
            base = _stored(stored)
        else:
            return None
        out[scope] = _with_game(base, row)
    return out


def _with_game(base: dict[str, Any] | None, row: tuple) -> dict[str, Any]:
    """The figures ``base`` (None: no game) with the game ``row`` added after their games,
    keeping ``base`` as the figures before it."""
    values = aggregate_append(base, row) if base is not None else aggregate([row])
    assert values is not None
    values["before_last"] = _before_encoded(base)
    return values


def aggregate_kept(rows: list[tuple]) -> dict[str, Any] | None:
    """``aggregate`` of a scope's game rows, with the figures before its last game kept
    (``before_last``): all but the last summed, the last one added as a new game would be."""
    if not rows:
        return None
    return _with_game(aggregate(rows[:-1]), rows[-1])


def _before_encoded(values: dict[str, Any] | None) -> dict[str, Any]:
    """Figures as ``before_last`` keeps them: JSON, keys in order (so a row written by an
    update and one written by a recompute are the same text), the points sum as text."""
    if values is None:
        return {}
    return {
        k: str(Decimal(v).quantize(TENTH)) if k == "points_sum" else v
        for k, v in sorted(values.items())
        if k != "before_last"
    }


TENTH = Decimal("0.1")  # the points' unit: one text for one sum ("0.0", never "0")


def _before_decoded(kept: dict[str, Any]) -> dict[str, Any] | None:
    if not kept:
        return None
    return {**kept, "points_sum": Decimal(kept["points_sum"])}


def _ends_before(existing: tuple, key: str) -> bool:
    """Whether a stored row's games all come before the game of order ``key`` (a row written
    before the ends were kept says nothing: it is read in full)."""
    return "" < existing[2]["last_key"] < key


def _stored(existing: tuple) -> dict[str, Any]:
    """A stored player row's figures, as ``aggregate`` gives them."""
    _pk, totals, state, _before = existing
    return {**dict(zip(TOTAL_FIELDS, totals)), **state}


TOTAL_FIELDS = (*COUNTS, "points_sum")  # the columns a scope's sum adds up (ScopeStats)
HANDS_AT, GAMES_AT = TOTAL_FIELDS.index("hands"), TOTAL_FIELDS.index("games")


def _totals_add(league_id: int, system: str, deltas: dict[int | None, list]) -> None:
    """Move each scope's sums by the difference of its player rows just written (the league's
    row under None). A scope without a row yet gets one first (created without a race: its
    ``key`` is unique). In the order of the keys, so two changes lock the rows alike."""
    q = connection.ops.quote_name
    table = q(ScopeStats._meta.db_table)
    sets = ", ".join(f"{q(f)} = {q(f)} + %s" for f in TOTAL_FIELDS)
    deltas.setdefault(None, [0] * len(TOTAL_FIELDS))  # the league's row takes the new version
    league_key, version = ScopeStats.key_of(league_id, None, system), version_new()
    # the scopes moved by the same sums (a game's season and its league, as a rule) in one
    # statement; the league's row also takes the new version
    groups: dict[tuple, dict[str, int | None]] = defaultdict(dict)  # sums: {scope key: season}
    for season_id, delta in deltas.items():
        if any(delta) or season_id is None:
            groups[tuple(delta)][ScopeStats.key_of(league_id, season_id, system)] = season_id
    update = f"UPDATE {table} SET {sets}, {q('version')} = CASE WHEN {q('key')} = %s THEN %s ELSE {q('version')} END "

    def among(keys: list[str]) -> str:
        return f"{q('key')} IN ({', '.join(['%s'] * len(keys))})"

    with connection.cursor() as cursor:
        for sums, seasons in sorted(groups.items(), key=lambda kv: min(kv[1])):
            delta = list(sums)
            keys = sorted(seasons)  # in the order of the keys, so two changes lock the rows alike
            cursor.execute(
                f"{update} WHERE {among(keys)} RETURNING {q('key')}",
                [*delta, league_key, version, *keys],
            )
            missing = sorted(set(keys) - {row[0] for row in cursor.fetchall()})
            if missing and any(delta):  # no sums to keep: the row is created with the first
                ScopeStats.objects.bulk_create(
                    [ScopeStats(key=k, league_id=league_id, season_id=seasons[k], system=system) for k in missing],
                    ignore_conflicts=True,
                )
                cursor.execute(
                    f"{update} WHERE {among(missing)}",
                    [*delta, league_key, version, *missing],
                )
            if delta[HANDS_AT] < 0 or delta[GAMES_AT] < 0:  # rows went: the scope goes with its last
                cursor.execute(
                    f"DELETE FROM {table} WHERE {among(keys)} AND {q('hands')} = 0 AND {q('games')} = 0",
                    keys,
                )


def totals_rebuild(*, league_ids: Iterable[int] | None = None) -> int:
    """The scopes' sums of these leagues (or of all) from their player rows, in full (the
    recompute's side of ``_totals_add``). Returns the rows written."""
    stale = ScopeStats.objects.all()
    rows = PlayerStats.objects.all()
    if league_ids is not None:
        league_ids = list(league_ids)
        stale, rows = stale.filter(league_id__in=league_ids), rows.filter(league_id__in=league_ids)
    stale.delete()
    sums: dict[tuple[int, int | None, str], list] = {}
    for league_id, season_id, system, *values in rows.order_by().values_list(
        "league_id", "season_id", "system", *TOTAL_FIELDS
    ):
        total = sums.setdefault((league_id, season_id, system), [0] * len(TOTAL_FIELDS))
        for i, v in enumerate(values):
            total[i] += v
    rows_insert(
        ScopeStats,
        [
            {
                "key": ScopeStats.key_of(league_id, season_id, system),
                "league_id": league_id,
                "season_id": season_id,
                "system": system,
                "version": version_new(),
                **dict(zip(TOTAL_FIELDS, total)),
            }
            for (league_id, season_id, system), total in sorted(sums.items(), key=str)
        ],
    )
    return len(sums)


AGG_COLUMNS = (
    *COUNTS,
    "season_id",
    "match_day",
    "place",
    "raw_score",
    "points",
    "yaku",
    "biggest",
    "game_id",
    "order_key",
)
SEASON_AT = AGG_COLUMNS.index("season_id")
JSON_AT = (AGG_COLUMNS.index("yaku"), AGG_COLUMNS.index("biggest"))
POINTS_AT = AGG_COLUMNS.index("points")
STATS_JSON = JSON_FIELDS


def _decoded(row: tuple) -> tuple:
    """A row read by plain SQL as ``values_list`` gives it: JSON decoded, points as Decimal.
    Most game rows carry no yaku and no biggest hand (games entered by final score): their
    JSON texts ``{}`` and ``null`` are not parsed (this runs for every game of four players at
    each result)."""
    out = list(row)
    for i in JSON_AT:
        value = out[i]
        if isinstance(value, (str, bytes)):
            out[i] = EMPTY_JSON[value] if value in EMPTY_JSON else json.loads(value)
    points = out[POINTS_AT]
    if points is not None and not isinstance(points, Decimal):
        out[POINTS_AT] = Decimal(str(points)).quantize(Decimal("0.1"))
    return tuple(out)


EMPTY_JSON: dict[str | bytes, Any] = {"{}": {}, b"{}": {}, "null": None, b"null": None}


def _stats_update(updated: list[tuple[int, dict[str, Any]]]) -> None:
    """Write player rows in place, in one statement (kyoku.rows; ``aggregate`` gives every row
    the same columns). Values as ``rows_insert`` writes them: JSON as its text."""
    if not updated:
        return
    names = list(updated[0][1])
    rows_update(
        PlayerStats,
        names,
        [(pk, [json.dumps(v[n]) if n in STATS_JSON else v[n] for n in names]) for pk, v in updated],
        prepared=True,
    )


WINS_AT = COUNTS.index("wins")


def aggregate(rows: list[tuple]) -> dict[str, Any] | None:
    """A scope's figures from its game rows (``AGG_COLUMNS``, in the league's order). Column
    sums in C (``zip``), the rest in one pass: this runs for each changed player's scopes at
    every result and hand."""
    if not rows:
        return None
    n = len(COUNTS)
    columns = list(zip(*rows))
    sums = [sum(c) for c in columns[:n]]
    yaku: Counter = Counter()
    biggest = None
    points_sum = Decimal("0")
    best = worst = None  # ((points, raw score), row)
    places = []
    days: Counter = Counter()
    wins_of = columns[WINS_AT]
    for row, wins in zip(rows, wins_of):
        season_id, match_day, place, raw_score, points, row_yaku, row_biggest, game_id, _key = row[n:]
        if row_yaku:
            yaku.update(row_yaku)
        if row_biggest and (biggest is None or row_biggest["points"] > biggest["points"]):
            biggest = {**row_biggest, "game": game_id}
        days[(season_id, match_day)] += wins
        if place is not None:
            places.append(place)
            points_sum += points or 0
            key = (points or 0, raw_score or 0)
            if best is None or key > best[0]:
                best = (key, row)
            if worst is None or key < worst[0]:
                worst = (key, row)
    first, last, first_run, last_run = place_runs(places)
    day, day_wins = max(days.items(), key=_day_order) if days else ((None, None), 0)
    last_row = rows[-1]
    last_day = (last_row[n], last_row[n + 1])
    return {
        **dict(zip(COUNTS, sums)),
        "points_sum": points_sum,
        "yaku": dict(sorted(yaku.items())),
        "biggest": biggest,
        "biggest_points": biggest["points"] if biggest else None,
        "best_game": _game_of(best[1]) if best else None,
        "worst_game": _game_of(worst[1]) if worst else None,
        "first_streak": first,
        "last_streak": last,
        "best_day_wins": day_wins,
        "best_day": {"season": day[0], "match_day": day[1]} if day_wins else None,
        "last_key": last_row[-1],
        "first_run": first_run,
        "last_run": last_run,
        "last_day": {"season": last_day[0], "match_day": last_day[1]},
        "last_day_wins": days[last_day],
    }


def _day_order(day: tuple[tuple[int, int], int]) -> tuple[int, int, int]:
    """The best day: the most wins; of days level on wins, the first (season, then match day)."""
    (season_id, match_day), wins = day
    return wins, -season_id, -match_day


def _game_of(row: tuple) -> dict[str, Any]:
    """A best or worst game as the figures keep it."""
    _season, _day, place, raw_score, points, _yaku, _biggest, game_id, _key = row[len(COUNTS) :]
    return {"game": game_id, "points": str(points), "raw_score": raw_score, "place": place}


def _game_key(game: dict[str, Any]) -> tuple[Decimal, int]:
    """A kept best or worst game's order, as ``aggregate`` compares them (points, then raw score)."""
    return Decimal(game["points"]), game["raw_score"] or 0


def aggregate_append(values: dict[str, Any], row: tuple) -> dict[str, Any]:
    """A scope's figures with one game added after every game they hold (``row``: its
    ``AGG_COLUMNS``): the same figures ``aggregate`` gives over all the rows, from the stored
    figures and that game alone. Each figure follows ``aggregate``'s rule: sums add; the
    biggest hand, the best and the worst game change only when strictly passed (the earlier
    keeps a tie); the streaks continue their open runs; the new game's day is the last day or
    a later one."""
    n = len(COUNTS)
    season_id, match_day, place, raw_score, points, row_yaku, row_biggest, game_id, key = row[n:]
    out = dict(values)
    for name, value in zip(COUNTS, row[:n]):
        out[name] = values[name] + value
    if row_yaku:
        yaku = Counter(values["yaku"])
        yaku.update(row_yaku)
        out["yaku"] = dict(sorted(yaku.items()))
    biggest = values["biggest"]
    if row_biggest and (biggest is None or row_biggest["points"] > biggest["points"]):
        out["biggest"] = {**row_biggest, "game": game_id}
        out["biggest_points"] = row_biggest["points"]
    if place is not None:
        out["points_sum"] = values["points_sum"] + (points or 0)
        game_key = (points or 0, raw_score or 0)
        if values["best_game"] is None or game_key > _game_key(values["best_game"]):
            out["best_game"] = _game_of(row)
        if values["worst_game"] is None or game_key < _game_key(values["worst_game"]):
            out["worst_game"] = _game_of(row)
        out["first_run"], out["last_run"] = place_runs_step(values["first_run"], values["last_run"], place)
        out["first_streak"] = max(values["first_streak"], out["first_run"])
        out["last_streak"] = max(values["last_streak"], out["last_run"])
    wins = row[WINS_AT]
    last = values["last_day"]
    same_day = last is not None and (last["season"], last["match_day"]) == (season_id, match_day)
    day_wins = values["last_day_wins"] + wins if same_day else wins
    out["last_day"], out["last_day_wins"] = {"season": season_id, "match_day": match_day}, day_wins
    best = values["best_day"]
    candidates = [((season_id, match_day), day_wins)]
    if best is not None and (best["season"], best["match_day"]) != (season_id, match_day):
        candidates.append(((best["season"], best["match_day"]), values["best_day_wins"]))
    (best_season, best_match_day), best_wins = max(candidates, key=_day_order)
    out["best_day_wins"] = best_wins
    out["best_day"] = {"season": best_season, "match_day": best_match_day} if best_wins else None
    out["last_key"] = key
    return out


@transaction.atomic
def hand_details_store(*, game: Game, details: list[dict], source: str, actor: Actor) -> int:
    """Keep what the game's source record says of each hand beyond its settlement (one entry per
    stored hand, in order; ``online.tenhou.details``), then re-derive the game's figures.
    Returns the hands given details."""
    hands = list(HandRecord.objects.filter(game=game).order_by("sequence").values_list("pk", flat=True))
    if len(hands) != len(details):
        return 0  # the hands kept are not the record's (an override): nothing pairs up
    HandDetail.objects.filter(hand_id__in=hands).delete()
    HandDetail.objects.bulk_create(HandDetail(hand_id=pk, source=source, facts=d) for pk, d in zip(hands, details))
    audit_log_write(actor=actor, action="game.hand_details", obj=game, data={"source": source, "hands": len(hands)})
    game_stats_sync(game_id=game.pk)
    return len(hands)


BATCH = 500


@transaction.atomic
def stats_recompute(*, actor: Actor, league: League | None = None, season: Season | None = None) -> dict:
    """Rebuild every figure from the hands and results (of one league, one season, or all):
    the game rows first, then the season and league rows of every player they touch, with the
    same arithmetic as the incremental path (``aggregate``). Returns counts."""
    games = Game.objects.all()
    old = PlayerGameStats.objects.all()
    if season is not None:
        games, old = games.filter(season=season), old.filter(season=season)
    elif league is not None:
        games, old = games.filter(season__league=league), old.filter(league=league)
    touched = set(old.values_list("player_id", "league_id", "system"))
    old.delete()
    ids = list(games.order_by("pk").values_list("pk", flat=True))
    written = 0
    for i in range(0, len(ids), BATCH):
        chunk = ids[i : i + BATCH]
        hands = _hands_of(chunk)
        seats: dict[int, list[tuple]] = defaultdict(list)
        for game_id, *seat in (
            GameSeat.objects.filter(game_id__in=chunk).order_by("game_id", "seat").values_list("game_id", *SEAT_COLUMNS)
        ):
            seats[game_id].append(tuple(seat))
        rows: list[dict[str, Any]] = []
        for game in Game.objects.filter(pk__in=chunk).select_related("season__rule_set").order_by("pk"):
            rows.extend(_game_rows(GameInfo.of(game), hands.get(game.pk, []), seats[game.pk]))
        rows_insert(PlayerGameStats, rows)
        written += len(rows)
        touched |= {(r["player_id"], r["league_id"], r["system"]) for r in rows}
    scopes = _scopes_rebuild(touched)
    leagues: set[int] | None = None  # every league's sums, for a recompute of everything
    if season is not None:
        leagues = {season.league_id}
    elif league is not None:
        leagues = {league.pk}
    totals_rebuild(league_ids=None if leagues is None else leagues | {lg for _, lg, _ in touched})
    target = season or league
    if target is not None:
        audit_log_write(actor=actor, action="stats.recompute", obj=target, data={"rows": written})
    return {"games": len(ids), "rows": written, "scopes": scopes}


def _scopes_rebuild(touched: set[tuple[int, int, str]]) -> int:
    """Every season row and league row of each ``(player, league, system)``, rebuilt from the
    player's game rows there in one pass (the bulk form of ``_scope_write``)."""
    written = 0
    by_league: dict[tuple[int, str], list[int]] = defaultdict(list)
    for player_id, league_id, system in touched:
        by_league[(league_id, system)].append(player_id)
    for (league_id, system), players in by_league.items():
        players.sort()
        for i in range(0, len(players), BATCH):
            chunk = players[i : i + BATCH]
            seasons = set(Season.objects.filter(league_id=league_id).values_list("pk", flat=True))
            PlayerStats.objects.filter(
                player_id__in=chunk, league_id=league_id, system=system, season__isnull=True
            ).delete()
            PlayerStats.objects.filter(player_id__in=chunk, season_id__in=seasons, system=system).delete()
            grouped: dict[tuple[int, int | None], list[tuple]] = defaultdict(list)
            for row in (
                PlayerGameStats.objects.filter(player_id__in=chunk, league_id=league_id, system=system)
                .order_by("player_id", "order_key")
                .values_list("player_id", *AGG_COLUMNS)
            ):
                grouped[(row[0], None)].append(row[1:])
                grouped[(row[0], row[1 + AGG_COLUMNS.index("season_id")])].append(row[1:])
            new = []
            for (player_id, season_id), rows in grouped.items():
                values = aggregate_kept(rows)
                if values is not None:
                    new.append(
                        {
                            "player_id": player_id,
                            "league_id": league_id,
                            "system": system,
                            "season_id": season_id,
                            **values,
                        }
                    )
            rows_insert(PlayerStats, new)
            written += len(new)
    return written


def season_stats_sync(*, season_id: int) -> None:
    """After a season's hands or results were re-derived in bulk: its figures rebuilt (in the
    same transaction)."""
    from kyoku.principals import System

    season = Season.objects.filter(pk=season_id).first()
    if season is not None:
        stats_recompute(actor=System("stats.season_sync"), season=season)


def games_before_delete(*, game_ids: list[int]) -> set[tuple[int, int, int, str]]:
    """The scopes a deletion of these games touches (read before their rows go with them)."""
    return set(
        PlayerGameStats.objects.filter(game_id__in=game_ids).values_list(
            "player_id", "season_id", "league_id", "system"
        )
    )
