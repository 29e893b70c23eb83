"""Ratings kept in constant time: a result for the latest game rates four players from their
current ratings; a change to an earlier game replays from that game on, starting from the
states stored with the games before it. Any mix of appends and corrections leaves exactly the
numbers a full recompute gives."""

from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league import services
from league.models import Game, GameResult
from ratings import engine
from ratings.models import PlayerRating, RatingEvent
from ratings.services import game_ratings_sync, league_ratings_rebuild
from tests.ratings.conftest import new_game, snapshot
from kyoku.principals import SYSTEM

PROPERTY = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)

SCORES = st.sampled_from(
    [
        [45000, 30000, 15000, 10000],
        [10000, 15000, 30000, 45000],
        [25000, 25000, 25000, 25000],
        [40000, 25000, 25000, 10000],
        [30000, 30000, 20000, 20000],
        [-5000, 60000, 30000, 15000],
    ]
)

# one operation: enter (or correct) a result, delete a result, delete a game, or schedule a game
# on a match day of either season, earlier or later than the games rated so far
OP = st.one_of(
    st.tuples(st.just("enter"), st.integers(0, 99), SCORES),
    st.tuples(st.just("enter"), st.integers(0, 99), SCORES),
    st.tuples(st.just("delete_result"), st.integers(0, 99), st.just(None)),
    st.tuples(st.just("delete_game"), st.integers(0, 99), st.just(None)),
    st.tuples(st.just("schedule"), st.integers(0, 1), st.tuples(st.sampled_from("AB"), st.integers(1, 4))),
)


def seating(players, code, day):
    group = players[:4] if code == "A" else players[4:]
    return group[day % 4 :] + group[: day % 4]  # a different East each match day


@PROPERTY
@given(ops=st.lists(OP, min_size=1, max_size=18))
def test_any_order_of_appends_and_corrections_equals_a_full_recompute(
    ops, season, season2, players, league, admin, django_capture_on_commit_callbacks
):
    with transaction.atomic():
        seasons = [season, season2]
        games = [
            new_game(season, "A", 2, 1, seating(players, "A", 2)),
            new_game(season2, "B", 1, 1, seating(players, "B", 1)),
        ]
        for op, arg, extra in ops:
            with django_capture_on_commit_callbacks(execute=True):
                if op == "schedule":
                    code, day = extra
                    s = seasons[arg]
                    # the next free table (a deleted game can leave a gap: counting would reuse a number)
                    tables = Game.objects.filter(division__season=s, division__code=code, match_day=day)
                    table = max(tables.values_list("table", flat=True), default=0) + 1
                    games.append(new_game(s, code, day, table, seating(players, code, day)))
                    continue
                if not games:
                    continue
                game = games[arg % len(games)]
                if op == "enter":
                    services.game_result_record(game=game, scores=extra, actor=admin, replace=True)
                elif op == "delete_result":
                    GameResult.objects.filter(game=game).delete()
                else:
                    games.remove(game)
                    game.delete()
        incremental = snapshot(league)
        assert len(incremental[0]) == 4 * GameResult.objects.filter(game__season__league=league).count()
        league_ratings_rebuild(league=league, actor=SYSTEM)
        assert snapshot(league) == incremental
        transaction.set_rollback(True)


