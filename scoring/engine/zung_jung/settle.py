"""Zung Jung settlement: payoff schemes and the same-turn immunity rule (zung-jung.md §1.5–1.7).

Each payment line is ``{"from", "to", "points", "why", "reason"}``: ``why`` in English (the audit
trail), ``reason`` for machines::

    {"code": "band", "cause": "self_draw" | "uniform" | "discard" | "first_discard" | "own_earlier"
                              | "earlier_discard",
     "seat": responsible seat (discard causes), "value": the hand's value,
     "band": [from, to], "split": "shared" | "below_par" | "above_par"}
"""

from __future__ import annotations

from typing import Any, cast

from ..errors import SettlementError
from ..tiles import parse_tile, tile_name
from . import hand as H
from .options import effective_par
from .patterns import table
from .record_keys import check_record

SYSTEM = "zung-jung"
_TYPE_ALIASES = {
    "self_draw": "self_draw",
    "tsumo": "self_draw",
    "discard": "discard",
    "ron": "discard",
    "draw": "draw",
    "exhaustive_draw": "draw",
}


# ------------------------------------------------------------------------------------- helpers


def _seat(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise SettlementError(field, f"expected a seat 0..3, got {value!r}")
    return value


def check_value(value: object, options: dict[str, Any], field: str, allow_zero: bool = False) -> int:
    """A hand value must be a possible Zung Jung value: 1..limit, or a listed limit value."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettlementError(field, f"expected an integer number of points, got {value!r}")
    low = 0 if allow_zero else 1
    if value < low:
        raise SettlementError(field, f"must be at least {low}, got {value}")
    limit = options["limit"]
    if value > limit:
        rows, _ = table(options)
        listed = sorted({r["value"] for r in rows.values() if r["value"] >= limit})
        if value not in listed:
            raise SettlementError(
                field,
                f"{value} is above the limit {limit} and is not a listed limit " f"({', '.join(map(str, listed))})",
            )
    return value


def settle_band(
    a: int,
    b: int,
    r: int | None,
    winner: int,
    pay: dict[int, int],
    par: int,
) -> list[tuple[int, int, str]]:
    """Settle the band (a, b] of the value with responsible seat ``r`` (``r == winner``: a SELF band).

    Adds to ``pay`` (opponent -> points) and returns explanation lines ``(seat, points, what)``.
    """
    lines: list[tuple[int, int, str]] = []
    opponents = [s for s in range(4) if s != winner]
    if r is None or r == winner:
        for o in opponents:
            pay[o] += b - a
            lines.append((o, b - a, f"band {a}→{b} shared equally"))
        return lines
    lo = min(b, par)
    if lo > a:
        for o in opponents:
            pay[o] += lo - a
            lines.append((o, lo - a, f"band {a}→{lo} at or below par {par}, shared"))
    hi_start = max(a, par)
    if b > hi_start:
        pay[r] += 3 * (b - hi_start)
        lines.append((r, 3 * (b - hi_start), f"band {hi_start}→{b} above par paid three times (3 × {b - hi_start})"))
    return lines


# ------------------------------------------------------------------------------------- settle


def settle(record: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    check_record(record)  # the declared keys only (record_keys.py), counts in range
    if not isinstance(record, dict):
        raise SettlementError("", "a hand record must be a JSON object")
    result = record.get("result")
    if not isinstance(result, dict):
        raise SettlementError("result", "missing: an object with 'type' (self_draw, discard or draw)")
    raw_type = result.get("type")
    rtype = _TYPE_ALIASES.get(raw_type) if isinstance(raw_type, str) else None
    if rtype is None:
        raise SettlementError("result.type", f"expected self_draw, discard or draw, got {result.get('type')!r}")
    out: dict[str, Any] = {"system": SYSTEM, "deltas": [0, 0, 0, 0], "payments": [], "penalties": []}
    if rtype == "draw":
        out.update(value=None, liable=None, bands=[])
        return out

    winner = _seat(result.get("winner"), "result.winner")
    self_draw = rtype == "self_draw"
    discarder = None
    if not self_draw:
        if "from" not in result:
            raise SettlementError(
                "result.from", "missing: the seat that discarded the winning tile", "discarder_missing"
            )
        discarder = _seat(result["from"], "result.from")
        if discarder == winner:
            raise SettlementError("result.from", "the discarder cannot be the winner")

    hand_in = result.get("hand")
    hand = None
    win_tile = None
    if result.get("tile") is not None:
        win_tile = parse_tile(result["tile"], "result.tile")
    if hand_in is not None:
        hand = H.parse_hand(hand_in, "result.hand", need_tile=win_tile is None)
        if hand.tile is not None and win_tile is not None and hand.tile != win_tile:
            raise SettlementError("result.hand.tile", "differs from result.tile")
        win_tile = hand.tile if hand.tile is not None else win_tile
        if win_tile is None:  # parse_hand asked for the tile when result.tile was not given
            raise SettlementError("result.hand.tile", "missing: the winning tile")
        hand = H.Hand(hand.concealed, hand.melds, win_tile)
        if H.copies_held(hand, win_tile) >= 4:
            raise SettlementError("result.tile", f"a fifth {tile_name(win_tile)}")

    seat_wind = _seat_wind(record, result, winner)
    flags = {}
    if isinstance(hand_in, dict):
        flags.update(H.parse_flags(hand_in, "result.hand"))
    for k, v in H.parse_flags(result, "result").items():
        flags[k] = flags.get(k, False) or v

    evaluation = None
    if hand is not None:
        H.check_flags(flags, self_draw, hand, "result")
        assert win_tile is not None  # a parsed hand always has its winning tile (above)
        ev = H.evaluate(hand, win_tile, self_draw=self_draw, seat_wind=seat_wind, flags=flags, options=options)
        if ev is None:
            raise SettlementError("result.hand", f"not a complete hand with {tile_name(win_tile)}")
        evaluation = H.public_result(ev)
        value = ev["value"]
        if result.get("value") is not None:
            given = check_value(result["value"], options, "result.value")
            if given != value:
                raise SettlementError("result.value", f"{given} does not match the hand's value {value}")
    else:
        if result.get("value") is None:
            raise SettlementError("result.value", "missing: give the hand's value or the tiles in 'hand'")
        value = check_value(result["value"], options, "result.value")
    if value < options["min_points"]:
        raise SettlementError(
            "result.value" if hand is None else "result.hand",
            f"{value} is below the minimum of {options['min_points']} points: a false win",
            "points_below_minimum",
            {"value": value, "n": options["min_points"]},
        )

    pay = {s: 0 for s in range(4) if s != winner}
    lines = []
    bands = []
    liable = None
    par = effective_par(options)
    earlier_out = []

    def add_band(a: int, b: int, r: int | None, why: str, cause: str) -> None:
        nonlocal lines
        kind = "self" if (r is None or r == winner) else "liable"
        bands.append({"from": a, "to": b, "seat": None if kind == "self" else r, "kind": kind, "why": why})
        # reasons in settle_band's order: a SELF band shared; else the part up to par shared by the
        # three opponents (when there is one), then the part above par from the responsible seat
        lo, hi = min(b, par), max(a, par)
        n_below = 0 if kind == "self" else (3 if lo > a else 0)
        base = {"code": "band", "cause": cause, "value": value}
        if cause in ("discard", "earlier_discard", "first_discard"):
            base["seat"] = r
        for i, (seat, pts, what) in enumerate(settle_band(a, b, r, winner, pay, par)):
            if kind == "self":
                reason = {**base, "split": "shared", "band": [a, b]}
            elif i < n_below:
                reason = {**base, "split": "below_par", "band": [a, lo]}
            else:
                reason = {**base, "split": "above_par", "band": [hi, b]}
            lines.append({"from": seat, "to": winner, "points": pts, "why": f"{why}: {what}", "reason": reason})

    if self_draw:
        add_band(0, value, winner, f"self-draw, value {value}", "self_draw")
    elif options["scheme"] == "uniform":
        add_band(0, value, winner, f"uniform payoff scheme, value {value}", "uniform")
        liable = discarder
    else:
        earlier = _parse_earlier(result.get("earlier"), winner, options)
        mode = options["liability"]
        if earlier and mode != "none" and win_tile is None:
            raise SettlementError("result.tile", "missing: needed to match the earlier discards")
        if mode == "none" or not earlier:
            liable = discarder
            add_band(0, value, discarder, f"discard by seat {discarder}, value {value}", "discard")
            earlier_out = [dict(e["out"], used=False) for e in earlier]
        elif mode == "ordinary":
            first = next((e for e in earlier if e["tile"] == win_tile), None)
            for e in earlier:
                earlier_out.append(dict(e["out"], used=e is first))
            if first is None:
                liable = discarder
                add_band(0, value, discarder, f"discard by seat {discarder}, value {value}", "discard")
            elif first["seat"] == winner:
                assert win_tile is not None  # first is an earlier discard of the winning tile
                add_band(
                    0,
                    value,
                    winner,
                    f"winner's own earlier {tile_name(win_tile)}: settled as a self-draw, " f"value {value}",
                    "own_earlier",
                )
            else:
                assert win_tile is not None  # first is an earlier discard of the winning tile
                liable = first["seat"]
                add_band(
                    0,
                    value,
                    liable,
                    f"seat {liable} discarded {tile_name(win_tile)} first " f"(same-turn immunity), value {value}",
                    "first_discard",
                )
        else:
            multi = mode == "precise_multiwait"
            wait_set = set(H.waits(hand, options)) if (multi and hand is not None) else None
            covered = 0
            for idx, e in enumerate(earlier):
                relevant = (e["tile"] in wait_set if wait_set is not None else True) if multi else e["tile"] == win_tile
                eo = dict(e["out"], used=False)
                earlier_out.append(eo)
                if not relevant:
                    eo["ignored"] = "not a tile the winner waits on" if multi else "not the winning tile"
                    continue
                h = e["value"]
                if h is None:
                    if hand is None:
                        raise SettlementError(
                            f"result.earlier[{idx}].value",
                            "missing: give the value of winning on this tile, or the tiles in result.hand",
                        )
                    h, ev_e = _hypothetical(hand, e, winner, seat_wind, options, idx)
                    eo["value"] = h
                    eo["patterns"] = ev_e["patterns"] if ev_e else []
                if h < options["min_points"]:
                    h = 0  # he could not have won on it: liable for nothing
                cap = min(h, value)
                if cap > covered:
                    eo["used"] = True
                    if e["seat"] == winner:
                        why = f"winner's own earlier {tile_name(e['tile'])} (declined self-draw worth {h})"
                    else:
                        why = f"seat {e['seat']}'s earlier {tile_name(e['tile'])} (worth {h})"
                    add_band(covered, cap, e["seat"], why, "own_earlier" if e["seat"] == winner else "earlier_discard")
                    covered = cap
            if value > covered:
                liable = discarder
                add_band(covered, value, discarder, f"discard by seat {discarder}, value {value}", "discard")

    total = sum(pay.values())
    assert total == 3 * value, (total, value)
    deltas = [0, 0, 0, 0]
    for s, p in pay.items():
        deltas[s] = -p
    deltas[winner] = total
    out["deltas"] = deltas
    out["payments"] = lines
    out["value"] = value
    out["liable"] = liable
    out["bands"] = bands
    if earlier_out:
        out["earlier"] = earlier_out
    if evaluation is not None:
        out["patterns"] = evaluation["patterns"]
        out["hand"] = evaluation
    return out


def _seat_wind(record: dict[str, Any], result: dict[str, Any], winner: int) -> int:
    src = cast(dict[str, Any], result.get("hand") if isinstance(result.get("hand"), dict) else {})
    if result.get("seat_wind") is not None:
        return H.parse_seat_wind(result["seat_wind"], "result.seat_wind")
    if src.get("seat_wind") is not None:
        return H.parse_seat_wind(src["seat_wind"], "result.hand.seat_wind")
    dealer: object = record.get("dealer", 0)
    dealer = _seat(dealer, "dealer")
    return 27 + (winner - dealer) % 4


def _parse_earlier(raw: Any, winner: int, options: dict[str, Any]) -> list[dict[str, Any]]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise SettlementError("result.earlier", "expected a list of {seat, tile, value}")
    out = []
    for i, e in enumerate(raw):
        f = f"result.earlier[{i}]"
        if not isinstance(e, dict):
            raise SettlementError(f, 'expected {"seat": ..., "tile": ..., "value": ...}')
        seat = _seat(e.get("seat"), f"{f}.seat")
        if seat == winner and i != 0:
            raise SettlementError(
                f"{f}.seat", "the winner's own discard opens the window: it can only be the first " "earlier discard"
            )
        if e.get("tile") is None:
            raise SettlementError(f"{f}.tile", "missing: the tile discarded")
        tile = parse_tile(e["tile"], f"{f}.tile")
        value = None
        if e.get("value") is not None:
            value = check_value(e["value"], options, f"{f}.value", allow_zero=True)
        flags = H.parse_flags(e, f)
        if flags.get("final_tile"):
            raise SettlementError(f"{f}.final_tile", "an earlier discard is never the final tile")
        item = {"seat": seat, "tile": tile, "value": value, "flags": flags}
        item["out"] = {"seat": seat, "tile": tile_name(tile), "value": value}
        out.append(item)
    return out


def _hypothetical(
    hand: H.Hand, e: dict[str, Any], winner: int, seat_wind: int, options: dict[str, Any], idx: int
) -> tuple[int, dict[str, Any] | None]:
    """Value of winning on an earlier tile (§1.7 step 2; A6, A7)."""
    own = e["seat"] == winner
    f = f"result.earlier[{idx}]"
    if H.copies_held(hand, e["tile"]) >= 4:
        return 0, None
    H.check_flags(e["flags"], own, hand, f)
    ev = H.evaluate(
        hand,
        e["tile"],
        self_draw=own,
        seat_wind=seat_wind,
        flags=e["flags"],
        options=options,
        nine_gates_allowed=options["declined_nine_gates"] if own else True,
    )
    if ev is None:
        return 0, None
    return ev["value"], ev
