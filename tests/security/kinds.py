"""The objects a declared route's ``obj`` names, built in the matrix world (tests/security/world.py):
kind → the URL arguments that point at it, under every name a URL gives them (``pk`` in the API,
``game_id`` on pages …); the probe passes those its pattern takes. A "?" entry is a query string
the probe adds."""

from __future__ import annotations


def matrix_objects(world) -> dict:
    game = world.hand_game.pk  # a game kept hand by hand, its first hand entered
    return {
        "game": {"pk": game, "game_id": game},
        "hand": {"pk": game, "game_id": game, "sequence": world.hand.sequence, "hand_id": world.hand.pk},
        "season": {"pk": world.season.pk, "season_id": world.season.pk},
    }
