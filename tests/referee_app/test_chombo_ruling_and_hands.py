"""A chombo recorded in a game's hands and ruled by a referee is deducted once.

The scorekeeper records hand 1 as a chombo by seat 2 (WRC: 20,000 points, booked to the ledger as
20 league points from the hand). When the referee then rules a false win (錯和) for that hand, the
ruling's deduction stands and the one booked from the hand is cancelled; re-settling the season
does not book it again. If an appeal reverses the ruling, the hand's deduction comes back. A
ruling on a hand the hands do not record as a chombo leaves the hands' own deductions alone.
"""

from decimal import Decimal


from league.models import Penalty
from league.services import standings_recompute
from referee import services
from scoring import services as scoring_services
from kyoku.principals import SYSTEM


def false_win(game, referee, tl, hand_number):
    events = [
        tl.ev(0, 0, "discard"),
        tl.ev(800, 1, "draw"),
        tl.ev(1500, 1, "discard"),
        tl.ev(2200, 2, "draw"),
        tl.ev(3000, 2, "discard"),
        tl.ev(3600, 3, "touch_wall"),
        tl.ev(3700, 3, "draw"),
        tl.ev(4000, 3, "discard"),
        tl.ev(4500, 2, "ron"),
        tl.ev(9000, 2, "false_win_found"),
    ]
    incident = services.incident_log(
        game=game,
        hand_number=hand_number,
        dealer=0,
        kind="false_win",
        events=events,
        description="West declared ron on a hand that was not complete",
        private_notes="",
        reporter=referee,
    )
    return services.ruling_decide(incident=incident, referee=referee, accept=True)


def chombos(game):
    """Active chombo deductions: (hand number, points, booked from the hands rather than a ruling?)."""
    return sorted(
        (number, points, ruling is None)
        for number, points, ruling in Penalty.objects.filter(
            game=game, sanction="chombo", cancelled_at__isnull=True
        ).values_list("hand_number", "points", "ruling")
    )


def penalty_points(game, seat):
    standings_recompute(division=game.division)
    player = game.seats.get(seat=seat).player
    return player.standings.get(division=game.division).penalty_points


def test_the_ruling_deducts_the_hands_chombo_once(chombo_game, referee, tl):
    assert chombos(chombo_game) == [(1, Decimal("20"), True)]  # booked from the hand
    false_win(chombo_game, referee, tl, hand_number=1)
    assert chombos(chombo_game) == [(1, Decimal("20"), False)]  # now the ruling's, alone
    from_hand = Penalty.objects.get(game=chombo_game, ruling__isnull=True)
    assert from_hand.cancelled_at is not None and "ruling" in from_hand.cancel_reason
    assert penalty_points(chombo_game, 2) == Decimal("20")


def test_re_settling_and_revising_the_rules_do_not_book_it_again(chombo_game, season, referee, tl, admin):
    false_win(chombo_game, referee, tl, hand_number=1)
    scoring_services.season_hands_resettle(season=season, actor=SYSTEM)
    scoring_services.season_rules_revise(
        season=season, overrides={"chombo": {"mode": "deduction", "points": 8000}}, actor=admin
    )
    assert chombos(chombo_game) == [(1, Decimal("20"), False)]  # the referee's ruling stands as issued
    assert penalty_points(chombo_game, 2) == Decimal("20")


def test_a_reversed_ruling_gives_the_deduction_back_to_the_hand(chombo_game, referee, referee2, tl):
    ruling = false_win(chombo_game, referee, tl, hand_number=1)
    appeal = services.appeal_file(
        ruling=ruling,
        player=chombo_game.seats.get(seat=2).player,
        reason="the hand was complete",
        actor=SYSTEM,
    )
    services.appeal_decide(appeal=appeal, referee=referee2, uphold=False, reason="the tiles were misread")
    assert chombos(chombo_game) == [(1, Decimal("20"), True)]  # the hand still records it
    assert Penalty.objects.filter(game=chombo_game, sanction="chombo").count() == 3  # two cancelled, kept


def test_a_ruling_on_another_hand_leaves_the_hands_deduction(chombo_game, season, referee, tl, admin):
    false_win(chombo_game, referee, tl, hand_number=2)
    assert chombos(chombo_game) == [(1, Decimal("20"), True), (2, Decimal("20"), False)]
    scoring_services.season_rules_revise(
        season=season, overrides={"chombo": {"mode": "deduction", "points": 8000}}, actor=admin
    )
    assert chombos(chombo_game) == [(1, Decimal("8"), True), (2, Decimal("20"), False)]
    assert penalty_points(chombo_game, 2) == Decimal("28")
