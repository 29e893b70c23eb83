"""Demo data for hand-by-hand entry (``manage.py seed_demo``): one scheduled game of the open
season played hand by hand through the scorekeeper's services and finished from its hands, so
the game page explains real hands (value, winners, who paid whom) and the scorekeeper has a
finished game to correct."""

from __future__ import annotations

from kyoku.principals import Actor
from league.models import Game, Season

from . import services

# A short game: draws with riichi sticks, ron and tsumo wins, a mangan by kiriage under WRC rules.
DEMO_HANDS = [
    {"riichi": [1], "result": {"type": "draw", "tenpai": [0, 1]}},
    {"result": {"type": "ron", "from": 2, "winners": [{"seat": 3, "han": 3, "fu": 30}]}},
    {"riichi": [1], "result": {"type": "tsumo", "winner": {"seat": 1, "han": 2, "fu": 40}}},
    {"result": {"type": "tsumo", "winner": {"seat": 2, "han": 1, "fu": 30}}},
    {"riichi": [3], "result": {"type": "draw", "tenpai": [3]}},
    {"result": {"type": "ron", "from": 0, "winners": [{"seat": 2, "han": 4, "fu": 30}]}},
    {"riichi": [0], "result": {"type": "ron", "from": 1, "winners": [{"seat": 0, "han": 5}]}},
    {"result": {"type": "tsumo", "winner": {"seat": 3, "han": 2, "fu": 30}}},
]


def hand_by_hand_game_seed(*, season: Season, actor: Actor) -> Game | None:
    """Play the first scheduled game of ``season`` hand by hand and finish it from its hands."""
    game = (
        Game.objects.filter(season=season, status=Game.Status.SCHEDULED)
        .order_by("division__order", "match_day", "table")
        .first()
    )
    if game is None:
        return None
    for record in DEMO_HANDS:
        services.hand_record_add(game=game, record=record, actor=actor)
    services.game_hands_finish(game=game, actor=actor)
    return game
