"""Checks and reads shared by the writes of one game's hands: is the game still writable, is the
hand number a valid one, the game's stored hands in order, was the game finished from them."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from league.models import Game, Season

from ..models import HandRecord


def _game_check_writable(game: Game) -> None:
    if game.status == Game.Status.VOID:
        raise ValidationError({"game": ["this game is void"]})
    if game.season.status == Season.Status.CLOSED:
        raise ValidationError({"game": ["the season is closed; hands can no longer change"]})


def _sequence_check(sequence, next_sequence: int) -> int:
    if isinstance(sequence, bool) or not isinstance(sequence, int) or sequence < 1:
        raise ValidationError({"sequence": ["a hand number 1, 2, 3 ..."]})
    if sequence > next_sequence:
        raise ValidationError({"sequence": [f"the next hand of this game is {next_sequence}"]})
    return sequence


def _hands(game: Game) -> list[HandRecord]:
    return list(HandRecord.objects.filter(game=game).order_by("sequence"))


def _closed_by_hands(hands: list[HandRecord]) -> bool:
    return bool(hands) and hands[-1].ends_game
