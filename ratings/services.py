"""Writes: (re)rating a league's games in their stable order.

One function does all of it, :func:`league_ratings_rebuild`: it throws away the rating events
from a point in the order on, restores every player's state just before that point from the
events kept, and rates the finished games from there. A new result after the latest rated game
rebuilds from that game (one game's work: the incremental case); a correction, a deletion or a
game older than the latest rated one rebuilds from that game on; no point rebuilds everything.
So the stored state always equals a full recompute (tests/ratings check it)."""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from kyoku.models import League
from kyoku.principals import Actor
from kyoku.rows import instance_lock, instances_insert, instances_where, rows_update
from league.models import Division, Game, GameResult, GameSeat, Player, Season
from league.services import audit_log_write

from . import engine
from .models import PlayerRating, RatingEvent


def order_key(*, year: int, number: int, match_day: int, table: int, game_id: int) -> str:
    """Season order, match day, table, game id as one string that sorts like the tuple."""
    return f"{year:04d}{number:01d}-{match_day:05d}-{table:05d}-{game_id:012d}"


def key_parts(key: str) -> tuple[int, int, int, int, int]:
    """(year, number, match day, table, game id) of an order key."""
    return int(key[:4]), int(key[4]), int(key[6:11]), int(key[12:17]), int(key[18:])


def games_from_key(*, league, key: str):
    """The league's games that may sort at or after ``key``: the key's season from its match day
    on (through the division's (match day, table) index) and every later season. Proportional to
    the games after the key, not to the league (exact in Python)."""
    year, number, day, table, _ = key_parts(key)
    seasons = list(Season.objects.filter(league=league).values_list("pk", "year", "number"))
    later = [pk for pk, y, n in seasons if (y, n) > (year, number)]
    same = [pk for pk, y, n in seasons if (y, n) == (year, number)]
    divisions = list(Division.objects.filter(season_id__in=same).values_list("pk", flat=True))
    on_the_day = Q(division_id__in=divisions, match_day=day, table__gte=table)
    after_the_day = Q(division_id__in=divisions, match_day__gt=day)
    return Game.objects.filter(on_the_day | after_the_day | Q(season_id__in=later))


def rated_games(*, league, from_key: str | None = None, game_ids=None, season_id: int | None = None) -> list[tuple]:
    """The league's finished games with places, in rating order, as
    ``(order_key, game_id, [(player_id, place), ...])`` (seat order)."""
    if game_ids is not None and from_key is None and season_id is None:
        return _rated_games_by_id(league.pk, list(game_ids))
    seats = GameSeat.objects.filter(game__status=Game.Status.FINISHED, game__result__isnull=False, place__isnull=False)
    if from_key is not None:
        seats = seats.filter(game__in=games_from_key(league=league, key=from_key).values("pk"))
    elif game_ids is None and season_id is None:
        seats = seats.filter(game__season__league=league)
    if game_ids is not None:
        seats = seats.filter(game_id__in=list(game_ids), game__season__league=league)
    if season_id is not None:
        seats = seats.filter(game__season_id=season_id, game__season__league=league)
    out = _games_in_order(
        seats.order_by("game_id", "seat").values_list(
            "game_id",
            "game__season__year",
            "game__season__number",
            "game__match_day",
            "game__table",
            "player_id",
            "place",
        )
    )
    return [g for g in out if from_key is None or g[0] >= from_key]


def _games_in_order(seats) -> list[tuple]:
    """Seats ``(game, year, season number, match day, table, player, place)`` in seat order,
    grouped by game and sorted by order key: ``(key, game, [(player, place), ...])``."""
    games: defaultdict[int, list] = defaultdict(list)
    keys = {}
    for gid, year, number, day, table, player_id, place in seats:
        keys[gid] = order_key(year=year, number=number, match_day=day, table=table, game_id=gid)
        games[gid].append((player_id, place))
    return sorted((keys[g], g, games[g]) for g in games)


