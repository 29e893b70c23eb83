"""GAME_END_OPTIONS: riichi options no hand's settlement reads, so a season's rules revised in
these alone can leave its stored hands as they are (scoring.services.season_rules_revise)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from riichi_helpers import opts
from riichi_strategies import records
from scoring.engine import hands_affected
from scoring.engine.riichi import GAME_END_OPTIONS, resolve, settle

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class WatchedOptions(dict):
    """Options that note every key settle() reads."""

    def __init__(self, *args):
        super().__init__(*args)
        self.read = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)


@FAST
@given(records())
def test_settle_never_reads_a_game_end_option(preset_record):
    preset, record = preset_record
    watched = WatchedOptions(opts(preset))
    settle(record, watched)
    assert watched.read, "the watch must see the options settle() reads"
    assert not watched.read & GAME_END_OPTIONS


uma = st.lists(st.integers(-60, 60), min_size=4, max_size=4).map(lambda u: sorted(u, reverse=True))
game_end_changes = st.fixed_dictionaries(
    {},
    optional={
        "return_points": st.integers(200, 400).map(lambda n: n * 100),
        "uma": uma,
        "uma_by_floaters": st.one_of(st.none(), st.fixed_dictionaries({"1": uma, "3": uma})),
        "oka": st.integers(0, 40),
        "ties": st.sampled_from(["split", "seat_order"]),
        "leftover_deposits": st.sampled_from(["first_place", "lost"]),
        "reaction_time_ms": st.integers(0, 5000),
    },
)


@FAST
@given(records(), game_end_changes)
def test_game_end_options_leave_every_settlement_as_it_is(preset_record, changes):
    preset, record = preset_record
    assert settle(record, resolve({"preset": preset, **changes})) == settle(record, opts(preset))
    assert not hands_affected({"preset": preset}, {"preset": preset, **changes})


@pytest.mark.parametrize(
    "changes",
    [
        {"honba_points": 1500},
        {"start_points": 30000},
        {"kiriage": False},
        {"chombo": {"mode": "deduction", "points": 8000}},
        {"noten_payment": 1800},
        {"uma": [30, 10, -10, -30], "max_fu": 130},
    ],
)
def test_any_other_option_counts_as_affecting_hands(changes):
    assert hands_affected({"preset": "mleague"}, {"preset": "mleague", **changes})


def test_uma_and_oka_alone_do_not_affect_hands():
    assert not hands_affected("mleague", {"preset": "mleague", "uma": [20, 10, -10, -20], "oka": 0})
    assert not hands_affected(
        {"preset": "wrc", "uma": [15, 5, -5, -15]}, {"preset": "wrc", "oka": 20, "return_points": 30000}
    )


def test_another_preset_or_system_affects_hands():
    assert hands_affected("mleague", "wrc")
    assert hands_affected("wrc", "zung-jung")


def test_systems_without_a_game_end_count_every_change():
    assert not hands_affected("zung-jung", {"preset": "zung-jung"})
    assert hands_affected("zung-jung", {"preset": "zung-jung", "par": 30})
