"""Signals other apps listen to. Sent after the transaction that made the change commits.

``game_result_changed``: a game's result was stored for the first time (``kind="created"``),
replaced (``"replaced"``, also when a season's results are re-derived) or deleted (``"deleted"``);
arguments ``game_id`` and ``kind``.
"""

from django.dispatch import Signal

game_result_changed = Signal()


def game_result_changed_on_commit(game_id: int, kind: str) -> None:
    from django.db import transaction

    transaction.on_commit(lambda: game_result_changed.send(sender=None, game_id=game_id, kind=kind))
