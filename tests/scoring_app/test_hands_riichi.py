"""A short M-League game entered hand by hand (start 25,000, return 30,000, uma 30/10, oka 20,
leftover riichi sticks to first place). Every figure below is worked by hand:

hand 1  dealer 0, honba 0, sticks 0: exhaustive draw, seat 1 riichi, seats 0 and 1 ready:
        noten 3,000 → +1,500 to 0 and 1, −1,500 from 2 and 3; seat 1's stick to the table.
        deltas [+1500, +500, −1500, −1500]; dealer ready → repeats, honba 1, 1 stick.
hand 2  dealer 0, honba 1, sticks 1: seat 3 rons seat 2, 3 han 30 fu = 3,900 + 300 honba
        + the carried-over stick 1,000. deltas [0, 0, −4200, +5200]; dealer passes.
hand 3  dealer 1, honba 0, sticks 0: dealer tsumo 2 han 40 fu = 1,300 all (3,900); seat 1
        riichi (its stick comes straight back). deltas [−1300, +3900, −1300, −1300]; repeats.
hand 4  dealer 1, honba 1: seat 2 tsumo 1 han 30 fu = 300/500 + 100 each:
        deltas [−400, −600, +1400, −400]; dealer passes.
hand 5  dealer 2, honba 0: draw, seat 3 riichi and alone ready: +3,000 −1,000 stick;
        deltas [−1000, −1000, −1000, +2000]; 1 stick left on the table.

Running: [26500, 25500, 23500, 23500] → [26500, 25500, 19300, 28700] → [25200, 29400, 18000, 27400]
→ [24800, 28800, 19400, 27000] → [23800, 27800, 18400, 29000] (+ 1 stick = 100,000).
Game end: the stick goes to first place (seat 3: 30,000). (score − 30,000)/1000 + uma + oka:
seat 3 0.0 + 30 + 20 = 50.0; seat 1 −2.2 + 10 = 7.8; seat 0 −6.2 − 10 = −16.2; seat 2 −11.6 − 30 = −41.6.
"""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from kyoku.models import AuditLog
from league.models import Game, GameResult, Penalty, Standing
from scoring import services
from scoring.models import HandRecord

from tests.riichi_game import DELTAS, HANDS, RUNNING, STATES  # re-exported: other tests import them from here
from kyoku.principals import SYSTEM


def enter_all(game, admin):
    return [services.hand_record_add(game=game, record=r, actor=admin)[0] for r in HANDS]


def test_running_scores_state_and_deltas(game, admin):
    hands = enter_all(game, admin)
    assert [h.settlement["deltas"] for h in hands] == DELTAS
    assert [h.scores_after for h in hands] == RUNNING
    assert [(h.record["dealer"], h.record["honba"], h.record["deposits"]) for h in hands] == STATES
    assert [h.sequence for h in hands] == [1, 2, 3, 4, 5]
    assert hands[-1].settlement["deposits_after"] == 1
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    assert AuditLog.objects.filter(action="hand.add").count() == 5


def test_finish_derives_scores_points_and_standings(game, admin, django_capture_on_commit_callbacks):
    enter_all(game, admin)
    with django_capture_on_commit_callbacks(execute=True):
        result, created = services.game_hands_finish(game=game, actor=admin)
    assert created
    assert result.scores == [23800, 27800, 18400, 29000] and result.deposits_left == 1
    assert result.points == [-16.2, 7.8, -41.6, 50.0] and result.places == [3, 2, 4, 1]
    seats = list(game.seats.order_by("seat"))
    assert [s.raw_score for s in seats] == [23800, 27800, 18400, 29000]
    assert [s.points for s in seats] == [Decimal("-16.2"), Decimal("7.8"), Decimal("-41.6"), Decimal("50.0")]
    standings = {s.player_id: s for s in Standing.objects.filter(division=game.division)}
    assert standings[seats[3].player_id].rank == 1 and standings[seats[3].player_id].total_points == Decimal("50.0")
    assert standings[seats[2].player_id].rank == 4
    assert HandRecord.objects.get(game=game, sequence=5).ends_game
    # Finishing again changes nothing; adding a hand afterwards is refused.
    assert services.game_hands_finish(game=game, actor=admin)[1] is False
    with pytest.raises(ValidationError) as err:
        services.hand_record_add(game=game, record=HANDS[0], actor=admin)
    assert "game" in err.value.message_dict


def test_typed_totals_are_checked_against_the_hands(game, admin):
    from league.services import game_result_record

    game_result_record(game=game, scores=[23800, 27800, 19400, 28000], deposits_left=1, actor=admin)
    enter_all(game, admin)  # a typed result does not stop hand entry
    with pytest.raises(ValidationError) as err:
        services.game_hands_finish(game=game, actor=admin)
    assert "scores" in err.value.message_dict
    assert not HandRecord.objects.filter(ends_game=True).exists()


def test_typed_totals_that_match_are_kept(game, admin):
    from league.services import game_result_record

    game_result_record(game=game, scores=[23800, 27800, 18400, 29000], deposits_left=1, actor=admin)
    enter_all(game, admin)
    result, created = services.game_hands_finish(game=game, actor=admin)
    assert created is False and result.points == [-16.2, 7.8, -41.6, 50.0]


