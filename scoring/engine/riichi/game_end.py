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

Arithmetic is exact (``fractions.Fraction`` over integer points); results are rounded
to one decimal, halves away from zero.

    >>> from scoring.engine.riichi import PRESETS
    >>> game_end(PRESETS["mleague"], [43000, 30800, 16000, 10200])["points"]
    [63.0, 10.8, -24.0, -49.8]
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import SettlementError


def _round1(x: Fraction) -> float:
    tenths = x * 10
    n = abs(tenths)
    r = int(n) + (1 if n - int(n) >= Fraction(1, 2) else 0)
    r = r if tenths >= 0 else -r
    return r / 10 + 0.0  # + 0.0 turns -0.0 into 0.0


def game_end(options: dict, scores, deposits_left: int = 0, *, field: str = "game_end") -> dict:
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
            f"left on the table is {expected}")
    split = options["ties"] == "split"
    adj = [Fraction(s) for s in scores]
    # rank on the raw scores
    order = sorted(range(4), key=lambda i: (-scores[i], i))
    if deposits_left and options["leftover_deposits"] == "first_place":
        top = scores[order[0]]
        firsts = [i for i in range(4) if scores[i] == top] if split else [order[0]]
        for i in firsts:
            adj[i] += Fraction(1000 * deposits_left, len(firsts))
    ret = options["return_points"]
    uma = options["uma"]
    ubf = options.get("uma_by_floaters")
    if ubf:
        floaters = sum(1 for a in adj if a >= ret)
        uma = ubf.get(str(floaters), uma)
    oka = Fraction(options["oka"]).limit_denominator(1000)
    uma = [Fraction(u).limit_denominator(1000) for u in uma]
    bonus = [Fraction(0)] * 4
    places = [0] * 4
    pos = 0
    while pos < 4:
        grp = [order[pos]]
        if split:
            while pos + len(grp) < 4 and scores[order[pos + len(grp)]] == scores[order[pos]]:
                grp.append(order[pos + len(grp)])
        n = len(grp)
        share = sum(uma[pos:pos + n], Fraction(0)) / n
        if pos == 0:
            share += oka / n
        for i in grp:
            bonus[i] = share
            places[i] = pos + 1
        pos += n
    points = [_round1((adj[i] - ret) / 1000 + bonus[i]) for i in range(4)]
    return {"points": points, "places": places,
            "final_scores": [int(a) if a.denominator == 1 else float(a) for a in adj]}


def game_end_record(record: dict, options: dict) -> dict:
    ge = record.get("game_end")
    if not isinstance(ge, dict):
        raise SettlementError("game_end", "must be an object {\"scores\": [4 ints], \"deposits_left\": n}")
    if "scores" not in ge:
        raise SettlementError("game_end.scores", "missing: the 4 seats' final scores")
    out = game_end(options, ge["scores"], ge.get("deposits_left", 0))
    out["system"] = "riichi"
    out["preset"] = options.get("preset")
    out["type"] = "game_end"
    return out
