"""Riichi point arithmetic: han/fu → base points → payments.

Standard arithmetic (seed 002 §10.1-10.2): base = fu × 2^(han+2); a ron pays base × 4
(dealer × 6) and a tsumo base × 1 from each non-dealer and base × 2 from the dealer
(the dealer winning takes base × 2 from each), every payment rounded *up* to 100.
A base above 2,000 is capped at mangan (2,000); 5 han mangan, 6-7 haneman (3,000),
8-10 baiman (4,000), 11-12 sanbaiman (6,000), 13+ kazoe yakuman (8,000) if the rules
allow it, else sanbaiman; yakuman 8,000 × k.  With ``kiriage`` a base of 1,920
(4 han 30 fu, 3 han 60 fu) is rounded up to mangan.

Everything is precomputed into small tables: ``BASE[(han, fu)]`` for 1-4 han and
``PAY[base]`` = (ron non-dealer, ron dealer, tsumo from non-dealer, tsumo from dealer).
"""

from __future__ import annotations

LEGAL_FU = (20, 25) + tuple(range(30, 140, 10))

LIMITS = {  # han -> (base, name)
    5: (2000, "mangan"),
    6: (3000, "haneman"),
    7: (3000, "haneman"),
    8: (4000, "baiman"),
    9: (4000, "baiman"),
    10: (4000, "baiman"),
    11: (6000, "sanbaiman"),
    12: (6000, "sanbaiman"),
}
YAKUMAN_NAMES = {
    1: "yakuman",
    2: "double yakuman",
    3: "triple yakuman",
    4: "4x yakuman",
    5: "5x yakuman",
    6: "6x yakuman",
}


def ceil100(x: int) -> int:
    return -(-x // 100) * 100


def ceil10(x: int) -> int:
    return x if x == 25 else -(-x // 10) * 10


# BASE[(han, fu)] = raw base points (uncapped) for han 1..4
BASE = {(han, fu): fu << (han + 2) for han in range(1, 5) for fu in LEGAL_FU}


def _pay(base: int) -> tuple[int, int, int, int]:
    return (ceil100(base * 4), ceil100(base * 6), ceil100(base), ceil100(base * 2))


PAY: dict[int, tuple[int, int, int, int]] = {}
for _b in {b for b in BASE.values() if b <= 2000} | {2000, 3000, 4000, 6000} | {8000 * k for k in range(1, 7)}:
    PAY[_b] = _pay(_b)
del _b


def hand_base(han: int, fu: int | None, yakuman: int, kiriage: bool, kazoe: bool, max_multiple: int) -> tuple[int, str]:
    """(base points after limits, limit name or "")."""
    if yakuman:
        k = yakuman if yakuman < max_multiple else max_multiple
        return 8000 * k, YAKUMAN_NAMES[k]
    if han >= 5:
        if han >= 13:
            return (8000, "kazoe yakuman") if kazoe else (6000, "sanbaiman")
        return LIMITS[han]
    if fu is None:  # the record check asks for fu below 5 han before a hand gets here
        raise ValueError("fu is needed below 5 han")
    base = BASE.get((han, fu))
    if base is None:  # unusual fu from tile-level evaluation
        base = ceil10(fu) << (han + 2)
    if base >= 2000 or (kiriage and base >= 1920):
        return 2000, "mangan"
    return base, ""


def payments_for(base: int) -> tuple[int, int, int, int]:
    """(ron non-dealer, ron dealer, tsumo per non-dealer payer, tsumo per dealer payer)."""
    p = PAY.get(base)
    if p is None:
        p = PAY[base] = _pay(base)
    return p
