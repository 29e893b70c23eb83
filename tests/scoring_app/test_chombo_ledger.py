"""Chombo deductions booked from hands follow the hands: a corrected hand or revised rules cancel
the old deduction (cancelled, never deleted) and book the new one; standings follow.

M-League: chombo is a 20-point deduction after uma (20,000 raw points / 1000)."""

from decimal import Decimal


from league.models import Penalty, Standing
from scoring import services
from scoring.models import HandRecord

from tests.riichi_game import ALL_READY
from kyoku.principals import SYSTEM


def active(game):
    return list(Penalty.objects.filter(game=game, cancelled_at__isnull=True).values_list("hand_number", "points"))


def penalty_points_of(game, seat):
    return Standing.objects.get(player=game.seats.get(seat=seat).player).penalty_points


def test_correcting_the_chombo_away_cancels_its_deduction(chombo_game, admin, django_capture_on_commit_callbacks):
    assert active(chombo_game) == [(1, Decimal("20"))]
    hand = HandRecord.objects.get(game=chombo_game, sequence=1)
    with django_capture_on_commit_callbacks(execute=True):  # standings follow after the commit
        services.hand_record_correct(hand=hand, record=ALL_READY, actor=admin)
    assert active(chombo_game) == []
    cancelled = Penalty.objects.get(game=chombo_game)
    assert cancelled.cancelled_at is not None and "hand 1" in cancelled.cancel_reason
    assert penalty_points_of(chombo_game, 2) == 0


def test_correcting_the_chombo_to_another_seat_moves_the_deduction(chombo_game, admin):
    hand = HandRecord.objects.get(game=chombo_game, sequence=1)
    services.hand_record_correct(hand=hand, record={"result": {"type": "chombo", "seat": 1}}, actor=admin)
    booked = Penalty.objects.get(game=chombo_game, cancelled_at__isnull=True)
    assert booked.player == chombo_game.seats.get(seat=1).player and booked.points == Decimal("20")
    assert Penalty.objects.filter(game=chombo_game).count() == 2  # the first one kept, cancelled


def test_revised_chombo_amount_rebooks_it(chombo_game, season, admin):
    services.season_rules_revise(
        season=season, overrides={"chombo": {"mode": "deduction", "points": 8000}}, actor=admin
    )
    assert active(chombo_game) == [(1, Decimal("8"))]
    assert penalty_points_of(chombo_game, 2) == Decimal("8")
    # running it again books nothing more
    services.season_hands_resettle(season=season, actor=SYSTEM)
    assert Penalty.objects.filter(game=chombo_game).count() == 2


def test_reverse_mangan_replaces_the_deduction_by_payments(chombo_game, season, admin):
    services.season_rules_revise(season=season, overrides={"chombo": {"mode": "reverse_mangan"}}, actor=admin)
    assert active(chombo_game) == []
    # seat 2 pays a mangan as if to a dealer tsumo from... a non-dealer: 4,000 to the dealer, 2,000 to each other
    assert HandRecord.objects.get(game=chombo_game, sequence=1).settlement["deltas"] == [4000, 2000, -8000, 2000]
