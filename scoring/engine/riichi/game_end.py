"""Final raw scores → league points (start/return points, uma, oka, ties, leftover deposits).

league points = (score − return_points) / 1000 + uma[place] (+ oka to first place).

* ``ties == "split"``: tied players share the uma (and oka) of the places they occupy
  equally and all get the best of those places; ``"seat_order"``: the earlier seat
  (seat 0 = East at the start) ranks higher.
* ``leftover_deposits == "first_place"``: the riichi sticks still on the table are added
  to first place's raw score before anything else (shared equally by players tied for
  first under ``split``); ``"lost"``: they vanish.
* ``uma_by_floaters`` (JPML): the uma list depends on how many players finish at or above
  ``return_points``; ``uma`` is the fallback.

* ``game_length`` / ``uma_tonpuusen``: east-only games may use their own uma.
* ``final_rounding``: final scores rounded to the thousand first (Tenhou: 四捨五入).
* ``remainder_to``: what rounding leaves over goes to one player, so that league points always
  add up to the game's exact total (zero with the usual oka): ``first_place`` or the
  ``nearest_first_dealer`` of the players whose share was rounded.

Arithmetic is exact (integers over a common denominator, see ``_scaled``); each share is
rounded to one decimal, halves away from zero, then the remainder is placed as above.

    >>> from scoring.engine.riichi import PRESETS
    >>> game_end(PRESETS["mleague"], [43000, 30800, 16000, 10200])["points"]
    [63.0, 10.8, -24.0, -49.8]
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Any

from ..errors import SettlementError


@lru_cache(maxsize=256)
def _scaled(uma: tuple[float, ...], oka: float) -> tuple[int, tuple[int, ...], int]:
    """(D, uma × D, oka × D): D is a common denominator in which every league point of a game is a
    whole number (scores ÷ 1000, sticks split 2, 3 or 4 ways, uma shared by up to 4 tied players),
    so the arithmetic below is exact with plain integers. Uma and oka are read as decimals
    (at most 3 places)."""
    fractions = [Fraction(u).limit_denominator(1000) for u in (*uma, oka)]
    d = lcm(12000, *(12 * f.denominator for f in fractions))
    scaled = [int(f * d) for f in fractions]
    return d, tuple(scaled[:-1]), scaled[-1]


def game_end(
    options: dict[str, Any], scores: Any, deposits_left: int = 0, *, field: str = "game_end"
) -> dict[str, Any]:
    _check(options, scores, deposits_left, field)
    split = options["ties"] == "split"
    ret = options["return_points"]
    order = sorted(range(4), key=lambda i: (-scores[i], i))  # rank on the raw scores
    sticks_to = []  # the first place(s) taking the sticks left on the table
    if deposits_left and options["leftover_deposits"] == "first_place":
        top = scores[order[0]]
        sticks_to = [i for i in range(4) if scores[i] == top] if split else [order[0]]
    n_to = len(sticks_to) or 1
    uma: list[float] | tuple[int, ...] = _uma_for_length(options)  # uma as given, then scaled by d
    ubf = options.get("uma_by_floaters")
    if ubf:  # floaters: at or above the return points, sticks included (score·n + sticks·1000 ≥ return·n)
        floaters = sum(
            1 for i in range(4) if scores[i] * n_to + (1000 * deposits_left if i in sticks_to else 0) >= ret * n_to
        )
        uma = ubf.get(str(floaters), uma)
    d, uma, oka = _scaled(tuple(uma), options["oka"])
    # league points × d: (score − return) / 1000, a share of the sticks, uma (and oka) of the place
    exact = [(s - ret) * (d // 1000) for s in scores]
    rounded_scores = [_round_score(s, options["final_rounding"]) for s in scores]
    points = [(s - ret) * (d // 1000) for s in rounded_scores]
    for i in sticks_to:
        share = deposits_left * d // n_to
        exact[i] += share
        points[i] += share
    places = [0] * 4
    pos = 0
    while pos < 4:
        group = [order[pos]]
        if split:
            while pos + len(group) < 4 and scores[order[pos + len(group)]] == scores[order[pos]]:
                group.append(order[pos + len(group)])
        share = (sum(uma[pos : pos + len(group)]) + (oka if pos == 0 else 0)) // len(group)
        for i in group:
            exact[i] += share
            points[i] += share
            places[i] = pos + 1
        pos += len(group)
    final = list(scores)
    for i in sticks_to:
        final[i] = _number(scores[i] + Fraction(1000 * deposits_left, n_to))
    tenths = _tenths_summing_to_total(points, exact, d, order, options["remainder_to"])
    return {"points": [t / 10 + 0.0 for t in tenths], "places": places, "final_scores": final}


def _uma_for_length(options: dict[str, Any]) -> list[float]:
    """The uma of the game's length: east-only games (tonpuusen) may have their own (Tenhou's
    east-only lobbies: +10/+5/−5/−10)."""
    uma: list[float] = (
        options["uma_tonpuusen"]
        if options.get("game_length") == "tonpuusen" and options.get("uma_tonpuusen")
        else options["uma"]
    )
    return uma


def _round_score(score: int, rule: str) -> int:
    """A final score rounded to the thousand: 四捨五入 (500 rounds up) or 五捨六入 (500 rounds
    down, 600 up). A negative score rounds by its size (−1,500 → −2,000 under 四捨五入)."""
    if rule == "none":
        return score
    size, sign = abs(score), (1 if score >= 0 else -1)
    thousands, rest = divmod(size, 1000)
    up = rest >= 500 if rule == "thousand_half_up" else rest >= 600
    return sign * 1000 * (thousands + up)


def _tenths_summing_to_total(
    points: list[int], exact: list[int], d: int, order: list[int], remainder_to: str
) -> list[int]:
    """Each player's league points in tenths, so that they add up to the exact total of the game
    (zero when oka balances the return and the sticks go to first place).

    Tied players sharing uma and oka, and rounded final scores, leave a remainder (M.League
    30,000 / 30,000 / 30,000 / 10,000: 50 / 3 each, +16.7 × 3 − 50.0 = +0.1). It goes to
    ``first_place`` (minus the sum of the others, Tenhou) or, under ``nearest_first_dealer``, to the
    players whose own share was rounded so that the larger shares fall to the seats nearest the
    first dealer (seat 0): "3名が同点だった場合の端数は起家に近い方が大きいポイントを取得する" —
    16.7 / 16.7 / 16.6 in seat order."""
    tenths = [_round_tenths(p, d) for p in points]
    total = _round_tenths(sum(exact), d)
    remainder = total - sum(tenths)
    if not remainder:
        return tenths
    if remainder_to == "first_place":
        tenths[order[0]] += remainder
        return tenths
    return _remainder_by_seat(tenths, remainder, points, exact, d, order)


def _remainder_by_seat(
    tenths: list[int], remainder: int, points: list[int], exact: list[int], d: int, order: list[int]
) -> list[int]:
    """The ``nearest_first_dealer`` clause: of the players whose share was rounded, the one nearest
    the first dealer takes what is over, and the one farthest from the first dealer gives what is
    short, so that the nearer never ends with less than the farther who had the same share."""
    inexact = [i for i in range(4) if points[i] != exact[i] or (points[i] * 10) % d]
    if not inexact:
        taker = order[0]
    else:
        taker = min(inexact) if remainder > 0 else max(inexact)
    tenths[taker] += remainder
    return tenths


def _round_tenths(numerator: int, d: int) -> int:
    """numerator / d in tenths, halves away from zero."""
    tenths = (abs(numerator) * 20 + d) // (2 * d)
    return tenths if numerator >= 0 else -tenths


def _number(f: Fraction) -> int | float:
    return int(f) if f.denominator == 1 else float(f)


def _check(options: dict[str, Any], scores: Any, deposits_left: Any, field: str) -> None:
    if not isinstance(scores, (list, tuple)) or len(scores) != 4:
        raise SettlementError(f"{field}.scores", f"must be a list of the 4 seats' final scores, got {scores!r}")
    for i, s in enumerate(scores):
        if type(s) is not int:
            raise SettlementError(f"{field}.scores[{i}]", f"must be an integer, got {s!r}")
    if type(deposits_left) is not int or deposits_left < 0:
        raise SettlementError(f"{field}.deposits_left", f"must be a non-negative integer, got {deposits_left!r}")
    start = options["start_points"]
    expected = 4 * start - 1000 * deposits_left
    if sum(scores) != expected:
        raise SettlementError(
            f"{field}.scores",
            f"add up to {sum(scores)}, but 4 × {start} start points less {deposits_left} riichi stick(s) "
            f"left on the table is {expected}",
        )


def game_end_record(record: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    ge = record.get("game_end")
    if not isinstance(ge, dict):
        raise SettlementError("game_end", 'must be an object {"scores": [4 ints], "deposits_left": n}')
    if "scores" not in ge:
        raise SettlementError("game_end.scores", "missing: the 4 seats' final scores")
    out = game_end(options, ge["scores"], ge.get("deposits_left", 0))
    out["system"] = "riichi"
    out["preset"] = options.get("preset")
    out["type"] = "game_end"
    return out
