"""Property: after any sequence of hands added, corrected and deleted, a result recorded and a
game deleted, the figures kept up incrementally equal a full recompute (stats_recompute)."""

from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra.django import TestCase

from kyoku.models import League
from kyoku.principals import SYSTEM
from league import services
from league.models import Player
from scoring import services as hands
from stats.models import PlayerGameStats, PlayerStats, ScopeStats
from stats.services import stats_recompute
from tests.actors import open_season

seat = st.integers(0, 3)
ron = st.builds(
    lambda w, f, han: {"result": {"type": "ron", "from": f, "winners": [{"seat": w, "han": han, "fu": 30}]}},
    seat,
    seat,
    st.integers(1, 4),
).filter(lambda r: r["result"]["from"] != r["result"]["winners"][0]["seat"])
tsumo = st.builds(
    lambda w, han: {"result": {"type": "tsumo", "winner": {"seat": w, "han": han, "fu": 30}}}, seat, st.integers(1, 4)
)
draw = st.builds(lambda t: {"result": {"type": "draw", "tenpai": sorted(t)}}, st.sets(seat))
record = st.tuples(st.one_of(ron, tsumo, draw), st.sets(seat)).map(
    lambda rr: {**rr[0], "riichi": sorted(rr[1])} if rr[1] else rr[0]
)
step = st.one_of(
    st.tuples(st.just("add"), st.integers(0, 1), record),
    st.tuples(st.just("correct"), st.integers(0, 1), record),
    st.tuples(st.just("delete"), st.integers(0, 1), st.none()),
    st.tuples(st.just("result"), st.integers(0, 1), st.none()),
)

FIELDS = ("player_id", "season_id", "league_id", "system")


def snapshot():
    games = sorted(tuple(v for k, v in row.items() if k != "id") for row in PlayerGameStats.objects.values())
    stats = sorted(
        (tuple(str(v) for k, v in row.items() if k != "id") for row in PlayerStats.objects.values()),
    )
    # the version is a fresh token at every write, never the same after a rebuild
    scopes = sorted(
        tuple(str(v) for k, v in row.items() if k not in ("id", "version")) for row in ScopeStats.objects.values()
    )
    return games, stats, scopes


def scope_sums_by_hand():
    """Each scope's sums added up here from the player rows (not through stats.services): the
    league's row of a system, and each season's."""
    sums = {}
    for row in PlayerStats.objects.values():
        key = f"{row['league_id']}:{row['season_id'] or 0}:{row['system']}"
        total = sums.setdefault(key, {})
        for field in ("hands", "wins", "deal_ins", "riichi", "games", "place_sum", "points_sum"):
            total[field] = total.get(field, 0) + row[field]
    return sums


class IncrementalEqualsRecompute(TestCase):
    @settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(step, min_size=1, max_size=12))
    def test_incremental_equals_full(self, steps):
        league = League.objects.create(name="P", slug="p")
        rules = services.rule_set_create(name="WRC", slug="wrc", preset="wrc", is_template=True, actor=SYSTEM)
        players = [Player.objects.create(display_name=f"P{i}", membership_number=f"P{i}") for i in range(8)]
        season = open_season(league, rules, players)
        division = season.divisions.get(code="A")
        games = [
            services.game_create(division=division, match_day=d, table=1, players=players[:4], actor=SYSTEM)
            for d in (1, 2)
        ]
        for kind, which, rec in steps:
            game = games[which]
            game.refresh_from_db()
            stored = list(game.hands.order_by("sequence"))
            try:
                if kind == "add":
                    hands.hand_record_add(game=game, record=rec, actor=SYSTEM)
                elif kind == "correct" and stored:
                    hands.hand_record_correct(hand=stored[-1], record=rec, actor=SYSTEM)
                elif kind == "delete" and stored:
                    hands.hand_record_delete(hand=stored[0], actor=SYSTEM)
                elif kind == "result" and stored:
                    hands.game_hands_finish(game=game, actor=SYSTEM)
            except Exception as exc:  # a refused write (a finished game, a hand's own error) stores nothing
                if type(exc).__name__ not in ("ValidationError", "HandConflict", "ResultConflict"):
                    raise
        if len(steps) % 3 == 0:  # a game deleted with its hands (and result): its players' rows follow
            games[0].delete()
        incremental = snapshot()
        stored = {s.key: s for s in ScopeStats.objects.all()}
        by_hand = scope_sums_by_hand()
        assert set(stored) == set(by_hand)  # a scope whose players' rows all went goes too
        for key, total in by_hand.items():
            assert {f: getattr(stored[key], f) for f in total} == total
        stats_recompute(actor=SYSTEM)
        assert snapshot() == incremental
