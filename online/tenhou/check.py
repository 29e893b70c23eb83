"""Settle an imported game's hands through the riichi engine and compare them with the record."""

from __future__ import annotations

from typing import Any

from scoring.engine.errors import SettlementError
from scoring.engine.replay import hands_replay, state_next
from scoring.engine.riichi import game_end, resolve

from .parse import TenhouGame

WINDS = ("East", "South", "West", "North")


def hand_label(round_: int, honba: int) -> str:
    """ "East 1, 0 honba" (English; pages translate the parts)."""
    return f"{WINDS[round_ // 4 % 4]} {round_ % 4 + 1}, {honba} honba"


PLATFORM_PRESETS = {"tenhou": "tenhou", "mahjongsoul": "mahjongsoul"}  # the rules a record was played under


def record_rules(game: TenhouGame) -> dict:
    """The rule spec the platform played the record under (Tenhou's, or Mahjong Soul's ranked rules)."""
    return {"preset": PLATFORM_PRESETS.get(game.platform, "tenhou")}


def tenhou_options(game: TenhouGame, rules: dict | None = None) -> dict:
    spec = dict(rules or record_rules(game))
    if not game.hanchan:
        spec.setdefault("game_length", "tonpuusen")
    return resolve(spec)


def records_of(game: TenhouGame) -> list[dict]:
    return [h.record() for h in game.hands]


def game_check(game: TenhouGame, rules: dict | None = None, compare_points: bool = True) -> dict:
    """``{"ok", "hands": [{"index", "label", "record", "expected", "engine", "state_expected",
    "state_engine", "ok", "error"}], "final": {...}}``. Settles every hand even after a mismatch,
    so a page can show all of them. ``rules``: a riichi rule spec (default Tenhou's); Tenhou's
    points are compared only when ``compare_points`` (a league's uma is its own)."""
    options = tenhou_options(game, rules)
    rows, ok = [], True
    state, scores = None, list(game.hands[0].start)
    settled_scores, deposits_left = None, 0
    for i, hand in enumerate(game.hands):
        row: dict[str, Any] = {
            "index": i,
            "label": hand_label(hand.round, hand.honba),
            "round": hand.round,
            "honba": hand.honba,
            "record": hand.record(),
            "expected": hand.deltas,
            "engine": None,
            "error": None,
            "state_expected": [hand.round % 4, hand.honba, hand.sticks],
            "state_engine": None,
        }
        try:
            ((record, settlement, after),) = hands_replay(
                "riichi", options, [hand.record()], state=state, scores=scores
            )
        except SettlementError as exc:
            row.update(error=str(exc), ok=False)
            ok = False
            rows.append(row)
            # Carry on from the record's own figures so later hands are still compared.
            state = {"dealer": hand.round % 4, "honba": hand.honba, "deposits": hand.sticks}
            scores = [scores[s] + hand.deltas[s] for s in range(4)]
            continue
        row["record"] = {
            **hand.record(),
            "dealer": record["dealer"],
            "honba": record["honba"],
            "deposits": record["deposits"],
        }
        row["state_engine"] = [record["dealer"], record["honba"], record["deposits"]]
        row["engine"] = settlement["deltas"]
        row["ok"] = row["engine"] == row["expected"] and row["state_engine"] == row["state_expected"]
        ok &= row["ok"]
        rows.append(row)
        state = state_next("riichi", record, settlement)
        scores = after
        settled_scores, deposits_left = after, settlement.get("deposits_after", 0)
    final: dict[str, Any] = {
        "scores_engine": None,
        "scores_expected": game.final_scores,
        "points_engine": None,
        "points_expected": game.final_points,
        "deposits_left": deposits_left,
        "ok": True,
    }
    if settled_scores is not None:
        try:
            end = game_end(options, settled_scores, deposits_left)
        except SettlementError as exc:
            # rules under which this record cannot end (another start total): said, not raised
            final.update(ok=False, error=str(exc))
            return {"ok": False, "hands": rows, "final": final}
        if not game.hanchan and game.final_points is not None and _points(end) != game.final_points:
            # Real east-only records show both +10/+5 and +20/+10 uma; the record says which.
            other = game_end({**options, "game_length": "hanchan"}, settled_scores, deposits_left)
            if _points(other) == game.final_points:
                end, final["uma"] = other, "hanchan"
        raw = list(settled_scores)
        if deposits_left:
            raw[end["places"].index(1)] += 1000 * deposits_left
        final.update(
            scores_engine=raw, scores_settled=list(settled_scores), points_engine=end["points"], places=end["places"]
        )
        if game.final_scores is not None:
            final["ok"] = raw == game.final_scores and (
                not compare_points or game.final_points is None or _points(end) == game.final_points
            )
    ok &= final["ok"]
    return {"ok": bool(ok), "hands": rows, "final": final}


def _points(end: dict) -> list[float]:
    return [round(float(p), 1) for p in end["points"]]