def _rated_games_by_id(league_id: int, game_ids: list[int]) -> list[tuple]:
    """``rated_games`` of a few games by id (the path of every result): the same conditions,
    in plain SQL, which the ORM's three joins cost more to compile than to run."""
    from django.db import connection

    if not game_ids:
        return []
    seat, game, season, result = (m._meta.db_table for m in (GameSeat, Game, Season, GameResult))
    with connection.cursor() as cursor:
        cursor.execute(
            f'SELECT gs."game_id", s."year", s."number", g."match_day", g."table", gs."player_id", gs."place" '
            f'FROM "{seat}" gs JOIN "{game}" g ON g."id" = gs."game_id" JOIN "{season}" s ON s."id" = g."season_id" '
            f'JOIN "{result}" r ON r."game_id" = g."id" '
            f'WHERE gs."game_id" IN ({", ".join(["%s"] * len(game_ids))}) AND s."league_id" = %s '
            f'AND g."status" = %s AND gs."place" IS NOT NULL ORDER BY gs."game_id", gs."seat"',
            [*game_ids, league_id, Game.Status.FINISHED.value],
        )
        return _games_in_order(cursor.fetchall())


def states_before(league, key: str, players: set[int]) -> dict[int, tuple[float, float]]:
    """Each player's (mu, sigma) after their last rated game before ``key``: one index seek per
    player (player, league, order key), however long the league's history. Plain SQL: it runs
    at every result, and the ORM's subquery cost more to compile than the seeks take."""
    from django.db import connection

    events, people = RatingEvent._meta.db_table, Player._meta.db_table
    state = {}
    ids = sorted(players)
    with connection.cursor() as cursor:
        for i in range(0, len(ids), 500):  # SQLite's limit on query parameters
            chunk = ids[i : i + 500]
            cursor.execute(
                f'SELECT e."player_id", e."mu_after", e."sigma_after" FROM "{events}" e WHERE e."id" IN ('
                f'SELECT (SELECT x."id" FROM "{events}" x WHERE x."player_id" = p."id" AND x."league_id" = %s '
                f'AND x."order_key" < %s ORDER BY x."order_key" DESC LIMIT 1) FROM "{people}" p '
                f'WHERE p."id" IN ({", ".join(["%s"] * len(chunk))}))',
                [league.pk, key, *chunk],
            )
            for p, mu, sigma in cursor.fetchall():
                state[p] = (mu, sigma)
    return state


@transaction.atomic(savepoint=False)  # inside a caller's transaction: no savepoint round trip
def league_ratings_rebuild(
    *, league: League, from_key: str | None = None, actor: Actor, reason: str = "recompute", players=()
) -> dict:
    """Rate the league's finished games from ``from_key`` on (None: all of them) on top of the
    state just before it. ``players``: players whose rating may have changed beyond the events
    from ``from_key`` on (those of a deleted game). Returns ``{"from", "games", "players"}``."""
    # one rebuild per league at a time; NO KEY: the league's other writes (their foreign keys to it) go on
    league = League.objects.select_for_update(no_key=True).get(pk=league.pk)
    events = RatingEvent.objects.filter(league=league)
    dropped = events if from_key is None else events.filter(order_key__gte=from_key)
    touched = set(dropped.values_list("player_id", flat=True)) | set(players)
    if from_key is None:
        # a deleted game's events went with it; its players' ratings lost their last game (SET_NULL)
        touched |= set(
            PlayerRating.objects.filter(league=league, last_game__isnull=True).values_list("player_id", flat=True)
        )
    dropped.delete()
    games = rated_games(league=league, from_key=from_key)
    players = touched | {p for _, _, seats in games for p, _ in seats}
    state = states_before(league, from_key, players) if from_key is not None else {}
    new, last_game = [], {}
    for key, game_id, seats in games:
        before = [state.get(p, engine.START) for p, _ in seats]
        after = engine.rate_game(before, [place for _, place in seats])
        new += _game_events(league, game_id, key, seats, before, after)
        for (player_id, _), state_after in zip(seats, after):
            state[player_id], last_game[player_id] = state_after, game_id
    RatingEvent.objects.bulk_create(new, batch_size=2000)
    _player_ratings_write(league, players, state, last_game)
    summary = {"from": from_key, "games": len(games), "players": len(players)}
    audit_log_write(actor=actor, action=f"ratings.{reason}", obj=league, data=summary)
    return summary


