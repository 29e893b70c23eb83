"""A game later than all of a player's games is added to their stored figures without reading
their games again (stats.services.aggregate_append): it must give exactly what ``aggregate``
gives over every game, and a league's figures kept that way must equal a full recompute."""

import json
import random
from decimal import Decimal

from hypothesis import given, settings, strategies as st
from hypothesis.extra.django import TestCase

from kyoku.models import League
from kyoku.principals import SYSTEM
from league import services
from league.models import Player
from stats.figures import COUNTS
from stats.models import PlayerStats
from stats.services import AGG_COLUMNS, aggregate, aggregate_append, aggregate_kept, stats_recompute
from tests.actors import open_season
from tests.stats.test_incremental_equals_recompute import snapshot

YAKU = ["riichi", "tsumo", "pinfu", "tanyao", "yakuhai"]


@st.composite
def game_rows(draw):
    """A player's game rows in the league's order: days that only move forward (several games
    may share one), places with gaps (games with hands but no result yet), wins on some."""
    n = draw(st.integers(1, 14))
    rows, season, day = [], draw(st.integers(1, 3)), 1
    for i in range(n):
        step = draw(st.sampled_from(["same", "next", "season"])) if i else "same"
        if step == "next":
            day += draw(st.integers(1, 3))
        elif step == "season":
            season, day = season + draw(st.integers(1, 2)), 1
        counts = {name: draw(st.integers(0, 3)) for name in COUNTS}
        place = draw(st.one_of(st.none(), st.integers(1, 4)))
        points = Decimal(draw(st.integers(-600, 900))) / 10 if place else None
        yaku = {k: draw(st.integers(1, 2)) for k in draw(st.lists(st.sampled_from(YAKU), max_size=2, unique=True))}
        biggest = draw(
            st.one_of(st.none(), st.builds(lambda p: {"points": p, "han": 3}, st.sampled_from([2000, 3900, 8000])))
        )
        values = {
            **counts,
            "season_id": season,
            "match_day": day,
            "place": place,
            "raw_score": draw(st.sampled_from([None, 25000, 31000, 31000])) if place else None,
            "points": points,
            "yaku": dict(sorted(yaku.items())),
            "biggest": biggest,
            "game_id": 100 + i,
            "order_key": f"{season:04d}-{day:05d}-{i:05d}",
        }
        rows.append(tuple(values[c] for c in AGG_COLUMNS))
    return rows


@settings(max_examples=300, deadline=None)
@given(game_rows())
def test_append_gives_what_the_whole_aggregate_gives(rows):
    figures = aggregate(rows[:1])
    for row in rows[1:]:
        figures = aggregate_append(figures, row)
    assert figures == aggregate(rows)


@settings(max_examples=300, deadline=None)
@given(game_rows())
def test_the_figures_before_the_last_game_are_kept_and_the_whole_is_the_aggregate(rows):
    """``aggregate_kept`` (every full read and the recompute) gives ``aggregate``'s figures, and
    keeps those of all but the last game, which a replaced last game starts from."""
    kept = aggregate_kept(rows)
    before = kept.pop("before_last")
    assert kept == aggregate(rows)
    if len(rows) == 1:
        assert before == {}
    else:
        expected = aggregate(rows[:-1])
        assert {**before, "points_sum": Decimal(before["points_sum"])} == expected
        assert json.loads(json.dumps(before)) == before  # stored as JSON as it is


def test_append_keeps_the_earlier_of_level_games_and_days():
    """Two games level on points and raw score: the first stays the best; two days level on
    wins: the first stays the best day (the rules ``aggregate`` states)."""
    base = {name: 0 for name in COUNTS}

    def row(i, day, place, points, wins):
        values = {**base, "wins": wins, "season_id": 1, "match_day": day, "place": place, "raw_score": 30000}
        values.update(points=Decimal(points), yaku={}, biggest=None, game_id=i, order_key=f"{i:05d}")
        return tuple(values[c] for c in AGG_COLUMNS)

    rows = [row(1, 1, 1, "40.0", 2), row(2, 2, 1, "40.0", 2), row(3, 2, 4, "-30.0", 0)]
    figures = aggregate_append(aggregate_append(aggregate(rows[:1]), rows[1]), rows[2])
    assert figures["best_game"]["game"] == 1
    assert figures["best_day"] == {"season": 1, "match_day": 1} and figures["best_day_wins"] == 2
    assert (figures["first_streak"], figures["first_run"], figures["last_run"]) == (2, 0, 1)
    assert figures["last_day"] == {"season": 1, "match_day": 2} and figures["last_day_wins"] == 2


