"""Replaying hands in play order (scoring.engine.replay) and cutting a season into batches of
whole games (scoring.parallel): pure, no database.

The game is the M-League game worked in tests/scoring_app/test_hands_riichi.py."""

import pickle

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import SettlementError, resolve_rules
from scoring.engine.replay import derived_digest, encode, games_resettle, hands_replay, state_first
from scoring.parallel import batches_resettle, copy_text, whole_games
from tests.riichi_game import HANDS, RUNNING, STATES

SYSTEM, OPTIONS = resolve_rules("mleague")


def rows(games=1, hands=HANDS, digests=None):
    """Stored rows (hand id, game id, record JSON, ends game, digest) of ``games`` copies of the game."""
    out = []
    for g in range(games):
        for n, record in enumerate(hands):
            hand_id = g * 100 + n
            out.append(
                (
                    hand_id,
                    g,
                    encode(record).decode(),
                    n == len(hands) - 1,
                    None if digests is None else digests[hand_id],
                )
            )
    return out


def test_hands_replay_derives_state_and_running_scores():
    replayed = list(hands_replay(SYSTEM, OPTIONS, HANDS))
    assert [(r["dealer"], r["honba"], r["deposits"]) for r, _, _ in replayed] == STATES
    assert [scores for _, _, scores in replayed] == RUNNING
    assert "dealer" not in HANDS[0]  # the caller's records are never changed in place


def test_hands_replay_reports_the_failing_position():
    bad = HANDS[:3] + [{"result": {"type": "tsumo", "winner": {"seat": 2, "han": 1, "fu": 35}}}]
    with pytest.raises(SettlementError) as caught:
        list(hands_replay(SYSTEM, OPTIONS, bad))
    assert (caught.value.index, caught.value.field) == (3, "result.winner.fu")


def test_games_resettle_returns_only_what_changed():
    changed, finals, hands = games_resettle(SYSTEM, OPTIONS, rows(games=2))
    assert hands == 10 and len(changed) == 10  # nothing stored yet: every hand is written
    assert finals == {0: (RUNNING[-1], 1, []), 1: (RUNNING[-1], 1, [])}
    hand_id, record, settlement, scores, digest = changed[1]
    assert orjson.loads(record)["honba"] == 1 and orjson.loads(scores) == RUNNING[1]
    assert digest == derived_digest(settlement, scores)
    # stored as written: a second pass finds nothing to write
    digests = {c[0]: c[4] for c in changed}
    stored = [
        (i, g, (c[1] or r.encode()).decode(), e, digests[i]) for (i, g, r, e, _), c in zip(rows(games=2), changed)
    ]
    assert games_resettle(SYSTEM, OPTIONS, stored)[0] == []


def test_other_rules_change_the_hands_that_pay_differently_and_everything_after():
    first, _, _ = games_resettle(SYSTEM, OPTIONS, rows())
    stored = [(i, g, c[1].decode(), e, c[4]) for (i, g, _, e, _), c in zip(rows(), first)]
    _, revised = resolve_rules({"preset": "mleague", "honba_points": 1500})
    changed, finals, _ = games_resettle(SYSTEM, revised, stored)
    # hand 1 (honba 0) is unchanged; hand 2 pays 1,500 honba and every later running score moves
    assert [c[0] for c in changed] == [1, 2, 3, 4]
    assert all(c[1] is None for c in changed)  # dealer, honba and sticks do not depend on the honba value
    assert finals[0] == ([23400, 27400, 18400, 29800], 1, [])


def test_a_settlement_error_names_the_hand_and_survives_pickling():
    bad = rows()
    bad[2] = (2, 0, '{"result": {"type": "ron", "from": 1, "winners": [{"seat": 1, "han": 1, "fu": 30}]}}', False, None)
    with pytest.raises(SettlementError) as caught:
        games_resettle(SYSTEM, OPTIONS, bad)
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.hand_id, copy.field, copy.message) == (2, "result.winners[0].seat", caught.value.message)


@given(st.lists(st.integers(1, 6), min_size=1, max_size=30), st.integers(1, 20))
def test_batches_are_whole_games_in_order(game_lengths, size):
    stored = [(n, g, "{}", False, None) for g, length in enumerate(game_lengths) for n in range(length)]
    batches = list(whole_games(stored, size))
    assert [row for batch in batches for row in batch] == stored
    for earlier, later in zip(batches, batches[1:]):
        assert earlier[-1][1] != later[0][1]  # a game is never cut
        assert len(earlier) >= size  # a batch closes only once it is full


@pytest.mark.parametrize("workers", [1, 2])
def test_batches_on_worker_processes_give_the_serial_result(workers):
    stored = rows(games=7)
    serial = games_resettle(SYSTEM, OPTIONS, stored)
    assert batches_resettle(SYSTEM, OPTIONS, whole_games(stored, 6), workers=workers) == serial


def test_an_error_in_a_worker_reaches_the_caller():
    stored = rows(games=4)
    stored[12] = (stored[12][0], stored[12][1], '{"result": {"type": "chombo"}}', False, None)
    with pytest.raises(SettlementError) as caught:
        batches_resettle(SYSTEM, OPTIONS, whole_games(stored, 5), workers=2)
    assert (caught.value.hand_id, caught.value.field) == (stored[12][0], "result.seat")


def test_first_state_of_each_system():
    assert state_first("riichi") == {"dealer": 0, "honba": 0, "deposits": 0}
    assert state_first("beijing") == {"dealer": 0, "dealer_streak": 1, "after_draw": False}
    assert state_first("zung-jung") == {}


def test_a_pool_is_started_only_for_three_batches_or_more(monkeypatch):
    import scoring.parallel as parallel

    started = []

    class CountingPool(parallel.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            started.append(kwargs["max_workers"])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", CountingPool)
    stored = rows(games=4)
    batches_resettle(SYSTEM, OPTIONS, whole_games(stored, 10), workers=2)
    assert started == []  # two batches: not worth a pool
    batches_resettle(SYSTEM, OPTIONS, whole_games(stored, 5), workers=2)
    assert started == [2]


def test_finals_carry_the_chombo_deductions_by_hand_number():
    game = HANDS[:2] + [{"result": {"type": "chombo", "seat": 2}}] + HANDS[2:]
    _, finals, _ = games_resettle(SYSTEM, OPTIONS, rows(hands=game))
    assert finals[0][2] == [(3, 2, 20000, "chombo")]


def test_copy_text_escapes_backslashes_and_marks_null():
    rows = [
        (7, None, b'{"why":"a \\"b\\" \\\\ c"}', b"[1,2,3,4]", -5),
        (8, b'{"note":"\\u6771\\n"}', b"{}", b"[0,0,0,0]", 9),
    ]
    assert copy_text(rows) == (
        b'7\t\\N\t{"why":"a \\\\"b\\\\" \\\\\\\\ c"}\t[1,2,3,4]\t-5\n'
        b'8\t{"note":"\\\\u6771\\\\n"}\t{}\t[0,0,0,0]\t9\n'
    )
