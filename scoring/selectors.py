"""Reads for the scoring pages and API: a game's hands and position, and the rules tables."""

from __future__ import annotations


from league.models import Game, GameSeat

from .engine.replay import deposits_left_of
from .models import HandRecord
from .services import Rules, position_after

SYSTEM_PRESETS = {"riichi": ("wrc", "ema", "mleague", "tenhou", "mahjongsoul", "jpml")}


def game_hands(*, game: Game):
    return HandRecord.objects.filter(game=game).order_by("sequence")


def game_position(*, game: Game, hands: list[HandRecord] | None = None) -> dict:
    """Where the game stands: the next hand's number and derived state, the running scores."""
    rules = Rules(game.season.rule_set)
    hands = list(game_hands(game=game)) if hands is None else hands
    state, scores = position_after(rules, hands[-1] if hands else None)
    return {
        "system": rules.system,
        "next_sequence": len(hands) + 1,
        "state": state,
        "scores": scores,
        "deposits": deposits_left_of(rules.system, hands[-1].settlement) if hands else 0,
        "finished_from_hands": bool(hands) and hands[-1].ends_game,
    }


def game_seats(*, game: Game) -> list[GameSeat]:
    return list(game.seats.select_related("player").order_by("seat"))


# ---------------------------------------------------------------- rules tables (from engine data)


def zung_jung_table() -> list[dict]:
    from scoring.option_words import zung_jung_rows

    return zung_jung_rows()


def beijing_factors() -> list[dict]:
    """The Beijing factor table in the reader's language (``scoring.option_words``)."""
    from scoring.option_words import beijing_factor_rows

    return beijing_factor_rows()


def riichi_presets() -> dict:
    """``{"presets": [names], "sources": {name: text}, "options": [row]}``; a row is an option's
    label and meaning in the reader's language and, per preset, the value in words with its
    source (``scoring.option_words``)."""
    from django.utils.translation import gettext

    from scoring.engine.riichi import PRESET_SOURCES, PRESETS
    from scoring.option_words import riichi_option_rows

    names = [n for n in SYSTEM_PRESETS["riichi"] if n in PRESETS] + sorted(set(PRESETS) - set(SYSTEM_PRESETS["riichi"]))
    # sources are marked for the catalogue in the engine (presets.gettext_noop) and translated here
    sources = {n: gettext(PRESET_SOURCES[n]) if PRESET_SOURCES.get(n) else "" for n in names}
    return {"presets": names, "sources": sources, "options": riichi_option_rows(names)}


def system_options(system: str) -> list[tuple[str, str, str]]:
    """(option in words, meaning, preset value in words) for the single-preset systems."""
    from importlib import import_module

    from scoring.engine import SYSTEMS
    from scoring.option_words import SYSTEM_OPTIONS, value_words

    module = import_module(SYSTEMS[system])
    preset = next(iter(module.PRESETS.values()))
    # label and meaning in the reader's language; the engine's English text where none is written
    return [
        (
            str(SYSTEM_OPTIONS[option][0]) if option in SYSTEM_OPTIONS else option.replace("_", " ").capitalize(),
            str(SYSTEM_OPTIONS[option][1]) if option in SYSTEM_OPTIONS else doc,
            value_words(option, preset.get(option)),
        )
        for option, doc in module.OPTION_DOCS.items()
    ]


def rule_set_words(rule_set) -> list[dict]:
    """The options in force, each as its label, meaning and value in words."""
    from scoring.option_words import option_label, option_meaning, value_words

    return [
        {"option": k, "label": option_label(k), "meaning": option_meaning(k), "words": value_words(k, v)}
        for k, v in sorted(rule_set.options.items())
    ]


def overrides_words(overrides: dict) -> list[tuple[str, str]]:
    from scoring.option_words import option_label, value_words

    return [(option_label(k), value_words(k, v)) for k, v in (overrides or {}).items()]


def season_rules_preview(*, season, overrides: dict) -> dict:
    """What a revision to ``overrides`` would change, before it is saved: each option that changes
    (before → after, in words) and how many hands would be settled again and results re-scored."""
    from league.models import GameResult
    from scoring.engine import hands_affected
    from scoring.models import HandRecord
    from scoring.option_words import option_label, value_words

    from scoring.engine import resolve_rules

    rule_set = season.rule_set
    before = rule_set.spec
    after = {"preset": rule_set.preset, **overrides}
    _, old = resolve_rules(before)
    _, new = resolve_rules(after)  # SettlementError (naming the option) when a value is refused
    changes = [
        {"label": option_label(k), "before": value_words(k, old.get(k)), "after": value_words(k, new.get(k))}
        for k in sorted(set(old) | set(new))
        if old.get(k) != new.get(k) and k != "preset"
    ]
    resettle = bool(changes) and hands_affected(before, after)
    return {
        "changes": changes,
        "hands": HandRecord.objects.filter(game__season=season).count() if resettle else 0,
        "results": GameResult.objects.filter(game__season=season).count() if changes else 0,
        "hands_resettled": resettle,
    }