def test_a_result_for_the_latest_game_rates_its_four_players_from_their_current_ratings(season, players, league, admin):
    for day in range(1, 4):
        game = new_game(season, "A", day, 1, seating(players, "A", day))
        services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)
        game_ratings_sync(league=league, game_id=game.pk, actor=SYSTEM)
    current = {r.player_id: (r.mu, r.sigma) for r in PlayerRating.objects.filter(league=league)}
    latest = new_game(season, "A", 4, 1, seating(players, "A", 4))
    services.game_result_record(game=latest, scores=[10000, 45000, 30000, 15000], actor=admin)
    game_ratings_sync(league=league, game_id=latest.pk, actor=SYSTEM)
    seats = list(latest.seats.order_by("seat"))
    expected = engine.rate_game([current[s.player_id] for s in seats], [4, 1, 2, 3])
    for seat, (mu, sigma) in zip(seats, expected):
        event = RatingEvent.objects.get(game=latest, player_id=seat.player_id)
        assert (event.mu_before, event.sigma_before) == current[seat.player_id]
        assert (event.mu_after, event.sigma_after) == (mu, sigma)
        assert PlayerRating.objects.get(league=league, player_id=seat.player_id).games == 4
    # openskill's own numbers for a first game (mu 25, sigma 25/3): the winner rises, the last falls
    first = RatingEvent.objects.filter(league=league).order_by("order_key", "player_id").first()
    assert (first.mu_before, first.sigma_before) == (25.0, 25 / 3)


def test_the_latest_result_costs_the_same_queries_whatever_the_history(season, players, league, admin):
    """The work of rating the latest game does not grow with the games before it: the same
    queries (each an index seek or a write of four rows) after 4 and after 40 rated games."""

    def play(first_day: int, n: int) -> None:
        for i in range(n):
            game = new_game(season, "AB"[i % 2], first_day + i // 2, 1, seating(players, "AB"[i % 2], i))
            services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)
        league_ratings_rebuild(league=league, actor=SYSTEM)

    def latest_sync(day: int) -> int:
        latest = new_game(season, "A", day, 1, seating(players, "A", 1))
        services.game_result_record(game=latest, scores=[10000, 45000, 30000, 15000], actor=admin)
        with CaptureQueriesContext(connection) as ctx:
            assert game_ratings_sync(league=league, game_id=latest.pk, kind="created", actor=SYSTEM)["games"] == 1
        return len(ctx.captured_queries)

    play(1, 4)
    after_4 = latest_sync(50)
    play(51, 36)
    assert RatingEvent.objects.filter(league=league).count() == 4 * 41
    assert latest_sync(100) == after_4


def test_a_correction_of_an_earlier_game_replays_from_it_not_from_the_first(season, players, league, admin):
    days = [new_game(season, "A", day, 1, seating(players, "A", day)) for day in range(1, 6)]
    for game in days:
        services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)
    league_ratings_rebuild(league=league, actor=SYSTEM)
    kept = {e.pk for e in RatingEvent.objects.filter(game__in=days[:3])}
    services.game_result_record(game=days[3], scores=[10000, 15000, 30000, 45000], actor=admin, replace=True)
    summary = game_ratings_sync(league=league, game_id=days[3].pk, kind="replaced", actor=SYSTEM)
    assert summary["games"] == 2  # day 4 and day 5; days 1-3 keep their stored events
    assert {e.pk for e in RatingEvent.objects.filter(game__in=days[:3])} == kept
    before = snapshot(league)
    league_ratings_rebuild(league=league, actor=SYSTEM)
    assert snapshot(league) == before


def test_a_correction_of_the_latest_game_rates_it_again_in_constant_time(season, players, league, admin):
    """The evening's last result entered again: only that game's four events are rewritten, from
    its players' states before it, and each player's count of rated games stays the same."""
    days = [new_game(season, "A", day, 1, seating(players, "A", day)) for day in range(1, 5)]
    for game in days:
        services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)
    league_ratings_rebuild(league=league, actor=SYSTEM)
    kept = {e.pk for e in RatingEvent.objects.filter(game__in=days[:3])}
    latest = days[3]
    services.game_result_record(game=latest, scores=[10000, 15000, 30000, 45000], actor=admin, replace=True)
    summary = game_ratings_sync(league=league, game_id=latest.pk, kind="replaced", actor=SYSTEM)
    assert summary["games"] == 1
    assert {e.pk for e in RatingEvent.objects.filter(game__in=days[:3])} == kept
    assert set(PlayerRating.objects.filter(league=league).values_list("games", flat=True)) == {4}
    incremental = snapshot(league)
    league_ratings_rebuild(league=league, actor=SYSTEM)
    assert snapshot(league) == incremental
