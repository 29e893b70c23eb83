"""Demo data for the statistics (``manage.py seed_demo``): games played hand by hand with
plausible hands (wins by discard and self-draw, riichi, draws with their ready seats, some wins
entered as tiles so their yaku are named), finished from their hands, through the scorekeeper's
services: their figures follow as every hand's do."""

from __future__ import annotations

import random

from django.core.exceptions import ValidationError

from kyoku.principals import Actor
from league.models import Game
from scoring import services
from scoring.engine import SettlementError

# Complete hands (13 tiles + the winning tile) whose yaku the engine names: closed all simples
# and pinfu, seven pairs, a pure straight, a mixed triple sequence with a dragon pair.
TILE_HANDS = [
    {"concealed": "234m456p678s22p34s", "tile": "5s"},
    {"concealed": "1133m5577p99s112z", "tile": "2z"},
    {"concealed": "123456789m55p99p", "tile": "5p"},
    {"concealed": "123m123p123s55z78m", "tile": "9m"},
    {"concealed": "345m345p345s66m23p", "tile": "4p"},
]


def _record(rng: random.Random) -> dict:
    kind = rng.choices(["ron", "tsumo", "draw"], weights=[5, 3, 2])[0]
    riichi = sorted(rng.sample(range(4), rng.choices([0, 1, 2], weights=[5, 4, 1])[0]))
    winner = rng.randrange(4)
    han = rng.choices([1, 2, 3, 4, 5, 6, 8], weights=[8, 10, 8, 5, 3, 2, 1])[0]
    fu = rng.choice([30, 30, 40, 50]) if han < 5 else None
    w: dict = {"seat": winner, "han": han, **({"fu": fu} if fu else {})}
    if kind != "draw" and rng.random() < 0.3:
        hand = rng.choice(TILE_HANDS)
        w = {"seat": winner, "hand": dict(hand), "flags": {"riichi": winner in riichi}}
    if kind == "ron":
        result: dict = {"type": "ron", "from": (winner + rng.randrange(1, 4)) % 4, "winners": [w]}
    elif kind == "tsumo":
        result = {"type": "tsumo", "winner": w}
    else:
        result = {"type": "draw", "tenpai": sorted(rng.sample(range(4), rng.randrange(5)))}
    return {"riichi": riichi, "result": result} if riichi else {"result": result}


def game_by_hand_play(*, game: Game, rng: random.Random, actor: Actor, hands: int = 10) -> int:
    """Play ``game`` hand by hand (``hands`` hands; a record the rules refuse is drawn again) and
    finish it from its hands. Returns the hands entered."""
    entered = tries = 0
    while entered < hands and tries < hands * 5:
        tries += 1
        try:
            services.hand_record_add(game=game, record=_record(rng), actor=actor)
            entered += 1
        except (ValidationError, SettlementError):
            continue
    services.game_hands_finish(game=game, actor=actor)
    return entered
