"""Settle one riichi hand record (``shared/spec/settlement-contract.md``).

Output::

    {"system": "riichi", "preset": name, "type": result type,
     "deltas": [4 ints], "payments": [{"from", "to", "points", "why", "reason"}],
     "penalties": [{"seat", "points", "why", "reason"}],
     "deposits_after": n, "dealer_repeats": bool, "honba_next": n,
     "winners": [{"seat", "han", "fu", "yakuman", "base", "limit", "value", "yaku"?, "pao"?}],
     "bumped": [seats head-bumped]  (ron only, when any)}

``why`` is an English text (kept for the audit trail); ``reason`` says the same for machines
(pages translate it), one of::

    {"code": "win", "how": "ron"|"tsumo", "han": n, "fu": n, "limit": code, "share": code}
        han/fu when the hand was priced by them (fu absent above 4 han without fu); a yakuman
        hand has "yakuman": k (k-fold) and "limit": "yakuman" instead; "limit" (absent below
        mangan) is mangan, haneman, baiman, sanbaiman, kazoe_yakuman or yakuman; "share" only
        under pao: liable_half, discarder_half (ron), liable_all, liable_yakuman (tsumo),
        not_liable (the yakuman of the hand not under pao)
    {"code": "honba", "count": n}        (+ "share": "liable_all" when the liable player pays them)
    {"code": "riichi_deposit"}           a riichi stick put on the table
    {"code": "deposits"}                 the sticks on the table taken by the winner
    {"code": "riichi_deposit_back"}      a winner's own stick back (``deposits_to: each_winner``)
    {"code": "noten"}, {"code": "nagashi_mangan"}
    {"code": "chombo"}                   the penalty (deduction mode)
    {"code": "chombo_reverse_mangan"}    the payments of a reverse-mangan chombo

The ``reason`` objects are shared constants: read them, never change them in place.

``sum(deltas) == 1000 × (deposits − deposits_after)`` always holds: riichi sticks go to the
table (a payment line ``to: null``) and come back from it (``from: null``).

Conventions where the contract is silent (documented choices):

* chombo: the hand is replayed - same dealer, same honba, riichi sticks declared in the
  hand are returned (no deposit line), table deposits stay.
* nagashi mangan is paid like a mangan tsumo without honba; honba +1 as on any draw.
* abortive draw: riichi sticks declared in the hand stay on the table; honba +1; the dealer
  repeats (option ``abortive_dealer_repeats``).
* a triple ron is an abortive draw when ``"triple_ron"`` is in ``abortive_draws``.
* pao on a ron: the liable player pays half the hand's value (rounded down to 100), the
  discarder the rest plus all honba (option ``pao_ron_honba``: or the liable player pays the
  honba); on a tsumo the liable player pays everything, honba included.
* pao on a hand of several yakuman (``"pao_yakuman": k`` on the winner: how many of them carry
  the liability): option ``pao_scope`` ``"whole_hand"`` (Tenhou) puts the whole hand on the
  liable player; ``"pao_yakuman"`` (riichi.wiki, Sekinin barai) settles the liable yakuman as
  above and the other yakuman as an ordinary win, the honba staying with the liable player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from ..errors import SettlementError
from .points import LEGAL_FU, hand_base, payments_for
from .record_keys import check_record

_LEGAL_FU = frozenset(LEGAL_FU)
# (base, limit, why; the same with kiriage) of a han/fu hand: the fast path's table
_FastEntry = tuple[int, str, str, int, str, str]
# a result type's settlement: (result, options, dealer, honba, deposits, riichi seats, out) → fills out
# (the result is the record's JSON, known only to be indexable)
_Handler = Callable[[Any, dict[str, Any], int, int, int, Sequence[int], dict[str, Any]], None]
RIICHI_STICK = 1000


def _why_text(how: str, han: int | None, fu: int | None, yakuman: int, limit: str) -> str:
    if yakuman:
        text = f"{how} {limit}"
    elif fu is None:
        text = f"{how} {han} han {limit}"
    elif limit:
        text = f"{how} {han} han {fu} fu {limit}"
    else:
        text = f"{how} {han} han {fu} fu"
    if text not in _WIN_REASONS and (yakuman or (han is not None and han <= _WIN_REASONS_MAX_HAN)):
        _WIN_REASONS[text] = _win_reason(how, han, fu, yakuman, limit)
    return text


# limit name (points.py) → reason code; a k-fold yakuman is {"limit": "yakuman", "yakuman": k}
_LIMIT_CODES = {
    "": None,
    "mangan": "mangan",
    "haneman": "haneman",
    "baiman": "baiman",
    "sanbaiman": "sanbaiman",
    "kazoe yakuman": "kazoe_yakuman",
}
_WIN_REASONS: dict[str, dict[str, Any]] = {}  # payment text of a win → its reason (the text says all of it)
_WIN_REASONS_MAX_HAN = 40  # texts of absurd han counts are not kept (the table stays bounded)


def _win_reason(how: str, han: int | None, fu: int | None, yakuman: int, limit: str) -> dict[str, Any]:
    if yakuman:
        return {"code": "win", "how": how, "yakuman": yakuman, "limit": "yakuman"}
    r: dict[str, Any] = {"code": "win", "how": how, "han": han}
    if fu is not None:
        r["fu"] = fu
    code = _LIMIT_CODES.get(limit, limit)
    if code:
        r["limit"] = code
    return r


def _win_reason_of(why: str, d: dict[str, Any], tsumo: bool) -> dict[str, Any]:
    """The reason of a winner's payment text ``why`` (``d``: the winner's detail from :func:`_value`)."""
    r = _WIN_REASONS.get(why)
    if r is None:
        r = _win_reason("tsumo" if tsumo else "ron", d["han"], d["fu"], d["yakuman"], d["limit"])
    return r


def _shared(reason: dict[str, Any], share: str) -> dict[str, Any]:
    return {**reason, "share": share}


R_RIICHI_DEPOSIT = {"code": "riichi_deposit"}
R_DEPOSITS = {"code": "deposits"}
R_DEPOSIT_BACK = {"code": "riichi_deposit_back"}
R_NOTEN = {"code": "noten"}
R_NAGASHI = {"code": "nagashi_mangan"}
R_CHOMBO = {"code": "chombo"}
R_CHOMBO_REVERSE = {"code": "chombo_reverse_mangan"}
_COLLECT_REASONS = {"riichi deposits": R_DEPOSITS, "own riichi deposit back": R_DEPOSIT_BACK}


def _fast_table(tsumo: bool) -> dict[tuple[int, int | None], _FastEntry]:
    """(han, fu) → (base, limit, why, base with kiriage, limit, why) for valid han 1-12 hands."""
    how = "tsumo" if tsumo else "ron"
    table: dict[tuple[int, int | None], _FastEntry] = {}
    for han in range(1, 13):
        for fu in (None,) + LEGAL_FU:
            if han < 5 and (fu is None or (fu == 20 and not tsumo) or (fu == 25 and han < 2)):
                continue
            if han >= 5 and fu is not None and ((fu == 20 and not tsumo) or (fu == 25 and han < 2)):
                continue
            b, lim = hand_base(han, fu, 0, False, False, 1)
            bk, limk = hand_base(han, fu, 0, True, False, 1)
            table[(han, fu)] = (b, lim, _why_text(how, han, fu, 0, lim), bk, limk, _why_text(how, han, fu, 0, limk))
    return table


_FAST = (_fast_table(False), _fast_table(True))


def _seat(v: Any, field: str) -> int:
    if type(v) is not int or v < 0 or v > 3:
        raise SettlementError(field, f"must be a seat 0-3, got {v!r}", "seat_invalid")
    return v


def _count(v: Any, field: str) -> int:
    if type(v) is not int or v < 0:
        raise SettlementError(field, f"must be a non-negative integer, got {v!r}")
    return v


def _seats(v: Any, field: str, allow_none: bool = True) -> Sequence[int]:
    if v is None and allow_none:
        return ()
    if not isinstance(v, (list, tuple)):
        raise SettlementError(field, f"must be a list of seats 0-3, got {v!r}", "seats_invalid")
    for i, s in enumerate(v):
        if type(s) is not int or s < 0 or s > 3:
            raise SettlementError(f"{field}[{i}]", f"must be a seat 0-3, got {s!r}", "seat_invalid")
    if len(set(v)) != len(v):
        raise SettlementError(field, "lists a seat twice", "seat_twice")
    return v


def _evaluate(w: dict[str, Any], options: dict[str, Any], tsumo: bool, field: str, dealer: int) -> dict[str, Any]:
    try:
        from .hand import evaluate_hand
    except ImportError:  # pragma: no cover - hand.py is written by another engineer
        raise SettlementError(f"{field}.hand", "tile-level evaluation is not available; give han and fu") from None
    return evaluate_hand(w, options, tsumo=tsumo, field=field, dealer=dealer)


def _value(w: Any, field: str, options: dict[str, Any], tsumo: bool, dealer: int) -> tuple[dict[str, Any], str]:
    """Validate one winner → (detail dict with 'base' after limits, payment text)."""
    han = w.get("han")
    if type(han) is int and "yakuman" not in w and han >= options["min_han"]:
        fu = w.get("fu")
        if fu is None or (type(fu) is int and fu <= options["max_fu"]):
            ent = _FAST[tsumo].get((han, fu))
            if ent is not None:
                if options["kiriage"]:
                    return {"seat": None, "han": han, "fu": fu, "yakuman": 0, "base": ent[3], "limit": ent[4]}, ent[5]
                return {"seat": None, "han": han, "fu": fu, "yakuman": 0, "base": ent[0], "limit": ent[1]}, ent[2]
    return _value_slow(w, field, options, tsumo, dealer)


def _value_slow(w: Any, field: str, options: dict[str, Any], tsumo: bool, dealer: int) -> tuple[dict[str, Any], str]:
    if not isinstance(w, dict):
        raise SettlementError(field, 'a winner must be an object {"seat", "han", "fu"} or {"seat", "yakuman"}')
    yaku = None
    evaluated = False
    yk = w.get("yakuman")
    han = w.get("han")
    if yk is None and han is None:
        if w.get("hand") is None:
            raise SettlementError(field, "a winner needs han and fu, yakuman, or the hand's tiles")
        ev = _evaluate(w, options, tsumo, field, dealer)
        evaluated = True
        yk = ev.get("yakuman") or 0
        han = ev.get("han")
        fu = ev.get("fu")
        yaku = ev.get("yaku")
    else:
        fu = w.get("fu")
    if yk:
        if type(yk) is not int or yk < 0:
            raise SettlementError(
                f"{field}.yakuman", f"must be a positive integer (k-fold yakuman), got {yk!r}", "yakuman_invalid"
            )
        base, limit = hand_base(0, None, yk, False, False, options["max_yakuman_multiple"])
        d: dict[str, Any] = {
            "seat": w.get("seat"),
            "han": None,
            "fu": None,
            "yakuman": yk if yk < options["max_yakuman_multiple"] else options["max_yakuman_multiple"],
            "base": base,
            "limit": limit,
        }
    else:
        if yk is not None and (type(yk) is not int or yk < 0):
            raise SettlementError(
                f"{field}.yakuman", f"must be a positive integer (k-fold yakuman), got {yk!r}", "yakuman_invalid"
            )
        if han is None:
            raise SettlementError(f"{field}.han", "missing: give han (and fu below 5 han) or yakuman", "han_missing")
        if type(han) is not int or han < 1:
            raise SettlementError(f"{field}.han", f"must be an integer of at least 1, got {han!r}", "han_invalid")
        if han < options["min_han"]:
            raise SettlementError(
                f"{field}.han",
                f"below the minimum of {options['min_han']} han",
                "han_below_minimum",
                {"n": options["min_han"]},
            )
        if (fu is not None or han < 5) and not evaluated:
            if fu is None:
                raise SettlementError(f"{field}.fu", f"missing: a {han} han hand needs fu", "fu_missing", {"han": han})
            if type(fu) is not int or fu not in _LEGAL_FU or fu > options["max_fu"]:
                raise SettlementError(
                    f"{field}.fu",
                    f"must be 20, 25 or a multiple of 10 from 30 to {options['max_fu']}, got {fu!r}",
                    "fu_invalid",
                    {"max": options["max_fu"]},
                )
            if fu == 20 and not tsumo:
                raise SettlementError(
                    f"{field}.fu",
                    "20 fu is only possible on a self-draw (pinfu tsumo); a ron is at least 30 fu",
                    "fu_20_ron",
                )
            if fu == 25 and han < 2:
                raise SettlementError(f"{field}.fu", "25 fu (seven pairs) needs at least 2 han", "fu_25_one_han")
        base, limit = hand_base(han, fu, 0, options["kiriage"], options["kazoe_yakuman"], 1)
        d = {"seat": w.get("seat"), "han": han, "fu": fu, "yakuman": 0, "base": base, "limit": limit}
    if yaku is not None:
        d["yaku"] = yaku
    return d, _why_text("tsumo" if tsumo else "ron", d["han"], d["fu"], d["yakuman"], d["limit"])


def _pao_seat(
    w: dict[str, Any], field: str, winner_seat: int, detail: dict[str, Any], options: dict[str, Any]
) -> int | None:
    p = w.get("pao")
    if p is None:
        return None
    _seat(p, f"{field}.pao")
    if p == winner_seat:
        raise SettlementError(f"{field}.pao", "the liable player cannot be the winner", "pao_is_winner")
    if not options["pao"]:
        raise SettlementError(f"{field}.pao", "these rules have no liability payment (rules.pao is empty)")
    if not detail["yakuman"]:
        raise SettlementError(f"{field}.pao", "liability applies only to a yakuman hand")
    return cast(int, p)  # a seat: _seat checked it


def _pao_share(w: dict[str, Any], field: str, detail: dict[str, Any], options: dict[str, Any]) -> int:
    """Base points of the part of the hand the liable player answers for: the whole hand, or
    with ``pao_scope == "pao_yakuman"`` only the ``pao_yakuman`` yakuman named liable."""
    k = detail["yakuman"]
    liable = w.get("pao_yakuman", k)
    if type(liable) is not int or liable < 1 or liable > max(k, 1):
        raise SettlementError(
            f"{field}.pao_yakuman", f"must be an integer from 1 to the hand's {k} yakuman, got {liable!r}"
        )
    if options["pao_scope"] == "whole_hand" or liable >= k:
        return cast(int, detail["base"])
    return 8000 * liable


def settle(record: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """Settle one hand record under ``options`` (from :func:`resolve`)."""
    check_record(record)  # the declared keys only (record_keys.py), counts in range
    try:
        result = record.get("result")
        dealer = record.get("dealer")
        honba = record.get("honba", 0)
        deposits = record.get("deposits", 0)
        riichi = record.get("riichi")
        typ = result["type"]  # type: ignore[index]  # a non-dict result is the odd record handled below
    except (AttributeError, TypeError, KeyError):
        return _settle_odd(record, options)
    if type(dealer) is not int or dealer < 0 or dealer > 3:
        if dealer is None:
            raise SettlementError("dealer", "missing: the seat (0-3) that deals this hand")
        _seat(dealer, "dealer")
    if type(honba) is not int or honba < 0:
        _count(honba, "honba")
    if type(deposits) is not int or deposits < 0:
        _count(deposits, "deposits")
    fn = _HANDLERS.get(typ) if type(typ) is str else None
    if fn is None:
        raise SettlementError("result.type", f"must be one of ron, tsumo, draw, abortive, chombo; got {typ!r}")
    deltas = [0, 0, 0, 0]
    payments: list[dict[str, Any]] = []
    out = {
        "system": "riichi",
        "preset": options.get("preset"),
        "type": typ,
        "deltas": deltas,
        "payments": payments,
        "penalties": [],
    }
    if riichi:
        if type(riichi) is not list:
            _seats(riichi, "riichi")
        seen = 0
        for s in riichi:
            if type(s) is not int or s < 0 or s > 3 or seen & (1 << s):
                _seats(riichi, "riichi")
            seen |= 1 << s
        if typ != "chombo":
            for s in riichi:
                deltas[s] -= RIICHI_STICK
                payments.append(
                    {"from": s, "to": None, "points": RIICHI_STICK, "why": "riichi deposit", "reason": R_RIICHI_DEPOSIT}
                )
    else:
        riichi = ()
    fn(result, options, dealer, honba, deposits, riichi, out)
    return out


def _settle_odd(record: Any, options: dict[str, Any]) -> dict[str, Any]:
    """Slow path: game-end records and malformed input (precise errors)."""
    if not isinstance(record, dict):
        raise SettlementError("", "a hand record must be a JSON object")
    result = record.get("result")
    if result is None:
        if "game_end" in record:
            from .game_end import game_end_record

            return game_end_record(record, options)
        raise SettlementError("result", "missing: give the hand's result (ron, tsumo, draw, abortive, chombo)")
    if not isinstance(result, dict):
        raise SettlementError("result", "must be an object with a 'type'")
    raise SettlementError("result.type", "missing: one of ron, tsumo, draw, abortive, chombo")


def _pay(out: dict[str, Any], frm: int, to: int, pts: int, why: str, reason: dict[str, Any]) -> None:
    if pts:
        d = out["deltas"]
        d[frm] -= pts
        d[to] += pts
        out["payments"].append({"from": frm, "to": to, "points": pts, "why": why, "reason": reason})


def _collect(out: dict[str, Any], to: int, sticks: int, why: str = "riichi deposits") -> None:
    if sticks:
        out["deltas"][to] += sticks * RIICHI_STICK
        out["payments"].append(
            {"from": None, "to": to, "points": sticks * RIICHI_STICK, "why": why, "reason": _COLLECT_REASONS[why]}
        )


_WFIELD = [f"result.winners[{i}]" for i in range(8)]


def _wfield(i: int) -> str:
    return _WFIELD[i] if i < 8 else f"result.winners[{i}]"


def _winner_seat(w: Any, field: str, frm: int | None = None) -> int:
    if not isinstance(w, dict):
        raise SettlementError(field, 'a winner must be an object {"seat", "han", "fu"} or {"seat", "yakuman"}')
    s = w.get("seat")
    if type(s) is not int or s < 0 or s > 3:
        if s is None:
            raise SettlementError(f"{field}.seat", "missing: the winner's seat 0-3", "winner_missing")
        _seat(s, f"{field}.seat")
    if s == frm:
        raise SettlementError(f"{field}.seat", "a player cannot ron their own discard", "ron_own_discard")
    return cast(int, s)  # a seat: checked above


def _ron(
    result: dict[str, Any],
    options: dict[str, Any],
    dealer: int,
    honba: int,
    deposits: int,
    riichi: Sequence[int],
    out: dict[str, Any],
) -> None:
    frm = result.get("from")
    if type(frm) is not int or frm < 0 or frm > 3:
        if frm is None:
            raise SettlementError(
                "result.from", "missing: the seat that discarded the winning tile", "discarder_missing"
            )
        _seat(frm, "result.from")
    winners = result.get("winners")
    if winners is None and isinstance(result.get("winner"), dict):
        winners = [result["winner"]]
    if not isinstance(winners, list) or not winners:
        raise SettlementError("result.winners", "must be a non-empty list of winners", "winner_missing")
    entries = []
    seen = 0
    for i, w in enumerate(winners):
        field = _wfield(i)
        s = _winner_seat(w, field, frm)
        if seen & (1 << s):
            raise SettlementError(f"{field}.seat", f"seat {s} is listed as a winner twice", "winner_twice")
        seen |= 1 << s
        d, why = _value(w, field, options, False, dealer)
        d["seat"] = s
        p = w.get("pao")
        liable_base = 0
        if p is not None:
            p = _pao_seat(w, field, s, d, options)
            liable_base = _pao_share(w, field, d, options)
        elif "pao_yakuman" in w:
            raise SettlementError(f"{field}.pao_yakuman", "given without a liable player (pao)")
        entries.append(((s - frm) % 4, s, d, (p, liable_base), why))
    if len(entries) > 1:
        entries.sort(key=_first)
        if len(entries) >= 3 and "triple_ron" in options["abortive_draws"]:
            out["bumped"] = []
            _abortive_core(out, options, dealer, honba, deposits, riichi, "triple_ron")
            return
        keep = options["max_ron_winners"] if options["multiple_ron"] else 1
        if len(entries) > keep:
            out["bumped"] = [e[1] for e in entries[keep:]]
            entries = entries[:keep]
    each_honba = options["honba_to"] == "each_winner"
    honba_pts = honba * options["honba_points"]
    deltas = out["deltas"]
    payments = out["payments"]
    details = []
    dealer_won = False
    first = entries[0][1]
    for n, (_, s, d, (p, liable_base), why) in enumerate(entries):
        pay = payments_for(d["base"])
        if s == dealer:
            dealer_won = True
            value = pay[1]
        else:
            value = pay[0]
        d["value"] = value
        honba_payer = frm
        reason = _WIN_REASONS.get(why) or _win_reason_of(why, d, False)
        if p is not None and p != frm:
            liable_value = value if liable_base == d["base"] else payments_for(liable_base)[1 if s == dealer else 0]
            half = liable_value // 200 * 100
            _pay(out, p, s, half, why + " (pao: liable half)", _shared(reason, "liable_half"))
            _pay(out, frm, s, liable_value - half, why + " (pao: discarder half)", _shared(reason, "discarder_half"))
            _pay(out, frm, s, value - liable_value, why + " (yakuman not under pao)", _shared(reason, "not_liable"))
            d["pao"] = p
            if options["pao_ron_honba"] == "liable":
                honba_payer = p
        else:
            deltas[frm] -= value
            deltas[s] += value
            payments.append({"from": frm, "to": s, "points": value, "why": why, "reason": reason})
        if honba_pts and (n == 0 or each_honba):
            deltas[honba_payer] -= honba_pts
            deltas[s] += honba_pts
            payments.append(
                {
                    "from": honba_payer,
                    "to": s,
                    "points": honba_pts,
                    "why": _honba_why(honba),
                    "reason": _HONBA_REASON[honba] if honba < 20 else _honba_reason(honba),
                }
            )
        details.append(d)
    sticks = deposits + len(riichi)
    if len(entries) > 1 and options["deposits_to"] == "each_winner":
        for e in entries:
            if e[1] in riichi:
                _collect(out, e[1], 1, "own riichi deposit back")
                sticks -= 1
    if sticks:
        _collect(out, first, sticks)
    out["winners"] = details
    out["deposits_after"] = 0
    out["dealer_repeats"] = dealer_won
    out["honba_next"] = honba + 1 if dealer_won else 0


def _first(e: tuple[int, *tuple[Any, ...]]) -> int:
    return e[0]


_HONBA_WHY = [f"{n} honba" for n in range(20)]


def _honba_why(n: int) -> str:
    return _HONBA_WHY[n] if n < 20 else f"{n} honba"


_HONBA_REASON = [{"code": "honba", "count": n} for n in range(20)]


def _honba_reason(n: int) -> dict[str, Any]:
    return _HONBA_REASON[n] if n < 20 else {"code": "honba", "count": n}


def _tsumo(
    result: dict[str, Any],
    options: dict[str, Any],
    dealer: int,
    honba: int,
    deposits: int,
    riichi: Sequence[int],
    out: dict[str, Any],
) -> None:
    w = result.get("winner")
    field = "result.winner"
    if w is None and isinstance(result.get("winners"), list) and len(result["winners"]) == 1:
        w, field = result["winners"][0], "result.winners[0]"
    elif type(w) is int:  # flat form {"type": "tsumo", "winner": 1, "han": .., "fu": ..}
        w = dict(result, seat=w)
        field = "result"
    if w is None:
        raise SettlementError(
            field, 'missing: the winner {"seat", "han", "fu"} or {"seat", "yakuman"}', "winner_missing"
        )
    s = _winner_seat(w, field)
    d, why = _value(w, field, options, True, dealer)
    d["seat"] = s
    p = w.get("pao")
    liable_base = 0
    if p is not None:
        p = _pao_seat(w, field, s, d, options)
        liable_base = _pao_share(w, field, d, options)
    elif "pao_yakuman" in w:
        raise SettlementError(f"{field}.pao_yakuman", "given without a liable player (pao)")
    _, _, from_nd, from_d = payments_for(d["base"])
    tsumo_honba = honba * options["honba_points"] // 3
    is_dealer = s == dealer
    deltas = out["deltas"]
    payments = out["payments"]
    if p is not None and liable_base != d["base"]:
        total = _tsumo_pao_split(out, s, p, d["base"], liable_base, is_dealer, dealer, why)
        _pay(out, p, s, 3 * tsumo_honba, _honba_why(honba) + " (pao)", _shared(_honba_reason(honba), "liable_all"))
        d["pao"] = p
    elif p is not None:
        total = 3 * from_d if is_dealer else from_d + 2 * from_nd
        _pay(out, p, s, total, why + " (pao: liable pays all)", _shared(_win_reason_of(why, d, True), "liable_all"))
        _pay(out, p, s, 3 * tsumo_honba, _honba_why(honba) + " (pao)", _shared(_honba_reason(honba), "liable_all"))
        d["pao"] = p
    else:
        total = 0
        reason = _WIN_REASONS.get(why) or _win_reason_of(why, d, True)
        for payer in _OTHERS[s]:
            amt = from_d if (is_dealer or payer == dealer) else from_nd
            total += amt
            deltas[payer] -= amt
            payments.append({"from": payer, "to": s, "points": amt, "why": why, "reason": reason})
        deltas[s] += total
        if tsumo_honba:
            hw = _honba_why(honba)
            hr = _HONBA_REASON[honba] if honba < 20 else _honba_reason(honba)
            for payer in _OTHERS[s]:
                deltas[payer] -= tsumo_honba
                payments.append({"from": payer, "to": s, "points": tsumo_honba, "why": hw, "reason": hr})
            deltas[s] += 3 * tsumo_honba
    d["value"] = total
    sticks = deposits + len(riichi)
    if sticks:
        _collect(out, s, sticks)
    out["winners"] = [d]
    out["deposits_after"] = 0
    out["dealer_repeats"] = is_dealer
    out["honba_next"] = honba + 1 if is_dealer else 0


_OTHERS = [tuple(x for x in range(4) if x != s) for s in range(4)]


def _draw(
    result: dict[str, Any],
    options: dict[str, Any],
    dealer: int,
    honba: int,
    deposits: int,
    riichi: Sequence[int],
    out: dict[str, Any],
) -> None:
    tenpai = result.get("tenpai", ())
    tenpai = _seats(tenpai, "result.tenpai")
    nagashi = result.get("nagashi")
    nagashi = _seats(nagashi, "result.nagashi") if nagashi else ()
    if nagashi and not options["nagashi_mangan"]:
        raise SettlementError(
            "result.nagashi",
            "nagashi mangan is not played under these rules (rules.nagashi_mangan)",
            "nagashi_not_played",
        )
    if nagashi:
        _, _, from_nd, from_d = payments_for(2000)
        for s in nagashi:
            for payer in range(4):
                if payer != s:
                    amt = from_d if (s == dealer or payer == dealer) else from_nd
                    _pay(out, payer, s, amt, "nagashi mangan", R_NAGASHI)
    if not nagashi or options["nagashi_tenpai_payments"] == "also":
        nt = len(tenpai)
        if 0 < nt < 4:
            noten = [s for s in range(4) if s not in tenpai]
            if nt == 2:  # each non-ready seat pays one ready seat half the total
                per = options["noten_payment"] // 2
                for payer, s in zip(noten, sorted(tenpai)):
                    _pay(out, payer, s, per, "noten payment", R_NOTEN)
            else:
                per = options["noten_payment"] // 3
                for payer in noten:
                    for s in tenpai:
                        _pay(out, payer, s, per, "noten payment", R_NOTEN)
    mode = options["renchan_on_draw"]
    rep = mode == "always" or (mode == "tenpai" and dealer in tenpai)
    out["deposits_after"] = deposits + len(riichi)
    out["dealer_repeats"] = rep
    out["honba_next"] = honba + 1


def _abortive_core(
    out: dict[str, Any],
    options: dict[str, Any],
    dealer: int,
    honba: int,
    deposits: int,
    riichi: Sequence[int],
    reason: str,
) -> None:
    out["reason"] = reason
    out["type"] = "abortive"
    out["deposits_after"] = deposits + len(riichi)
    out["dealer_repeats"] = options["abortive_dealer_repeats"]
    out["honba_next"] = honba + 1


def _abortive(
    result: dict[str, Any],
    options: dict[str, Any],
    dealer: int,
    honba: int,
    deposits: int,
    riichi: Sequence[int],
    out: dict[str, Any],
) -> None:
    reason = result.get("reason")
    allowed = options["abortive_draws"]
    if not allowed:
        raise SettlementError(
            "result.type",
            "abortive draws are not played under these rules (rules.abortive_draws)",
            "abortive_not_played",
        )
    if reason not in allowed:
        raise SettlementError(
            "result.reason", f"must be one of {', '.join(allowed)}; got {reason!r}", "abortive_reason_not_allowed"
        )
    _abortive_core(out, options, dealer, honba, deposits, riichi, cast(str, reason))  # one of the allowed reasons


def _chombo(
    result: dict[str, Any],
    options: dict[str, Any],
    dealer: int,
    honba: int,
    deposits: int,
    riichi: Sequence[int],
    out: dict[str, Any],
) -> None:
    if "seat" not in result:
        raise SettlementError("result.seat", "missing: the seat that committed the chombo", "chombo_seat_missing")
    s = _seat(result["seat"], "result.seat")
    ch = options["chombo"]
    if ch["mode"] == "deduction":
        out["penalties"].append({"seat": s, "points": ch["points"], "why": "chombo", "reason": R_CHOMBO})
    else:
        _, _, from_nd, from_d = payments_for(2000)
        for other in range(4):
            if other != s:
                amt = from_d if (s == dealer or other == dealer) else from_nd
                _pay(out, s, other, amt, "chombo (reverse mangan)", R_CHOMBO_REVERSE)
    out["deposits_after"] = deposits
    out["dealer_repeats"] = True
    out["honba_next"] = honba


_HANDLERS: dict[str, _Handler] = {"ron": _ron, "tsumo": _tsumo, "draw": _draw, "abortive": _abortive, "chombo": _chombo}


def _tsumo_pao_split(
    out: dict[str, Any], s: int, p: int, base: int, liable_base: int, is_dealer: bool, dealer: int, why: str
) -> int:
    """Self-draw of several yakuman with only some under pao (``pao_scope == "pao_yakuman"``): the
    liable player pays the liable yakuman whole; the other yakuman are paid as an ordinary tsumo
    by the three others (riichi.wiki, Sekinin barai: "point exchanges happen independently for
    each yakuman")."""
    _, _, l_nd, l_d = payments_for(liable_base)
    liable_total = 3 * l_d if is_dealer else l_d + 2 * l_nd
    reason = _WIN_REASONS[why]  # a yakuman text: always kept
    _pay(out, p, s, liable_total, why + " (pao: liable yakuman)", _shared(reason, "liable_yakuman"))
    _, _, r_nd, r_d = payments_for(base - liable_base)
    total = liable_total
    for payer in _OTHERS[s]:
        amt = r_d if (is_dealer or payer == dealer) else r_nd
        _pay(out, payer, s, amt, why + " (yakuman not under pao)", _shared(reason, "not_liable"))
        total += amt
    return total
