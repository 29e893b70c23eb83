"""The end of a game played hand by hand: its final scores derived from the last hand, and its
result recorded (or re-recorded after a correction) with the chombo deductions of its hands."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.db import transaction
from django.utils.translation import gettext

from kyoku.principals import Actor
from league.models import Game, GameResult
from league.services import audit_log_write, game_result_record
from league.locks import game_lock
from scoring.engine.replay import deposits_left_of

from ..models import HandRecord
from .checks import game_closed_by_hands, game_check_writable, hands_of_game
from .chombo import chombo_penalties_sync
from .state import Rules


def final_scores(rules: Rules, hands: list[HandRecord]) -> tuple[list[int], int]:
    """(raw final scores, riichi sticks left on the table) after the last hand."""
    last = hands[-1]
    return list(last.scores_after), deposits_left_of(rules.system, last.settlement)


@transaction.atomic
def game_hands_finish(*, game: Game, actor: Actor) -> tuple[GameResult, bool]:
    """End the game at its last hand: derive the final scores and record the result (standings follow)."""
    game = game_lock(game.pk)
    game_check_writable(game)
    rules = Rules(game.season.rule_set)
    hands = hands_of_game(game)
    if not hands:
        raise ValidationError(
            {"hands": [ValidationError(_("no hand has been entered for this game"), code="no_hands")]}
        )
    scores, deposits_left = final_scores(rules, hands)
    existing = GameResult.objects.filter(game=game).first()
    if existing and not game_closed_by_hands(hands):
        _typed_totals_check(existing, scores, deposits_left)
    result, created = result_from_hands(game, rules, hands, actor)
    if not hands[-1].ends_game:
        hands[-1].ends_game = True
        hands[-1].save(update_fields=["ends_game"])
        audit_log_write(
            actor=actor,
            action="game.hands_finish",
            obj=game,
            data={"hands": len(hands), "scores": scores, "deposits_left": deposits_left},
        )
    return result, created


def _typed_totals_check(result: GameResult, scores: list[int], deposits_left: int) -> None:
    if result.scores != scores:
        raise ValidationError(
            {
                "scores": [
                    gettext(
                        "the totals already entered %(scores)s differ from the hands' %(scores2)s; correct the hands or the result"
                    )
                    % {"scores": result.scores, "scores2": scores}
                ]
            }
        )
    if result.deposits_left != deposits_left:
        raise ValidationError(
            {
                "deposits_left": [
                    gettext("%(left)s riichi sticks were entered as left on the table; the hands leave %(left2)s")
                    % {"left": result.deposits_left, "left2": deposits_left}
                ]
            }
        )


def result_from_hands(game: Game, rules: Rules, hands: list[HandRecord], actor: Actor) -> tuple[GameResult, bool]:
    scores, deposits_left = final_scores(rules, hands)
    recorded = game_result_record(
        game=game, scores=scores, deposits_left=deposits_left, actor=actor, replace=game_closed_by_hands(hands)
    )
    chombo_penalties_sync(game, hands, actor)
    return recorded
