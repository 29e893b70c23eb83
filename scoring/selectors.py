"""Reads for the scoring pages and API: a game's hands and position, and the rules tables."""

from __future__ import annotations

import json

from league.models import Game, GameSeat

from .models import HandRecord
from .services import Rules, _position, deposits_left_of

SYSTEM_PRESETS = {"riichi": ("wrc", "ema", "mleague", "tenhou", "jpml")}


def game_hands(*, game: Game):
    return HandRecord.objects.filter(game=game).order_by("sequence")


def game_position(*, game: Game, hands: list[HandRecord] | None = None) -> dict:
    """Where the game stands: the next hand's number and derived state, the running scores."""
    rules = Rules(game.season.rule_set)
    hands = list(game_hands(game=game)) if hands is None else hands
    state, scores = _position(rules, hands[-1] if hands else None)
    return {
        "system": rules.system, "next_sequence": len(hands) + 1, "state": state, "scores": scores,
        "deposits": deposits_left_of(rules.system, hands[-1].settlement) if hands else 0,
        "finished_from_hands": bool(hands) and hands[-1].ends_game,
    }


def game_seats(*, game: Game) -> list[GameSeat]:
    return list(game.seats.select_related("player").order_by("seat"))


# ---------------------------------------------------------------- rules tables (from engine data)


def zung_jung_table() -> list[dict]:
    from scoring.engine.zung_jung import CHICKEN, PATTERNS

    return [CHICKEN, *PATTERNS]


def beijing_factors() -> list[dict]:
    from scoring.engine.beijing import FACTORS

    return FACTORS


def riichi_presets() -> dict:
    """``{"options": [(name, doc, [value per preset])], "presets": [names]}``."""
    from scoring.engine.riichi import OPTION_DOCS, PRESETS

    names = [n for n in SYSTEM_PRESETS["riichi"] if n in PRESETS] + sorted(set(PRESETS) - set(SYSTEM_PRESETS["riichi"]))
    rows = [(option, doc, [_shown(PRESETS[n].get(option)) for n in names]) for option, doc in OPTION_DOCS.items()]
    return {"presets": names, "options": rows}


def system_options(system: str) -> list[tuple[str, str, object]]:
    """(option, doc, preset value) for the single-preset systems."""
    from importlib import import_module

    from scoring.engine import SYSTEMS

    module = import_module(SYSTEMS[system])
    preset = next(iter(module.PRESETS.values()))
    return [(option, doc, _shown(preset.get(option))) for option, doc in module.OPTION_DOCS.items()]


def _shown(value) -> str:
    """An option value as JSON text (true, [15, 5, -5, -15], {"mode": "deduction"})."""
    return json.dumps(value, ensure_ascii=False)
