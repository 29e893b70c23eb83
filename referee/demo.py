"""Demo data for the referee desk (``manage.py seed_demo``): incidents of a played game, taken from
seed 003's worked incidents, through the same services a referee uses, so every referee and
player page has something real to show:

- a dealing incident ruled as the engine proposes (South's early discard made North miss a
  call: South is penalised), appealed by a player of the table and upheld by another referee;
- a false win ruled as proposed (a chombo deduction in the ledger and the standings);
- a late head-bump claim logged and waiting for its ruling.

Descriptions name players by their wind in that hand (the dealer is East; seat numbers run in turn
order), the same wind the ruling gives them.
"""

from __future__ import annotations

from kyoku.principals import System
from league.models import Game, GameSeat

from . import services


def ev(t: int, seat: int, act: str, **details) -> dict:
    return {"t": t, "seat": seat, "act": act, **details}


def early_play_timeline() -> list[dict]:
    """Seed 003, incident 1: North (seat 3) short from the deal claims after South discarded; the
    early discard made North miss a call."""
    return [
        ev(0, 0, "discard", settled_t=300),
        ev(1000, 1, "draw"),
        ev(2000, 1, "discard", settled_t=2200),
        ev(3000, 3, "claim_deal_incomplete", kind="short"),
        ev(3100, 3, "harm", by=2, kind="missed_call"),
    ]


def late_head_bump_timeline() -> list[dict]:
    """Seed 003, incident 2: West wins on North's discard; much later South claims a head bump."""
    return [
        ev(0, 0, "discard", settled_t=200),
        ev(800, 1, "draw"),
        ev(1500, 1, "discard"),
        ev(2200, 2, "draw"),
        ev(3000, 2, "discard"),
        ev(3600, 3, "touch_wall"),
        ev(3700, 3, "draw"),
        ev(4000, 3, "discard", settled_t=4200),
        ev(4600, 2, "ron"),
        ev(30000, 1, "ron"),
    ]


def false_win_timeline() -> list[dict]:
    """Seat 0 deals: West (seat 2) declares ron on North's discard; the hand turns out not to be
    complete."""
    return [
        ev(0, 0, "discard"),
        ev(800, 1, "draw"),
        ev(1500, 1, "discard"),
        ev(2200, 2, "draw"),
        ev(3000, 2, "discard"),
        ev(3600, 3, "touch_wall"),
        ev(3700, 3, "draw"),
        ev(4000, 3, "discard"),
        ev(4500, 2, "ron"),
        ev(9000, 2, "false_win_found"),
    ]


def incidents_seed(*, player, referee, second_referee) -> dict:
    """Incidents on a finished game where ``player`` sat (the demo's player login), the appeal
    decided by ``second_referee`` (an appeal needs another referee than the one who ruled)."""
    game = (
        Game.objects.filter(status=Game.Status.FINISHED, seats__player=player)
        .order_by("-season__year", "-season__number", "match_day", "table")
        .first()
    )
    if game is None:
        return {}
    # seat 0 deals all three hands (East 1, South 1, and South 1 again: a chombo replays the hand with
    # the same dealer); each timeline's first discard is the dealer's
    appealed = services.incident_log(
        game=game,
        hand_number=1,
        dealer=0,
        kind="early_play",
        events=early_play_timeline(),
        reporter=referee,
        description="South discarded before North had the full deal; North " "missed a pon on that tile.",
    )
    ruling = services.ruling_decide(incident=appealed, referee=referee, accept=True)
    appeal = services.appeal_file(
        ruling=ruling,
        player=player,
        reason="The discard was before North " "counted the tiles; please review the timing.",
        actor=player.user if player.user_id else System("command:seed_demo"),
    )
    services.appeal_decide(
        appeal=appeal,
        referee=second_referee,
        uphold=True,
        reason="The timeline shows the discard after the deal began; the ruling stands.",
    )
    false_win = services.incident_log(
        game=game,
        hand_number=5,
        dealer=0,
        kind="false_win",
        events=false_win_timeline(),
        reporter=referee,
        description="West declared ron on North's discard with an incomplete hand.",
    )
    services.ruling_decide(incident=false_win, referee=referee, accept=True)
    waiting = services.incident_log(
        game=game,
        hand_number=6,
        dealer=0,
        kind="head_bump",
        events=late_head_bump_timeline(),
        reporter=referee,
        description="South called ron long after West's win was settled.",
    )
    return {
        "game": game.pk,
        "incidents": [appealed.pk, false_win.pk, waiting.pk],
        "player_seat": GameSeat.objects.get(game=game, player=player).seat,
    }
