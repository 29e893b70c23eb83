"""The arithmetic of the statistics, without Django: one game's stored hands (record, settlement,
kept details) and its seats' results → each seat's counts (docs/statistics.md defines each).

A count the records cannot give is not made: the denominators that say "where the record says"
(calls known, yaku known, dora known, tenpai known, dealer known) count only the hands whose
record says it, and a figure over an empty denominator is absent (``None``), never estimated."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

# The counts of one player, summed over games and over seasons alike (the stored rows' columns).
COUNTS = (
    "hands",
    "wins",
    "self_draws",
    "deal_ins",
    "riichi",
    "riichi_wins",
    "riichi_deal_ins",
    "calls_known",
    "open_hands",
    "draws_known",
    "draws_tenpai",
    "dealer_hands",
    "dealer_kept",
    "won_points",
    "won_priced",  # wins priced by han (riichi), by value (Zung Jung) or by fan (Beijing)
    "won_han",  # riichi: han of the wins priced by han; Beijing: fan; Zung Jung: pattern points
    "won_fu_wins",
    "won_fu",
    "yakuman_wins",
    "dealt_points",
    "dealt_priced",
    "dealt_han",
    "yaku_wins",
    "dora_wins",
    "dora",
    "games",
    "place_1",
    "place_2",
    "place_3",
    "place_4",
    "place_sum",
)

# Yaku of a riichi win entered as tiles (the ``mahjong`` package's romaji in the settlement) → key.
PACKAGE_YAKU = {
    "menzen tsumo": "menzen_tsumo",
    "riichi": "riichi",
    "ippatsu": "ippatsu",
    "chankan": "chankan",
    "rinshan kaihou": "rinshan",
    "haitei raoyue": "haitei",
    "houtei raoyui": "houtei",
    "pinfu": "pinfu",
    "tanyao": "tanyao",
    "iipeiko": "iipeikou",
    "yakuhai (haku)": "haku",
    "yakuhai (hatsu)": "hatsu",
    "yakuhai (chun)": "chun",
    "double riichi": "double_riichi",
    "chiitoitsu": "chiitoitsu",
    "chantai": "chanta",
    "ittsu": "ittsu",
    "sanshoku doujun": "sanshoku",
    "sanshoku doukou": "sanshoku_doukou",
    "san kantsu": "sankantsu",
    "toitoi": "toitoi",
    "san ankou": "sanankou",
    "shou sangen": "shousangen",
    "honroutou": "honroutou",
    "ryanpeikou": "ryanpeikou",
    "junchan": "junchan",
    "honitsu": "honitsu",
    "chinitsu": "chinitsu",
    "renhou": "renhou",
    "renhou (yakuman)": "renhou",
    "tenhou": "tenhou",
    "chiihou": "chiihou",
    "daisangen": "daisangen",
    "suu ankou": "suuankou",
    "suu ankou tanki": "suuankou",
    "tsuu iisou": "tsuuiisou",
    "ryuuiisou": "ryuuiisou",
    "chinroutou": "chinroutou",
    "chuuren poutou": "chuuren",
    "daburu chuuren poutou": "chuuren",
    "kokushi musou": "kokushi",
    "kokushi musou juusanmen matchi": "kokushi",
    "dai suushii": "daisuushii",
    "shousuushii": "shousuushii",
    "suu kantsu": "suukantsu",
}


def package_yaku(yaku: dict) -> str:
    """The key of a yaku as the settlement of a hand entered as tiles names it (its romaji)."""
    name = str(yaku.get("romaji") or yaku.get("name") or "").lower()
    if name.startswith("yakuhai (seat wind"):
        return "seat_wind"
    if name.startswith("yakuhai (round wind"):
        return "round_wind"
    return PACKAGE_YAKU.get(name, name)


@dataclass
class SeatCounts:
    """One player's counts in one game, with the game's biggest win of theirs."""

    counts: Counter = field(default_factory=Counter)
    yaku: Counter = field(default_factory=Counter)
    biggest: dict[str, Any] | None = None  # {"points", "sequence", "han", "fu", "yakuman", "value"}


def _winners(system: str, record: dict, settlement: dict) -> list[dict[str, Any]]:
    """Each win of the hand: ``{"seat", "self_draw", "from", "points", "han", "fu", "yakuman",
    "yaku"}`` (yaku: names, or None when the record does not give them)."""
    result = record.get("result") or {}
    kind = result.get("type")
    out = []
    payments = settlement.get("payments") or []
    if system == "riichi":
        if kind not in ("ron", "tsumo"):
            return []
        details = {w.get("seat"): w for w in settlement.get("winners") or []}
        raw = {w.get("seat"): w for w in (result.get("winners") or [result.get("winner") or {}])}
        for seat, w in details.items():
            points = sum(
                p["points"] for p in payments if p.get("to") == seat and (p.get("reason") or {}).get("code") == "win"
            )
            yaku = w.get("yaku")
            names = None
            if yaku is not None:
                names = [package_yaku(y) for y in yaku]
            r = raw.get(seat) or {}
            if names is None and isinstance(r.get("yaku"), list):
                names = [str(y) for y in r["yaku"]]
            out.append(
                {
                    "seat": seat,
                    "self_draw": kind == "tsumo",
                    "from": result.get("from") if kind == "ron" else None,
                    "points": points,
                    "han": w.get("han"),
                    "fu": w.get("fu"),
                    "yakuman": w.get("yakuman") or 0,
                    "yaku": names,
                    "melds": (r.get("hand") or {}).get("melds") if isinstance(r.get("hand"), dict) else None,
                }
            )
        return out
    if system == "zung-jung":
        if kind not in ("discard", "ron", "self_draw", "tsumo") or settlement.get("value") is None:
            return []
        seat = result.get("winner")
        self_draw = kind in ("self_draw", "tsumo")
        points = sum(p["points"] for p in payments if p.get("to") == seat)
        patterns = settlement.get("patterns")
        names = [str(p.get("key") or p.get("id")) for p in patterns] if isinstance(patterns, list) else None
        return [
            {
                "seat": seat,
                "self_draw": self_draw,
                "from": None if self_draw else result.get("from"),
                "points": points,
                "han": settlement["value"],
                "fu": None,
                "yakuman": 0,
                "yaku": names,
                "melds": None,
            }
        ]
    if system == "beijing":
        for w in settlement.get("winners") or []:
            self_draw = w.get("type") == "self_draw"
            out.append(
                {
                    "seat": w.get("seat"),
                    "self_draw": self_draw,
                    "from": None if self_draw else w.get("from"),
                    "points": w.get("total") or 0,
                    "han": len(w.get("factors") or []),
                    "fu": None,
                    "yakuman": 0,
                    "yaku": [str(f) for f in w.get("factors") or []],
                    "melds": None,
                }
            )
        return out
    return []


def hand_counts(
    system: str, record: dict, settlement: dict, detail: dict | None, sequence: int, into: list[SeatCounts]
) -> None:
    """Add one hand to the four seats' counts (``into``, seat order)."""
    result = record.get("result") or {}
    kind = result.get("type")
    riichi = set(record.get("riichi") or []) if system == "riichi" else set()
    wins = _winners(system, record, settlement)
    # the kept details count only where they describe this hand: a correction that changed who
    # won leaves them describing another hand, and they are then not used for the wins
    kept = {w["seat"]: w for w in (detail or {}).get("winners", [])}
    details_fit = detail is not None and set(kept) == {w["seat"] for w in wins}
    dealer = record.get("dealer") if system in ("riichi", "beijing") else None
    for seat in range(4):
        c = into[seat].counts
        c["hands"] += 1
        if seat in riichi:
            c["riichi"] += 1
        if detail is not None and details_fit:
            c["calls_known"] += 1
            if seat in (detail.get("open") or []):
                c["open_hands"] += 1
        if dealer is not None and isinstance(dealer, int) and kind != "chombo":
            if seat == dealer:
                c["dealer_hands"] += 1
                if settlement.get("dealer_repeats"):
                    c["dealer_kept"] += 1
        if system == "riichi" and kind == "draw" and not result.get("nagashi"):
            c["draws_known"] += 1
            if seat in (result.get("tenpai") or []):
                c["draws_tenpai"] += 1
    dealt: dict[int, dict[str, int]] = {}
    for w in wins:
        seat = w["seat"]
        if not isinstance(seat, int) or not 0 <= seat <= 3:
            continue
        s = into[seat]
        c = s.counts
        c["wins"] += 1
        if w["self_draw"]:
            c["self_draws"] += 1
        if seat in riichi:
            c["riichi_wins"] += 1
        c["won_points"] += w["points"]
        if w["yakuman"]:
            c["yakuman_wins"] += 1
        elif w["han"] is not None:
            c["won_priced"] += 1
            c["won_han"] += w["han"]
            if w["fu"] is not None:
                c["won_fu_wins"] += 1
                c["won_fu"] += w["fu"]
        names = w["yaku"]
        dora = None
        if details_fit:
            names = kept[seat].get("yaku", names)
            dora = kept[seat].get("dora")
        if names is not None:
            c["yaku_wins"] += 1
            s.yaku.update(names)
        if dora is not None:
            c["dora_wins"] += 1
            c["dora"] += dora
        big = {
            "points": w["points"],
            "sequence": sequence,
            "han": w["han"],
            "fu": w["fu"],
            "yakuman": w["yakuman"],
        }
        if s.biggest is None or big["points"] > s.biggest["points"]:
            s.biggest = big
        frm = w["from"]
        if isinstance(frm, int) and 0 <= frm <= 3 and frm != seat:
            paid = sum(
                p["points"]
                for p in settlement.get("payments") or []
                if p.get("from") == frm and p.get("to") == seat and _is_win_payment(system, p)
            )
            d = dealt.setdefault(frm, {"points": 0, "priced": 0, "han": 0})
            d["points"] += paid
            if not w["yakuman"] and w["han"] is not None:
                d["priced"] += 1
                d["han"] += w["han"]
    for frm, d in dealt.items():
        c = into[frm].counts
        c["deal_ins"] += 1  # a double ron is one deal-in (one discard)
        if frm in riichi:
            c["riichi_deal_ins"] += 1
        c["dealt_points"] += d["points"]
        c["dealt_priced"] += d["priced"]
        c["dealt_han"] += d["han"]