def _game_events(
    league: League, game_id: int, key: str, seats: list[tuple[int, int]], before: list, after: list
) -> list[RatingEvent]:
    """One game's rating events: per seat (player, place), the state before and after it."""
    return [
        RatingEvent(
            league=league,
            game_id=game_id,
            player_id=player_id,
            order_key=key,
            place=place,
            mu_before=mu0,
            sigma_before=s0,
            mu_after=mu1,
            sigma_after=s1,
            ordinal_before=engine.ordinal(mu0, s0),
            ordinal=engine.ordinal(mu1, s1),
        )
        for (player_id, place), (mu0, s0), (mu1, s1) in zip(seats, before, after)
    ]


def _player_ratings_write(league, players: set[int], state: dict, last_game: dict) -> None:
    counts = dict(
        RatingEvent.objects.filter(league=league, player_id__in=players)
        .values("player_id")
        .annotate(n=Count("id"))
        .values_list("player_id", "n")
    )
    gone = [p for p in players if not counts.get(p)]
    PlayerRating.objects.filter(league=league, player_id__in=gone).delete()
    missing_last = [p for p in players if counts.get(p) and p not in last_game]
    if missing_last:  # players whose latest game lies before the rebuild point
        for p, g in (
            RatingEvent.objects.filter(league=league, player_id__in=missing_last)
            .order_by("player_id", "order_key")
            .values_list("player_id", "game_id")
        ):
            last_game[p] = g
    existing = {r.player_id: r for r in PlayerRating.objects.filter(league=league, player_id__in=players)}
    create: list[PlayerRating] = []
    update: list[PlayerRating] = []
    now = timezone.now()
    for p in players:
        if not counts.get(p):
            continue
        mu, sigma = state[p]
        row = existing.get(p) or PlayerRating(league=league, player_id=p)
        row.mu, row.sigma, row.ordinal = mu, sigma, engine.ordinal(mu, sigma)
        row.games, row.last_game_id, row.updated_at = counts[p], last_game[p], now
        (update if row.pk else create).append(row)
    PlayerRating.objects.bulk_create(create)
    if update:
        _player_ratings_update(update, now)


def _player_ratings_update(rows: list, now) -> None:
    """The players' rating rows in one statement (kyoku.rows): a correction's replay rewrites
    the rating of every player it reaches (dozens), and bulk_update's CASE expressions (a branch
    per row and field) cost more to build than the database takes to run it."""
    columns = ("mu", "sigma", "ordinal", "games", "last_game_id", "updated_at")
    rows_update(PlayerRating, columns, [(r.pk, (r.mu, r.sigma, r.ordinal, r.games, r.last_game_id, now)) for r in rows])


@transaction.atomic
def game_ratings_sync(*, league: League, game_id: int, kind: str = "changed", actor: Actor) -> dict | None:
    """Bring the ratings up to date after game ``game_id``'s result was created, replaced or
    deleted. Nothing to do when the game is rated as it stands (same places, same position);
    otherwise rebuild from the earlier of its old and new position. Returns the rebuild's
    summary, or None when nothing changed (or the league is gone). ``league`` may be unread
    (``League(pk=…)``): the league is read here, with its lock."""
    return games_ratings_sync(league=league, game_ids=[game_id], kind=kind, actor=actor)


