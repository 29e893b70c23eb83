"""Achievements: milestones read off a player's figures in a scope, each with its rule in words.

Nothing is stored for them: each is a test on the counts the statistics already keep (the
``counts`` of ``selectors.player_figures``), so it follows every hand, correction and deletion as
the figures do, and a full recompute gives the same. Each has a measure (a count, or a rate over
a minimum of hands or games) and a target. One the stored records cannot decide is not shown as
missed but as not countable, with the reason (docs/statistics.md, "Achievements"): a milestone
of hands when no hand of the scope was recorded hand by hand, a riichi one under another system.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

ALL_SYSTEMS = ("riichi", "zung-jung", "beijing")


@dataclass(frozen=True)
class Achievement:
    key: str
    name: Promise
    rule: Promise  # the rule in words, as the page shows it
    measure: Callable[[dict[str, Any]], float]  # what is counted, from the scope's counts
    target: float
    base: str  # the count the measure needs records of: "hands" or "games"
    at_most: bool = False  # reached at or below the target (a rate), not at or above
    minimum: int = 0  # of ``base``, before an at-most rate counts at all
    systems: tuple[str, ...] = ALL_SYSTEMS
    measure_name: Promise | None = None  # what an at-most measure is, shown with its value
    percent: bool = False  # the measure is a rate, shown as a percentage


def _count(field: str) -> Callable[[dict[str, Any]], float]:
    return lambda counts: counts.get(field) or 0


def _deal_in_rate(counts: dict[str, Any]) -> float:
    return (counts.get("deal_ins") or 0) / counts["hands"] if counts.get("hands") else 1.0


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("first_top", _("First top"), _("Finish a game in first place."), _count("place_1"), 1, "games"),
    Achievement("tops_10", _("Ten tops"), _("Finish first in 10 games."), _count("place_1"), 10, "games"),
    Achievement("games_50", _("Regular"), _("Finish 50 games."), _count("games"), 50, "games"),
    Achievement("games_200", _("Veteran"), _("Finish 200 games."), _count("games"), 200, "games"),
    Achievement(
        "top_streak_3",
        _("Three in a row"),
        _("Finish first in three games in a row, in the league's order of games."),
        _count("first_streak"),
        3,
        "games",
    ),
    Achievement(
        "never_last",
        _("Never last"),
        _("Finish 20 games or more without a fourth place."),
        lambda counts: counts.get("place_4") or 0,
        0,
        "games",
        at_most=True,
        minimum=20,
        measure_name=_("fourth places"),
    ),
    Achievement("first_win", _("First win"), _("Win a hand."), _count("wins"), 1, "hands"),
    Achievement("wins_100", _("A hundred wins"), _("Win 100 hands."), _count("wins"), 100, "hands"),
    Achievement(
        "big_day", _("Big day"), _("Win 5 hands or more on one match day."), _count("best_day_wins"), 5, "hands"
    ),
    Achievement(
        "iron_wall",
        _("Iron wall"),
        _("Deal in on no more than one hand in ten, over 200 hands or more."),
        _deal_in_rate,
        0.10,
        "hands",
        at_most=True,
        minimum=200,
        measure_name=_("deal-in rate"),
        percent=True,
    ),
    Achievement(
        "riichi_100",
        _("Riichi ×100"),
        _("Declare riichi 100 times."),
        _count("riichi"),
        100,
        "hands",
        systems=("riichi",),
    ),
    Achievement("yakuman", _("Yakuman"), _("Win a yakuman."), _count("yakuman_wins"), 1, "hands", systems=("riichi",)),
)

NO_HANDS = _("no hand of these games was recorded hand by hand")
NOT_THIS_SYSTEM = _("not a milestone of this rule system")


def achievement_reached(a: Achievement, value: float, counts: dict[str, Any]) -> bool:
    """Whether ``value`` (the achievement's measure of ``counts``) reaches its target."""
    if a.at_most:
        return (counts.get(a.base) or 0) >= a.minimum and value <= a.target
    return value >= a.target


def achievements_of(counts: dict[str, Any], system: str) -> list[dict[str, Any]]:
    """Every achievement of ``system``'s player figures ``counts``: ``key``, ``name``, ``rule``,
    ``reached``, ``value`` (the measure now), ``target``, ``minimum`` and ``base`` (for a rate:
    how many hands or games it needs first), and ``absent_because`` (None, or why the records
    cannot decide it)."""
    out = []
    for a in ACHIEVEMENTS:
        why = None
        if system not in a.systems:
            why = NOT_THIS_SYSTEM
        elif a.base == "hands" and not counts.get("hands"):
            why = NO_HANDS
        value = a.measure(counts) if why is None else None
        reached = value is not None and achievement_reached(a, value, counts)
        out.append(
            {
                "key": a.key,
                "name": a.name,
                "rule": a.rule,
                "reached": reached,
                "value": round(value, 4) if isinstance(value, float) else value,
                "target": a.target,
                "at_most": a.at_most,
                "measure_name": a.measure_name,
                "percent": a.percent,
                "minimum": a.minimum,
                "base": a.base,
                "base_count": counts.get(a.base) or 0,
                "absent_because": why,
            }
        )
    return out