SCORES = [[48000, 32000, 24000, 16000], [16000, 24000, 32000, 48000], [30000, 30000, 35000, 25000]]


class ResultsInAnyOrder(TestCase):
    """Results entered in any order, some corrected: a result later than a player's games takes
    the append, an earlier one or a correction reads the games again; both equal a recompute."""

    @settings(max_examples=8, deadline=None)
    @given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2)), min_size=1, max_size=10))
    def test_figures_equal_a_recompute(self, steps):
        league = League.objects.create(name="Order", slug="order")
        rules = services.rule_set_create(name="WRC", slug="wrc-o", preset="wrc", is_template=True, actor=SYSTEM)
        players = [Player.objects.create(display_name=f"O{i}", membership_number=f"O{i}") for i in range(8)]
        season = open_season(league, rules, players)
        division = season.divisions.get(code="A")
        four = players[:4]
        rng = random.Random(len(steps))
        games = [
            services.game_create(
                division=division, match_day=1 + i // 2, table=1 + i % 2, players=rng.sample(four, 4), actor=SYSTEM
            )
            for i in range(6)
        ]
        for which, scores in steps:
            game = games[which]
            game.refresh_from_db()
            services.game_result_record(game=game, scores=SCORES[scores], actor=SYSTEM, replace=True)
        incremental = snapshot()
        assert PlayerStats.objects.exclude(last_key="").exists()
        stats_recompute(actor=SYSTEM)
        assert snapshot() == incremental


def history_reads(captured) -> list[str]:
    """The statements that read a player's games in a league (the full path of a refresh)."""
    return [q["sql"] for q in captured if 'FROM "stats_playergamestats"' in q["sql"] and "ORDER BY" in q["sql"]]


class ReplacedLatestGame(TestCase):
    """The next hand of a game in progress and a correction of the players' latest result
    replace that game in their figures from the figures kept before it: no read of their games,
    and the same figures as a recompute. A row without them kept is read in full once."""

    def test_next_hands_and_a_correction_read_no_games_and_equal_a_recompute(self):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from scoring import services as hands
        from tests.riichi_game import ALL_READY

        league = League.objects.create(name="Replace", slug="replace")
        rules = services.rule_set_create(name="WRC", slug="wrc-r", preset="wrc", is_template=True, actor=SYSTEM)
        players = [Player.objects.create(display_name=f"R{i}", membership_number=f"R{i}") for i in range(8)]
        season = open_season(league, rules, players)
        division = season.divisions.get(code="A")
        first, second = (
            services.game_create(division=division, match_day=d, table=1, players=players[:4], actor=SYSTEM)
            for d in (1, 2)
        )
        services.game_result_record(game=first, scores=SCORES[0], actor=SYSTEM)
        ron = {"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 3, "fu": 30}]}}
        hands.hand_record_add(game=second, record=ron, actor=SYSTEM)  # a new latest game: appended
        with CaptureQueriesContext(connection) as next_hands:
            hands.hand_record_add(game=second, record=ALL_READY, actor=SYSTEM)
            hands.hand_record_add(game=second, record=ron, actor=SYSTEM)
        assert history_reads(next_hands.captured_queries) == []
        with CaptureQueriesContext(connection) as correction:
            services.game_result_record(game=first, scores=SCORES[1], actor=SYSTEM, replace=True)
        # the first game is no longer the players' latest: read in full
        assert len(history_reads(correction.captured_queries)) == 1
        incremental = snapshot()
        stats_recompute(actor=SYSTEM)
        assert snapshot() == incremental

        # a row written before the figures before the last game were kept: read in full once,
        # then kept again
        PlayerStats.objects.update(before_last=None)
        with CaptureQueriesContext(connection) as legacy:
            hands.hand_record_add(game=second, record=ALL_READY, actor=SYSTEM)
        assert len(history_reads(legacy.captured_queries)) == 1
        assert not PlayerStats.objects.filter(before_last__isnull=True).exists()
        with CaptureQueriesContext(connection) as after:
            hands.hand_record_add(game=second, record=ron, actor=SYSTEM)
        assert history_reads(after.captured_queries) == []
        incremental = snapshot()
        stats_recompute(actor=SYSTEM)
        assert snapshot() == incremental