def _is_win_payment(system: str, payment: dict) -> bool:
    code = (payment.get("reason") or {}).get("code")
    if system == "riichi":
        return code == "win"
    if system == "beijing":
        return code in ("share", "bao")
    return True


def game_counts(system: str, hands: list[tuple[dict, dict, dict | None, int]], places: list | None) -> list[SeatCounts]:
    """The four seats' counts for one game: its hands ``(record, settlement, detail, sequence)``
    in order, and the seats' places when the game has a result (else None)."""
    seats = [SeatCounts() for _ in range(4)]
    for record, settlement, detail, sequence in hands:
        hand_counts(system, record, settlement, detail, sequence, seats)
    if places is not None:
        for seat, place in enumerate(places):
            if place in (1, 2, 3, 4):
                c = seats[seat].counts
                c["games"] += 1
                c[f"place_{place}"] += 1
                c["place_sum"] += place
    return seats


def ratio(numerator: int | float, denominator: int | float) -> float | None:
    """A rate, or None (absent) over nothing."""
    return None if not denominator else numerator / denominator


def place_runs(places: list[int]) -> tuple[int, int, int, int]:
    """In the order given: the longest run of first places, the longest run of last places, and
    the runs of each still open at the end (what a later game continues)."""
    best_first = best_last = run_first = run_last = 0
    for place in places:
        run_first, run_last = place_runs_step(run_first, run_last, place)
        best_first, best_last = max(best_first, run_first), max(best_last, run_last)
    return best_first, best_last, run_first, run_last


def place_runs_step(run_first: int, run_last: int, place: int) -> tuple[int, int]:
    """The open runs of first and last places after one more game's place."""
    return (run_first + 1 if place == 1 else 0), (run_last + 1 if place == 4 else 0)