def test_correction_resettles_every_later_hand(game, admin):
    hands = enter_all(game, admin)
    # Hand 2 was really a 4 han 30 fu ron: 8,000 under M.League's kiriage (切り上げ満貫), so seat 3
    # +9,300, seat 2 −8,300. Later states are unchanged (dealer passes either way), so later deltas
    # stay and running scores shift by 4,100.
    services.hand_record_correct(
        hand=hands[1],
        actor=admin,
        record={"result": {"type": "ron", "from": 2, "winners": [{"seat": 3, "han": 4, "fu": 30}]}},
    )
    after = list(HandRecord.objects.filter(game=game).order_by("sequence"))
    assert after[1].settlement["deltas"] == [0, 0, -8300, 9300]
    assert [h.scores_after for h in after][4] == [23800, 27800, 14300, 33100]
    # Hand 1 corrected to a dealer-noten draw: the dealer passes, so hand 2 onwards move a seat.
    services.hand_record_correct(
        hand=after[0], actor=admin, record={"riichi": [1], "result": {"type": "draw", "tenpai": [1]}}
    )
    after = list(HandRecord.objects.filter(game=game).order_by("sequence"))
    assert (after[1].record["dealer"], after[1].record["honba"], after[1].record["deposits"]) == (1, 1, 1)
    assert after[0].settlement["deltas"] == [-1000, 2000, -1000, -1000]
    # hand 2: non-dealer ron 4 han 30 fu, 8,000 with kiriage, + 300 honba + 1 stick
    assert after[1].settlement["deltas"] == [0, 0, -8300, 9300]
    assert sum(after[-1].scores_after) + 1000 * after[-1].settlement["deposits_after"] == 100000
    assert AuditLog.objects.filter(action="hand.correct").count() == 2


def test_correction_after_finish_updates_the_result(game, admin):
    hands = enter_all(game, admin)
    services.game_hands_finish(game=game, actor=admin)
    services.hand_record_correct(
        hand=hands[3], actor=admin, record={"result": {"type": "tsumo", "winner": {"seat": 2, "han": 1, "fu": 40}}}
    )  # 400/700 + 100 each: [-500, -800, +1800, -500]
    result = GameResult.objects.get(game=game)
    assert result.scores == [23700, 27600, 18800, 28900]


def test_state_fields_must_match_the_derived_state(game, admin):
    services.hand_record_add(game=game, record=HANDS[0], actor=admin)
    for field, value in (("honba", 0), ("deposits", 0), ("dealer", 1)):
        with pytest.raises(ValidationError) as err:
            services.hand_record_add(game=game, record={**HANDS[1], field: value}, actor=admin)
        assert list(err.value.message_dict) == [field]
    hand, created = services.hand_record_add(
        game=game, actor=admin, record={**HANDS[1], "dealer": 0, "honba": 1, "deposits": 1}
    )
    assert created and hand.settlement["deltas"] == DELTAS[1]


def test_engine_error_names_the_field_and_stores_nothing(game, admin):
    bad = {"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 2, "fu": 35}]}}
    with pytest.raises(ValidationError) as err:
        services.hand_record_add(game=game, record=bad, actor=admin)
    assert list(err.value.message_dict) == ["result.winners[0].fu"]
    assert not HandRecord.objects.exists() and not AuditLog.objects.filter(action="hand.add").exists()
    with pytest.raises(ValidationError) as err:
        services.hand_record_add(game=game, record={"rules": "wrc", **HANDS[0]}, actor=admin)
    assert "rules" in err.value.message_dict


def test_same_record_for_the_same_sequence_is_stored_once(game, admin):
    first, created = services.hand_record_add(game=game, record=HANDS[0], actor=admin, sequence=1)
    again, created_again = services.hand_record_add(game=game, record=HANDS[0], actor=admin, sequence=1)
    assert created and not created_again and again.pk == first.pk
    with pytest.raises(services.HandConflict):
        services.hand_record_add(game=game, record=HANDS[1], actor=admin, sequence=1)
    with pytest.raises(ValidationError) as err:
        services.hand_record_add(game=game, record=HANDS[1], actor=admin, sequence=3)
    assert "sequence" in err.value.message_dict
    assert HandRecord.objects.count() == 1


def test_chombo_deduction_goes_to_the_penalty_ledger(game, admin):
    services.hand_record_add(game=game, record={"result": {"type": "chombo", "seat": 2}}, actor=admin)
    hand, _ = services.hand_record_add(game=game, record=HANDS[0], actor=admin)
    assert (hand.record["dealer"], hand.record["honba"]) == (0, 0)  # a chombo replays the hand
    services.hand_record_add(game=game, record={"result": {"type": "draw", "tenpai": [0, 1, 2, 3]}}, actor=admin)
    services.game_hands_finish(game=game, actor=admin)
    penalty = Penalty.objects.get(game=game)
    assert penalty.sanction == "chombo" and penalty.points == Decimal("20") and penalty.hand_number == 1
    assert penalty.player == game.seats.get(seat=2).player


def test_preview_stores_nothing(game, admin):
    services.hand_record_add(game=game, record=HANDS[0], actor=admin)
    out = services.hand_preview(game=game, record=HANDS[1])
    assert out["sequence"] == 2 and out["scores_before"] == RUNNING[0] and out["scores_after"] == RUNNING[1]
    assert out["record"]["honba"] == 1
    assert HandRecord.objects.count() == 1


def test_game_hands_resettle_is_a_no_op_when_nothing_changed(game, admin):
    enter_all(game, admin)
    assert services.game_hands_resettle(game=game, actor=SYSTEM) == 0
    HandRecord.objects.filter(game=game, sequence=2).update(settlement={}, scores_after=[])
    assert services.game_hands_resettle(game=game, actor=SYSTEM) == 1
    assert HandRecord.objects.get(game=game, sequence=5).scores_after == RUNNING[4]