@transaction.atomic(savepoint=False)  # inside a caller's transaction: no savepoint round trip
def games_ratings_sync(
    *, league: League, game_ids, kind: str = "changed", season_id: int | None = None, actor: Actor
) -> dict | None:
    """The same for many games at once (a season's results re-derived by a rules revision): one
    comparison, and at most one rebuild, from the earliest game whose rating input moved. With
    ``season_id`` the games are read by season rather than by a list of ids of any length."""
    # decide on the state no other rebuild is changing; a league deleted meanwhile: nothing to do
    locked = instance_lock(League, league.pk)  # a plain statement (kyoku.rows): every result runs it
    if locked is None:
        return None
    league = locked
    wanted = set(game_ids)
    stored = defaultdict(list)
    befores: dict[int, tuple[float, float]] = {}  # one game's players' states before it, as rated
    latest: str | None  # the league's latest rated key (None: nothing rated yet)
    if season_id is None and len(wanted) == 1:  # every result's path: its events and the latest key at once
        (game_id,) = wanted
        latest, rows = _game_events_and_latest(league.pk, game_id)
        for key, player_id, place, mu, sigma in rows:
            stored[game_id].append((key, player_id, place))
            befores[player_id] = (mu, sigma)
    else:
        # by game (or season) only: with the league too, SQLite's planner may walk the league's index
        stored_rows = (
            RatingEvent.objects.filter(game__season_id=season_id)
            if season_id is not None
            else RatingEvent.objects.filter(game_id__in=wanted)
        )
        for key, game_id, player_id, place in stored_rows.values_list("order_key", "game_id", "player_id", "place"):
            if game_id in wanted:
                stored[game_id].append((key, player_id, place))
        latest = RatingEvent.objects.filter(league=league).aggregate(m=Max("order_key"))["m"]
    current: defaultdict[int, list] = defaultdict(list)
    for key, game_id, seats in rated_games(
        league=league, game_ids=None if season_id is not None else wanted, season_id=season_id
    ):
        if game_id in wanted:
            current[game_id] += [(key, p, place) for p, place in seats]
    moved = [g for g in wanted if sorted(stored.get(g, [])) != sorted(current.get(g, []))]
    if not moved:
        return None
    from_key = min(row[0] for g in moved for row in stored.get(g, []) + current.get(g, []))
    if len(moved) == 1 and not stored.get(moved[0]) and not _rated_after(from_key, latest):
        # the common case: a new result later than every rated game
        return game_ratings_append(
            league=league, game_id=moved[0], seats=current[moved[0]], actor=actor, reason=f"game_{kind}"
        )
    if len(moved) == 1 and _latest_game_replaced(stored.get(moved[0], []), current.get(moved[0], []), latest):
        # a correction of the latest rated game (the evening's last result entered again): its
        # events go and it is rated again from its players' states before it
        game_id = moved[0]
        RatingEvent.objects.filter(game_id=game_id).delete()  # by game alone: SQLite would walk the league's index
        return game_ratings_append(
            league=league,
            game_id=game_id,
            seats=current[game_id],
            actor=actor,
            reason=f"game_{kind}",
            replacing={p for _, p, _ in stored[game_id]},
            befores=befores,
        )
    return league_ratings_rebuild(
        league=league, from_key=from_key, actor=actor, reason=f"game_{kind}" if len(wanted) == 1 else f"games_{kind}"
    )


def _game_events_and_latest(league_id: int, game_id: int) -> tuple[str | None, list[tuple]]:
    """One game's rating events ``(key, player, place, mu before, sigma before)`` and the
    league's latest rated key (None: nothing rated), in one statement: the two reads every
    result's sync starts with."""
    from django.db import connection

    table = RatingEvent._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f'SELECT "order_key", "player_id", "place", "mu_before", "sigma_before" FROM "{table}" '
            f'WHERE "game_id" = %s UNION ALL SELECT MAX("order_key"), NULL, NULL, NULL, NULL FROM "{table}" '
            f'WHERE "league_id" = %s',
            [game_id, league_id],
        )
        rows = cursor.fetchall()
    latest = next((key for key, player, *_ in rows if player is None), None)
    return latest, [row for row in rows if row[1] is not None]


