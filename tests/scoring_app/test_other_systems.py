"""Zung Jung and Beijing seasons: typed results and hand-by-hand games (running scores from 0)."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from league.services import game_result_record
from scoring import services


def test_zung_jung_typed_result_uses_net_points(zj_game, admin):
    result, created = game_result_record(game=zj_game, scores=[150, -30, -45, -75], actor=admin)
    assert created and result.points == [150.0, -30.0, -45.0, -75.0] and result.places == [1, 2, 3, 4]
    assert [s.points for s in zj_game.seats.order_by("seat")] == [
        Decimal("150.0"),
        Decimal("-30.0"),
        Decimal("-45.0"),
        Decimal("-75.0"),
    ]


def test_zung_jung_typed_result_must_sum_to_zero(zj_game, admin):
    with pytest.raises(ValidationError) as err:
        game_result_record(game=zj_game, scores=[150, -30, -45, -70], actor=admin)
    assert "scores" in err.value.message_dict


def test_beijing_typed_result_with_tie(beijing_game, admin):
    result, _ = game_result_record(game=beijing_game, scores=[20, 20, -16, -24], actor=admin)
    assert result.places == [1, 1, 3, 4]


def test_zung_jung_game_hand_by_hand(zj_game, admin):
    records = [
        # A discard win of 80 by seat 0 from seat 3 under competition scoring (par 25): each
        # opponent pays the par 25, the discarder also pays the rest 3 × 55: 25 + 165 = 190.
        {"result": {"type": "discard", "winner": 0, "from": 3, "value": 80}},
        {"result": {"type": "self_draw", "winner": 2, "value": 30}},
        {"result": {"type": "draw"}},
    ]
    hands = [services.hand_record_add(game=zj_game, record=r, actor=admin)[0] for r in records]
    d1 = hands[0].settlement["deltas"]
    assert d1 == [240, -25, -25, -190]
    assert hands[1].settlement["deltas"] == [-30, -30, 90, -30]
    assert hands[2].settlement["deltas"] == [0, 0, 0, 0]
    assert hands[0].scores_after == d1  # running scores start from 0
    assert hands[2].scores_after == [210, -55, 65, -220]
    result, created = services.game_hands_finish(game=zj_game, actor=admin)
    assert created and result.scores == hands[2].scores_after and result.deposits_left == 0
    assert result.points == [float(s) for s in result.scores]


def test_zung_jung_bad_value_names_the_field(zj_game, admin):
    with pytest.raises(ValidationError) as err:
        services.hand_record_add(
            game=zj_game, actor=admin, record={"result": {"type": "self_draw", "winner": 2, "value": -5}}
        )
    assert list(err.value.message_dict) == ["result.value"]


def test_beijing_game_hand_by_hand_dealer_follows(beijing_game, admin):
    # hand 1: dealer 0 self-draws 門清 龍: each pays 1 × 2² × 2 (self-draw) × 2 (dealer) = 16.
    first, _ = services.hand_record_add(
        game=beijing_game,
        actor=admin,
        record={"result": {"type": "tsumo", "winner": 0, "factors": ["menqing", "long"]}},
    )
    assert first.settlement["deltas"] == [48, -16, -16, -16] and first.scores_after == [48, -16, -16, -16]
    # dealer won: keeps the deal, second hand in a row
    second, _ = services.hand_record_add(game=beijing_game, actor=admin, record={"result": {"type": "draw"}})
    assert (second.record["dealer"], second.record["dealer_streak"]) == (0, 2)
    third, _ = services.hand_record_add(
        game=beijing_game,
        actor=admin,
        record={"result": {"type": "ron", "winner": 1, "from": 2, "factors": ["menqing"]}},
    )
    assert third.record["after_draw"] is True
    with pytest.raises(ValidationError) as err:
        services.hand_record_add(game=beijing_game, actor=admin, record={"dealer": 0, "result": {"type": "draw"}})
    assert "dealer" in err.value.message_dict  # seat 0 lost the deal on hand 3
    result, _ = services.game_hands_finish(game=beijing_game, actor=admin)
    assert sum(result.scores) == 0 and result.scores == third.scores_after
