"""Checks and reads shared by the writes of one game's hands: is the game still writable, is the
hand number a valid one, the game's stored hands in order, was the game finished from them."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from kyoku.rows import instances_where
from league.models import Game, Season

from ..limits import MAX_HANDS, MAX_HONBA
from ..models import HandRecord


def game_check_writable(game: Game) -> None:
    if game.status == Game.Status.VOID:
        raise ValidationError({"game": [ValidationError(_("this game is void"), code="game_void")]})
    if game.season.status == Season.Status.CLOSED:
        raise ValidationError(
            {"game": [ValidationError(_("the season is closed; hands can no longer change"), code="season_closed")]}
        )


def sequence_check(sequence, next_sequence: int) -> int:
    if isinstance(sequence, bool) or not isinstance(sequence, int) or sequence < 1:
        raise ValidationError({"sequence": [ValidationError(_("a hand number 1, 2, 3 ..."), code="sequence_invalid")]})
    if sequence > MAX_HANDS:
        raise ValidationError(
            {
                "sequence": [
                    ValidationError(
                        _("a game has at most %(n)s hands: correct or delete a hand entered by mistake"),
                        code="too_many_hands",
                        params={"n": MAX_HANDS},
                    )
                ]
            }
        )
    if sequence > next_sequence:
        raise ValidationError(
            {
                "sequence": [
                    ValidationError(
                        _("the next hand of this game is %(n)s"), code="sequence_gap", params={"n": next_sequence}
                    )
                ]
            }
        )
    return sequence


def hands_of_game(game: Game) -> list[HandRecord]:
    return instances_where(HandRecord, "game_id", game.pk, order_by="sequence")  # every hand's path: kyoku.rows


def game_closed_by_hands(hands: list[HandRecord]) -> bool:
    return bool(hands) and hands[-1].ends_game


def honba_check(record: dict) -> None:
    """Honba (riichi) and the dealer's streak (Beijing) count hands: never past a game's hands."""
    for key, bound in (("honba", MAX_HONBA), ("dealer_streak", MAX_HANDS)):
        value = record.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > bound:
            raise ValidationError(
                {
                    key: [
                        ValidationError(
                            _("%(value)s is more than a game's hands allow (at most %(n)s)"),
                            code="count_too_large",
                            params={"value": value, "n": bound},
                        )
                    ]
                }
            )
