"""The incremental standings (a changed player's row put in its new place, only the ranks that
move written) equal the full recompute after every kind of change, ties by name and id included."""

import random
from decimal import Decimal

from league import services
from league.models import Player, Standing
from league.services import STANDING_FIELDS
from league.standings import standings_rows
from kyoku.principals import SYSTEM

SCORES = [
    [45000, 30000, 15000, 10000],
    [25000, 25000, 30000, 20000],
    [10000, 40000, 30000, 20000],
    [33100, 28400, 21500, 17000],
    [25000, 25000, 25000, 25000],
    [52000, 24000, 14000, 10000],
]


def _stored(division):
    return {
        row[0]: tuple(row[1:])
        for row in Standing.objects.filter(division=division).order_by().values_list("player_id", *STANDING_FIELDS)
    }


def _full(division):
    return {row["player_id"]: tuple(row[f] for f in STANDING_FIELDS) for row in standings_rows(division=division)}


def _same(division):
    stored, full = _stored(division), _full(division)
    assert sorted(r[0] for r in stored.values()) == list(range(1, len(stored) + 1))  # ranks 1..n, no gap
    for p in full:
        a, b = stored[p], full[p]
        assert a[0] == b[0] and all(
            x == y or (x is not None and y is not None and Decimal(x) == Decimal(y)) for x, y in zip(a[1:], b[1:])
        ), (p, a, b)
    assert stored.keys() == full.keys()


def test_incremental_equals_full_recompute_through_random_changes(season, admin):
    division = season.divisions.get(code="B")
    rng = random.Random(24)
    # same names on purpose: the name and then the id break ties; and entrants who never play
    entrants = [Player.objects.create(display_name=f"Twin {i % 5}", membership_number=f"R{i:03d}") for i in range(22)]
    for p in entrants:
        services.entry_create(division=division, player=p, actor=SYSTEM)
        _same(division)
    pool = entrants[:18]  # the last four never play
    games, penalties, day = [], [], 1
    for step in range(70):
        kind = rng.random()
        if kind < 0.5 or not games:
            four = rng.sample(pool, 4)
            game = services.game_create(division=division, match_day=day, table=1, players=four, actor=SYSTEM)
            day += 1
            services.game_result_record(game=game, scores=rng.choice(SCORES), actor=admin)
            games.append(game)
        elif kind < 0.75:
            game = rng.choice(games)
            game.refresh_from_db()
            services.game_result_record(game=game, scores=rng.choice(SCORES), actor=admin, replace=True)
        elif kind < 0.87 or not penalties:
            penalties.append(
                services.penalty_assign(
                    season=season,
                    player=rng.choice(entrants),
                    offence="late",
                    sanction="point_deduction",
                    points=Decimal(rng.choice(["5", "10", "2.5"])),
                    actor=admin,
                )
            )
        else:
            services.penalty_cancel(penalty=penalties.pop(rng.randrange(len(penalties))), reason="appeal", actor=admin)
        _same(division)
    # a renamed player moves among those level with them
    renamed = entrants[20]
    Player.objects.filter(pk=renamed.pk).update(display_name="Aaron")
    services.player_standings_touch(player_id=renamed.pk)
    _same(division)
    # many players at once (a promotion's arrivals) take the whole-division re-rank: the same table
    Standing.objects.filter(division=division, player__in=entrants[:3]).delete()
    assert services.standings_update(division=division, player_ids=[p.pk for p in entrants]) >= 3
    _same(division)


def test_update_writes_only_the_rows_whose_rank_moves(season, admin):
    division = season.divisions.get(code="B")
    entrants = [Player.objects.create(display_name=f"P {i:02d}", membership_number=f"W{i:03d}") for i in range(30)]
    for p in entrants:
        services.entry_create(division=division, player=p, actor=SYSTEM)
    for day in range(1, 8):
        game = services.game_create(
            division=division, match_day=day, table=1, players=entrants[4 * day - 4 : 4 * day], actor=SYSTEM
        )
        services.game_result_record(game=game, scores=SCORES[0], actor=admin)
    services.standings_recompute(division=division)
    before = _stored(division)
    # nothing changed: nothing written
    assert services.standings_update(division=division, player_ids=[p.pk for p in entrants[:4]]) == 0
    # a player's deduction moves them below a few rows: those rows and theirs only
    services.penalty_assign(
        season=season, player=entrants[0], offence="late", sanction="point_deduction", points=Decimal("70"), actor=admin
    )
    after = _stored(division)
    moved = {p for p in after if after[p] != before[p]}
    assert entrants[0].pk in moved and len(moved) < len(after) / 2
    _same(division)
