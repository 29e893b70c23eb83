"""Signals other apps listen to. Sent after the transaction that made the change commits.

``game_result_changed``: a game's result was stored for the first time (``kind="created"``),
replaced (``"replaced"``, also when a season's results are re-derived) or deleted (``"deleted"``);
arguments ``game_id``, ``kind`` and ``league_id`` (None when the sender did not read it).

``games_results_changed``: many results of one season changed at once (a rules revision or a
re-settle re-derived them); arguments ``season_id``, ``game_ids`` and ``kind``. One signal, so a
listener can do its work once for the batch rather than once per game.
"""

from django.dispatch import Signal

game_result_changed = Signal()
games_results_changed = Signal()
# Sent INSIDE the transaction of the change, for derived data that must commit with it (the
# statistics, stats.receivers): a game's hands or result changed (``game_id``); a season's hands
# or results were re-derived in bulk (``season_id``).
game_facts_changed = Signal()
season_facts_changed = Signal()
# Sent INSIDE the transaction of a merge of two players (league.services.merge), once the dropped
# player's derived rows are deleted and their facts belong to the kept player: each app rebuilds
# its figures of the leagues concerned (``league_ids``) as ``actor`` (stats.receivers,
# ratings.receivers), so the merge commits with figures equal to a full recompute.
players_merged = Signal()


def game_facts_changed_now(game_id: int) -> None:
    game_facts_changed.send(sender=None, game_id=game_id)


def season_facts_changed_now(season_id: int) -> None:
    season_facts_changed.send(sender=None, season_id=season_id)


def game_result_changed_on_commit(game_id: int, kind: str, league_id: int | None = None) -> None:
    """``league_id``, when the sender has it at hand: a listener need not look the game up."""
    from django.db import transaction

    transaction.on_commit(
        lambda: game_result_changed.send(sender=None, game_id=game_id, kind=kind, league_id=league_id)
    )


def games_results_changed_on_commit(season_id: int, game_ids: list[int], kind: str) -> None:
    from django.db import transaction

    transaction.on_commit(
        lambda: games_results_changed.send(sender=None, season_id=season_id, game_ids=list(game_ids), kind=kind)
    )
