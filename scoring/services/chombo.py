"""The chombo ledger: the chombo deductions the hands settle, booked to (and cancelled from) the
season's penalty ledger, leaving alone what a referee's ruling booked."""

from __future__ import annotations

from decimal import Decimal

from kyoku.principals import Actor
from league.models import Game, GameSeat, Penalty, Player, Season
from league.services import penalty_assign, penalty_cancel

from ..models import HandRecord
from .checks import hands_of_game


def chombo_penalties_sync(game: Game, hands: list[HandRecord], actor: Actor) -> int:
    """A chombo deducted from the final score goes to the penalty ledger (standings apply it after uma)."""
    penalties = [
        (hand.sequence, p["seat"], p["points"], p.get("why", ""))
        for hand in hands
        for p in hand.settlement.get("penalties", [])
    ]
    return chombo_ledger_sync(season=game.season, penalties_by_game={game.pk: penalties}, actor=actor)


def game_chombo_ledger_sync(*, game: Game, actor: Actor) -> int:
    """Bring the chombo deductions booked from ``game``'s hands in line with the ledger as it now
    stands, e.g. after a referee's ruling booked a chombo for one of its hands. A game entered
    only as final scores has nothing to sync."""
    hands = hands_of_game(game)
    return chombo_penalties_sync(game, hands, actor) if hands else 0


def chombo_ledger_sync(*, season: Season, penalties_by_game: dict, actor: Actor) -> int:
    """Make the ledger's chombo deductions booked from hands match the hands of these games:
    ``{game id: [(hand number, seat, points, why)]}``. A deduction no longer in the hands (the hand
    was corrected, or the rules changed its amount) is cancelled, never deleted; a missing one is
    booked. Deductions a referee booked through a ruling are left alone, and a hand's chombo that
    such a ruling already deducts (same game, hand and player) is not booked twice: the ruling's
    stands, and a deduction booked from the hand before it is cancelled. Returns the changes."""
    if not penalties_by_game:
        return 0
    with_penalties = [game_id for game_id, penalties in penalties_by_game.items() if penalties]
    seats = GameSeat.objects.filter(game_id__in=with_penalties).values_list("game_id", "seat", "player_id")
    player_at = {(g, s): p for g, s, p in seats}
    wanted = {
        (game_id, number, player_at[game_id, seat]): (Decimal(points) / 1000, why)
        for game_id in with_penalties
        for number, seat, points, why in penalties_by_game[game_id]
    }
    chombos = Penalty.objects.filter(
        season=season, sanction=Penalty.Sanction.CHOMBO, cancelled_at__isnull=True, game__isnull=False
    )
    if len(penalties_by_game) < 100:  # a game or a few (a correction): not the whole season's ledger
        chombos = chombos.filter(game_id__in=penalties_by_game)
    active = list(chombos)
    ruled = {(p.game_id, p.hand_number, p.player_id) for p in active if p.ruling_id is not None}
    stale = []
    for penalty in active:
        key = (penalty.game_id, penalty.hand_number, penalty.player_id)
        if penalty.ruling_id is not None or penalty.game_id not in penalties_by_game:
            continue
        if key in ruled:
            stale.append((penalty, f"hand {penalty.hand_number}: the referee's ruling deducts this chombo"))
        elif wanted.get(key, (None,))[0] == penalty.points:
            del wanted[key]
        else:
            stale.append(
                (penalty, f"hand {penalty.hand_number} no longer deducts {penalty.points} points " "for this player")
            )
    for penalty, reason in stale:
        penalty_cancel(penalty=penalty, actor=actor, reason=reason)
    changes = len(stale)
    wanted = {key: value for key, value in wanted.items() if key not in ruled}
    players = Player.objects.in_bulk({player_id for _, _, player_id in wanted})
    games = Game.objects.in_bulk({game_id for game_id, _, _ in wanted})
    for (game_id, number, player_id), (points, why) in wanted.items():
        penalty_assign(
            season=season,
            player=players[player_id],
            offence="chombo",
            sanction=Penalty.Sanction.CHOMBO,
            points=points,
            game=games[game_id],
            hand_number=number,
            actor=actor,
            note=f"hand {number}: {why or 'chombo'}",
        )
        changes += 1
    return changes