def _rated_after(key: str, latest: str | None) -> bool:
    """Whether any game of the league is rated after ``key``, ``latest`` being the league's
    latest rated key."""
    return latest is not None and latest > key


def _latest_game_replaced(stored: list[tuple], current: list[tuple], latest: str | None) -> bool:
    """Whether a game's rated seats (``stored``, (key, player, place)) and its seats now
    (``current``) differ only in places, at the same position, with nothing rated after it."""
    if not stored or not current:
        return False
    keys = {key for key, _, _ in stored} | {key for key, _, _ in current}
    if len(keys) != 1 or sorted(p for _, p, _ in stored) != sorted(p for _, p, _ in current):
        return False
    return not _rated_after(keys.pop(), latest)


def _states_latest(
    league: League, key: str, players: list[int], rows: dict, replacing, befores: dict
) -> dict[int, tuple[float, float]]:
    """The players' states before a game rated after every other: a rating row holds the state
    after its player's last event, which is that game's state before, so the rows (read anyway,
    to be written) serve; a correction's players take the states its removed events started
    from. Read from the events instead when a row cannot serve: a player without one (a first
    game, or a row not yet written) or whose last game was deleted and not yet re-rated."""
    if replacing and all(p in befores for p in players):
        return {p: befores[p] for p in players}
    if not replacing and all(p in rows and rows[p].last_game_id is not None for p in players):
        return {p: (rows[p].mu, rows[p].sigma) for p in players}
    return states_before(league, key, set(players))


def game_ratings_append(
    *,
    league: League,
    game_id: int,
    seats: list[tuple[str, int, int]],
    actor: Actor,
    reason: str = "game_created",
    replacing: frozenset[int] | set[int] = frozenset(),
    befores: dict[int, tuple[float, float]] | None = None,
) -> dict:
    """Rate one game later than every rated game: its four players from their current ratings
    (the state after their last event), openskill's own update, four events and four rating
    rows written. Constant time whatever the league's size. ``seats``: (key, player, place) in
    seat order. The caller holds the league's lock and checked that nothing is rated after it.
    ``replacing``: players whose events of this same game the caller has just removed (a
    correction): their count of rated games stays as it was; ``befores``: their states before
    it, as those events had them."""
    key = seats[0][0]
    players = [p for _, p, _ in seats]
    rows = {r.player_id: r for r in instances_where(PlayerRating, "league_id", league.pk, among=("player_id", players))}
    state = _states_latest(league, key, players, rows, replacing, befores or {})
    before = [state.get(p, engine.START) for p in players]
    after = engine.rate_game(before, [place for _, _, place in seats])
    instances_insert(_game_events(league, game_id, key, [(p, place) for _, p, place in seats], before, after))
    now = timezone.now()
    changed = []
    for p, (mu, sigma) in zip(players, after):
        row = rows.get(p)
        if row is not None and p in replacing:
            games = row.games
        else:
            games = (row.games + 1) if row is not None and p in state else 1
        values = dict(
            mu=mu, sigma=sigma, ordinal=engine.ordinal(mu, sigma), games=games, last_game_id=game_id, updated_at=now
        )
        if row is None:
            PlayerRating.objects.create(league=league, player_id=p, **values)
        else:
            for field, value in values.items():
                setattr(row, field, value)
            changed.append(row)
    if changed:
        _player_ratings_update(changed, now)  # one batch, not a statement each
    summary = {"from": key, "games": 1, "players": len(players)}
    audit_log_write(actor=actor, action=f"ratings.{reason}", obj=league, data=summary)
    return summary
