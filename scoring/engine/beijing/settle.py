"""Settlement of one Beijing 吃碰提 hand record (settlement contract, Beijing part; spec ``beijing.md``).

Record (contract fields plus extensions)::

    {"rules": "beijing", "dealer": 0,
     "wildcard_indicator": "1p",          # or "wildcard": "2p"; needed only with tiles
     "after_draw": false, "dealer_streak": 1, "shanglou": bool (explicit 上楼, overrides the triggers),
     "shaozhuang": false,                 # 焼荘 happened in the first go-around
     "result": {"type": "tsumo"|"ron"|"qianggang"|"draw"|"chombo",
                "winner": 0, "from": 3,   # from: the discarder / the robbed player
                "factors": ["menqing", "long"], "kongs": [{"type": "open"|"concealed"|"added"}],
                "special": "tianhu"|"dihu"|"hungang",
                "hand": {"concealed": "...", "melds": [...], "tile": "8m"},   # optional: factors derived/verified
                "wildcards": 1, "hunyou": false, "winning_tile_wildcard": false, "discarded_wildcard": false,
                "claims": [{"by": 1, "from": 2, "count": 3}],                  # Hangzhou 包
                "winners": [{"seat": 1, "factors": [...]}, ...],               # several winners on one discard
                "seat": 2, "claimed": {...}}}                                  # chombo (claimed: reverse mode)

Output: ``deltas``, ``payments`` (from/to/points/why/reason; reason codes: ``share`` {seat, hand, kong,
fixed, liability?: discarder | robbed_kong}, ``bao`` {times, total}, ``chombo``, ``chombo_reverse``,
``shaozhuang``), ``penalties`` (always empty: every Beijing
penalty is a transfer between players, so it is in ``deltas`` and ``payments``), ``dealer_next``,
``dealer_repeats``, ``dealer_streak_next``, ``shanglou``, ``shanglou_next``, ``winners`` (factors used,
per-payer ``shares`` {hand, kong, fixed, total}, ``total``), ``wildcard``, ``head_bumped``, ``notes``.
"""

from __future__ import annotations

from typing import Any, cast, overload

from ..errors import SettlementError
from ..tiles import parse_tile, tile_name
from .factors import ALIASES, BY_ID, zh_name
from .hand import Analysis, analyse, next_tile
from .record_keys import check_record

SELF_DRAW_TYPES = {
    "tsumo": "self_draw",
    "self_draw": "self_draw",
    "zimo": "self_draw",
    "tiliu": "self_draw",
    "提溜": "self_draw",
    "自摸": "self_draw",
    "gangkai": "self_draw",
}
DISCARD_TYPES = {"ron": "discard", "discard": "discard", "dianpao": "discard", "放銃": "discard", "点炮": "discard"}
ROB_TYPES = {"qianggang": "qianggang", "robbing_kong": "qianggang", "chankan": "qianggang", "搶槓": "qianggang"}
KONG_ALIASES = {
    "open": "open",
    "exposed": "open",
    "kan": "open",
    "minkan": "open",
    "minggang": "open",
    "明槓": "open",
    "concealed": "concealed",
    "ankan": "concealed",
    "angang": "concealed",
    "暗槓": "concealed",
    "added": "added",
    "kakan": "added",
    "jiagang": "added",
    "加槓": "added",
}
KONG_ZH = {"open": "明槓", "concealed": "暗槓", "added": "加槓"}


@overload
def _seat(v: object, field: str) -> int: ...
@overload
def _seat(v: object, field: str, required: bool) -> int | None: ...
def _seat(v: object, field: str, required: bool = True) -> int | None:
    if v is None and not required:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 3:
        raise SettlementError(field, f"must be a seat 0..3, got {v!r}")
    return v


def _flag(d: dict[str, Any], key: str, field: str) -> bool:
    v = d.get(key, False)
    if not isinstance(v, bool):
        raise SettlementError(field, f"must be true or false, got {v!r}")
    return v


def win_kind(t: Any, field: str, extra: Any = None) -> str:
    if not isinstance(t, str):
        raise SettlementError(field, f"must be a string, got {t!r}")
    k = t.lower() if t.isascii() else t
    for table in (SELF_DRAW_TYPES, DISCARD_TYPES, ROB_TYPES):
        if k in table:
            return table[k]
    if k in ("draw", "exhaustive_draw", "liuju", "流局", "荒牌"):
        return "draw"
    if k in ("chombo", "false_win", "诈和", "詐和"):
        return "chombo"
    raise SettlementError(field, f"unknown result type {t!r}; use tsumo, ron, qianggang, draw or chombo")


def _wildcard(record: dict[str, Any], src: list[tuple[dict[str, Any], str]]) -> int | None:
    """The 混 tile (34-index) from ``wildcard`` or ``wildcard_indicator`` (winner, result or record level)."""
    for d, prefix in src:
        if d.get("wildcard") is not None:
            return parse_tile(d["wildcard"], f"{prefix}wildcard")
        if d.get("wildcard_indicator") is not None:
            return next_tile(parse_tile(d["wildcard_indicator"], f"{prefix}wildcard_indicator"))
    return None


class Win:
    """A validated win: who, how, and what it is worth before the payer-side doublings."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.kind: str | None = None  # self_draw | discard | qianggang
        self.frm: int | None = None
        self.factors: list[str] = []
        self.extra = 0  # extra doublings from rules.extra_factors
        self.kongs: list[str] = []
        self.special: str | None = None
        self.derived = False
        self.wild: int | None = None
        self.extra_ids: list[str] = []

    @property
    def n(self) -> int:
        return len(self.factors) + self.extra


def _parse_factors(raw: Any, field: str, options: dict[str, Any]) -> tuple[list[str], str | None]:
    if raw is None:
        return [], None
    if not isinstance(raw, list):
        raise SettlementError(field, "must be a list of factor ids such as ['menqing', 'long']")
    out: list[str] = []
    special = None
    extra = options.get("extra_factors", {})
    for i, f in enumerate(raw):
        ff = f"{field}[{i}]"
        if not isinstance(f, str):
            raise SettlementError(ff, f"must be a factor id string, got {f!r}")
        fid = ALIASES.get(f) or ALIASES.get(f.lower()) or (f if f in extra else None)
        if fid is None:
            known = ", ".join([k for k in BY_ID if BY_ID[k]["kind"] == "hand"] + list(extra))
            raise SettlementError(ff, f"unknown factor {f!r}; known: {known}")
        kind = BY_ID[fid]["kind"] if fid in BY_ID else "extra"
        if kind == "payer":
            raise SettlementError(ff, f"{fid} ({zh_name(fid)}) is applied by the engine per payer; do not list it")
        if kind == "option":
            raise SettlementError(
                ff, f"{fid} ({zh_name(fid)}) is not a factor by itself; with its option on list 'meihuar'"
            )
        if kind == "fixed":
            if special is not None:
                raise SettlementError(ff, f"two fixed-value hands ({special}, {fid})")
            special = fid
            continue
        limit = BY_ID[fid].get("repeatable", 1) if fid in BY_ID else 1
        if out.count(fid) >= limit:
            raise SettlementError(
                ff,
                f"duplicate factor {fid} ({zh_name(fid)})"
                if limit == 1
                else f"{fid} ({zh_name(fid)}) at most {limit} times (once per four-of-a-kind)",
            )
        out.append(fid)
    return out, special


def _parse_kongs(raw: Any, field: str) -> list[str] | None:
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise SettlementError(field, "must be a list of kongs such as [{'type': 'open'}]")
    out = []
    for i, k in enumerate(raw):
        t = k.get("type") if isinstance(k, dict) else k
        kind = KONG_ALIASES.get(t.lower() if isinstance(t, str) and t.isascii() else t) if isinstance(t, str) else None
        if kind is None:
            raise SettlementError(f"{field}[{i}].type", f"unknown kong type {t!r}; use open, concealed or added")
        out.append(kind)
    return out


def build_win(
    record: dict[str, Any],
    result: dict[str, Any],
    wd: dict[str, Any],
    fp: str,
    options: dict[str, Any],
    dealer: int,
    kind: str,
    frm: int | None,
    validate: bool = True,
) -> Win:
    """Validate one winner's data (``wd``, with field prefix ``fp``) and return a :class:`Win`."""
    w = Win()
    w.kind, w.frm = kind, frm
    w.seat = _seat(wd.get("winner", wd.get("seat")), f"{fp}.winner")
    factors, special = _parse_factors(wd.get("factors"), f"{fp}.factors", options)
    sp = wd.get("special")
    if sp is not None:
        spid = ALIASES.get(sp) if isinstance(sp, str) else None
        if spid not in ("tianhu", "dihu", "hungang"):
            raise SettlementError(f"{fp}.special", f"unknown fixed-value hand {sp!r}; use tianhu, dihu or hungang")
        if special is not None and special != spid:
            raise SettlementError(f"{fp}.special", f"conflicts with {special} in factors")
        special = spid
    kongs = _parse_kongs(wd.get("kongs"), f"{fp}.kongs")
    w.wild = _wildcard(record, [(wd, f"{fp}."), (result, "result."), (record, "")])
    if kind in ("discard", "qianggang") and w.frm is not None and w.frm == w.seat:
        raise SettlementError(f"{fp}.from" if "from" in wd else "result.from", "the winner cannot pay himself")

    an = None
    if wd.get("hand") is not None:
        if w.wild is None:
            raise SettlementError(
                "wildcard_indicator", "missing: needed to analyse the hand's wildcards (or give 'wildcard')"
            )
        ind = tile_name(_prev(w.wild))
        an = analyse(wd["hand"], ind, options, f"{fp}.hand")
        if kongs is not None and sorted(kongs) != sorted(an.kongs):
            raise SettlementError(f"{fp}.kongs", f"does not match the hand's kongs {an.kongs}")
        kongs = an.kongs
        if an.hungang:
            if special not in (None, "hungang", "tianhu", "dihu"):
                raise SettlementError(f"{fp}.special", "the hand holds four 混: it is 混槓")
            special = special or "hungang"
    kongs = kongs or []
    w.kongs = kongs
    w.special = special

    if validate:
        _validate(w, wd, fp, options, dealer, factors, an)

    if special is not None:
        if factors and validate:
            raise SettlementError(
                f"{fp}.factors", f"a fixed-value hand ({special} {zh_name(special)}) takes no factors"
            )
        w.factors = []
        return w

    extra = options.get("extra_factors", {})
    if an is not None:
        derivable = [f for f in factors if f in BY_ID and f != "gangkai"]
        nonderiv = [f for f in factors if f not in derivable]
        best = an.best(options.get("duanmen", False))
        if best is None and validate:  # checked in _validate already
            raise SettlementError(f"{fp}.hand", "not a complete hand")
        if best is None:  # a false win's claimed hand (reverse chombo): trust the listed factors
            chosen = derivable
        elif derivable:
            sets = an.best_factor_sets(options.get("duanmen", False))
            claimed = tuple(sorted(derivable, key=_order_key))
            if claimed not in sets and validate:
                raise SettlementError(f"{fp}.factors", f"claims {list(claimed)} but the hand gives {list(sets[0])}")
            chosen = list(claimed) if claimed in sets else list(best.factors)
        else:
            chosen = list(best.factors)
        w.derived = True
        factors = chosen + nonderiv
        if validate:
            _combo_checks(w.kind, factors, kongs, fp)
    w.factors = sorted([f for f in factors if f in BY_ID], key=_order_key)
    w.extra = sum(extra[f] for f in factors if f in extra)
    w.extra_ids = [f for f in factors if f in extra]
    return w


_ORDER = ["menqing", "meihuar", "long", "qidui", "haohua", "zhuowu", "gangkai"]


def _order_key(f: str) -> int:
    return _ORDER.index(f) if f in _ORDER else 99


def _prev(t: int) -> int:
    for i in range(34):
        if next_tile(i) == t:
            return i
    raise AssertionError(t)


def _combo_checks(kind: str | None, factors: list[str], kongs: list[str], fp: str) -> None:
    ff = f"{fp}.factors"
    if "qidui" in factors and "menqing" not in factors:
        raise SettlementError(ff, "qidui (七対) without menqing (門清): seven pairs is always concealed")
    if "haohua" in factors and "qidui" not in factors:
        raise SettlementError(ff, "haohua (豪華) needs qidui (七対)")
    if "long" in factors and "qidui" in factors:
        raise SettlementError(ff, "long (龍) is made of three chows and cannot be part of qidui (七対)")
    if "qidui" in factors and kongs:
        raise SettlementError(f"{fp}.kongs", "qidui (七対) / haohua (豪華) cannot have a declared kong")
    if "menqing" in factors:
        for i, k in enumerate(kongs):
            if k in ("open", "added"):
                raise SettlementError(f"{fp}.kongs[{i}]", f"a {k} kong breaks menqing (門清)")
    if "gangkai" in factors:
        if kind == "discard":
            raise SettlementError(ff, "gangkai (槓開) on a discard win: a kong-replacement win is always a self-draw")
        if kind == "qianggang":
            raise SettlementError(ff, "gangkai (槓開) cannot be a robbed-kong (搶槓) win")
        if not kongs:
            raise SettlementError(f"{fp}.kongs", "gangkai (槓開) needs the winner's kong in kongs")
    if kind in ("discard", "qianggang") and "menqing" not in factors:
        what = "robbing a kong (搶槓)" if kind == "qianggang" else "a discard win"
        raise SettlementError(
            f"{fp}.factors", f"{what} on an open hand: without menqing (門清) a hand wins only by self-draw (吃碰提)"
        )


def _validate(
    w: Win, wd: dict[str, Any], fp: str, options: dict[str, Any], dealer: int, factors: list[str], an: Analysis | None
) -> None:
    kind = w.kind
    by_discard = kind in ("discard", "qianggang")
    if _flag(wd, "discarded_wildcard", f"{fp}.discarded_wildcard"):
        raise SettlementError(
            f"{fp}.discarded_wildcard", "the winner discarded a 混 this hand and forfeited winning (上がり放棄)"
        )
    if _flag(wd, "forfeited", f"{fp}.forfeited"):
        raise SettlementError(f"{fp}.forfeited", "the winner had forfeited winning this hand (上がり放棄)")
    if kind == "discard" and _flag(wd, "winning_tile_wildcard", f"{fp}.winning_tile_wildcard"):
        raise SettlementError(f"{fp}.winning_tile_wildcard", "no one can win on a discarded 混 (wildcard)")
    wc = wd.get("wildcards")
    if wc is not None:
        if isinstance(wc, bool) or not isinstance(wc, int) or not 0 <= wc <= 4:
            raise SettlementError(f"{fp}.wildcards", f"must be 0..4, got {wc!r}")
    hunyou = _flag(wd, "hunyou", f"{fp}.hunyou")
    if an is not None:
        if wc is not None and wc != an.jokers:
            raise SettlementError(f"{fp}.wildcards", f"says {wc} but the hand holds {an.jokers} 混")
        wc = an.jokers
        hunyou = hunyou or an.hunyou
        if kind == "discard" and an.win_is_wild:
            raise SettlementError(f"{fp}.hand.tile", "no one can win on a discarded 混 (wildcard)")
        if by_discard and an.open:
            raise SettlementError(
                "result.type",
                "a discard win on an open hand: after a chow, pong or exposed kong a hand wins only by self-draw",
            )
        if not an.complete:
            raise SettlementError(f"{fp}.hand", "not a complete hand (4 melds + a pair, or seven pairs)")
        if options.get("duanmen") and not an.hungang and an.best(True) is None:
            raise SettlementError(f"{fp}.hand", "断門 is required: the hand must lack one of the three number suits")
        if options.get("claim_limit") and an.claims > 1:
            raise SettlementError(f"{fp}.hand.melds", f"{an.claims} chow/pong claims; the table allows one per hand")
    if wc == 4 and w.special != "hungang":
        raise SettlementError(f"{fp}.special", "four 混 in hand is 混槓 (hungang)")
    if w.special != "hungang" and wc is not None and wc >= 3 and by_discard:
        raise SettlementError(f"{fp}.wildcards", f"{wc} 混 in hand: such a hand wins only by self-draw")
    if hunyou and by_discard and w.special is None:
        raise SettlementError(f"{fp}.hunyou", "混悠 (wildcard single wait) wins only by self-draw, even when concealed")
    if w.special == "tianhu":
        if w.seat != dealer or kind != "self_draw":
            raise SettlementError(f"{fp}.special", "天和 (tianhu) is the dealer's self-drawn dealt hand")
    if w.special == "dihu":
        if w.seat == dealer or kind != "discard" or w.frm != dealer:
            raise SettlementError(f"{fp}.special", "地和 (dihu) is a non-dealer's win on the dealer's first discard")
    if w.special is None and an is None:
        _combo_checks(kind, factors, w.kongs, fp)


def _claims(result: dict[str, Any], options: dict[str, Any]) -> set[tuple[int, int]]:
    """Hangzhou 3-claim relations as a set of (by, from)."""
    raw = result.get("claims")
    if raw is None:
        return set()
    if not isinstance(raw, list):
        raise SettlementError("result.claims", "must be a list of {by, from, count}")
    rel = set()
    for i, c in enumerate(raw):
        f = f"result.claims[{i}]"
        if not isinstance(c, dict):
            raise SettlementError(f, "must be an object {by, from, count}")
        by = _seat(c.get("by"), f"{f}.by")
        frm = _seat(c.get("from"), f"{f}.from")
        if by == frm:
            raise SettlementError(f"{f}.from", "a player cannot claim his own discard")
        cnt = c.get("count", 3)
        if isinstance(cnt, bool) or not isinstance(cnt, int) or cnt < 0:
            raise SettlementError(f"{f}.count", f"must be a non-negative integer, got {cnt!r}")
        if cnt >= 3:
            rel.add((by, frm))
    return rel


def win_shares(w: Win, dealer: int, options: dict[str, Any], mult: int = 1) -> list[dict[str, Any]]:
    """Each opponent's share of ``w`` before liability transfers: ``{seat, hand, kong, fixed, total, why}``."""
    r = options["base"]
    pays_all = options["discarder_pays_all"]
    kp = options["kong_points"]
    scope = options["shanglou"]["scope"]
    out = []
    for p in range(4):
        if p == w.seat:
            continue
        hand = kong = fixed = 0
        why = []
        if w.special:
            fixed = options["fixed_hands"][w.special]
            why.append(f"{zh_name(w.special)} fixed {fixed}")
        else:
            dealer_in = w.seat == dealer or p == dealer
            self_draw = w.kind in ("self_draw", "qianggang")
            if pays_all and self_draw and not options["pays_all_self_draw_double"]:
                tiliu = False
            elif self_draw:
                tiliu = True
            else:
                tiliu = (p == w.frm) and not pays_all
            names = [zh_name(f) for f in w.factors] + w.extra_ids
            if dealer_in:
                names.insert(0, "荘家")
            if tiliu:
                names.append("提溜" if self_draw else "放銃")
            e = w.n + (1 if dealer_in else 0) + (1 if tiliu else 0)
            hand = r * 2**e
            why.append(f"hand {'·'.join(names) or 'no factor'} = {hand}")
            if w.kongs:
                kb = sum(kp[k] for k in w.kongs)
                km = 1
                tags = []
                if options["dealer_doubles_kong"] and dealer_in:
                    km *= 2
                    tags.append("荘家")
                if "gangkai" in w.factors and options["gangkai_doubles_kong"]:
                    km *= 2
                    tags.append("槓開")
                kong = r * kb * km
                why.append(
                    f"kongs {'+'.join(KONG_ZH[k] for k in w.kongs)} {kb}{'×' + '×'.join(tags) if tags else ''} = {kong}"
                )
        if mult != 1:
            if scope in ("all", "hand_and_kong", "hand"):
                hand *= mult
            if scope in ("all", "hand_and_kong"):
                kong *= mult
            if scope == "all":
                fixed *= mult
            why.append(f"上楼 ×{mult} ({scope})")
        out.append(
            {"seat": p, "hand": hand, "kong": kong, "fixed": fixed, "total": hand + kong + fixed, "why": "; ".join(why)}
        )
    return out


R_CHOMBO = {"code": "chombo"}
R_CHOMBO_REVERSE = {"code": "chombo_reverse"}
R_SHAOZHUANG = {"code": "shaozhuang"}


def _share_reason(share: dict[str, Any], liability: str | None = None) -> dict[str, Any]:
    """``{"code": "share", "seat", "hand", "kong", "fixed"}`` (+ ``"liability"``: the line is
    ``seat``'s share paid by the discarder or the robbed player)."""
    r: dict[str, Any] = {
        "code": "share",
        "seat": share["seat"],
        "hand": share["hand"],
        "kong": share["kong"],
        "fixed": share["fixed"],
    }
    if liability:
        r["liability"] = liability
    return r


def liable_lines(
    w: Win, shares: list[dict[str, Any]], options: dict[str, Any], relations: set[tuple[int, int]]
) -> list[dict[str, Any]]:
    """Turn shares into payment lines, applying 点炮包荘, 搶槓包 and Hangzhou 包."""
    lines = [
        {"from": s["seat"], "to": w.seat, "points": s["total"], "why": s["why"], "reason": _share_reason(s)}
        for s in shares
    ]
    if not w.special and w.kind == "discard" and options["discarder_pays_all"]:
        lines = [
            {
                "from": w.frm,
                "to": w.seat,
                "points": s["total"],
                "why": f"点炮包荘: seat {s['seat']}'s share ({s['why']})",
                "reason": _share_reason(s, "discarder"),
            }
            for s in shares
        ]
    if not w.special and w.kind == "qianggang" and options["qianggang_pao"]:
        lines = [
            {
                "from": w.frm,
                "to": w.seat,
                "points": s["total"],
                "why": f"搶槓包: seat {s['seat']}'s share ({s['why']})",
                "reason": _share_reason(s, "robbed_kong"),
            }
            for s in shares
        ]
    if options["hangzhou_pao"] and relations:
        total = sum(s["total"] for s in shares)
        liable = []
        for b in range(4):
            if b == w.seat:
                continue
            m = ((w.seat, b) in relations) + ((b, w.seat) in relations)
            if m:
                liable.append((b, m))
        if liable:
            lines = [
                {
                    "from": b,
                    "to": w.seat,
                    "points": m * total,
                    "why": f"包 (3 claims{', double 包' if m == 2 else ''}): pays the whole win {total}"
                    + (f" ×{m}" if m > 1 else ""),
                    "reason": {"code": "bao", "times": m, "total": total},
                }
                for b, m in liable
            ]
    return lines


def settle(record: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    check_record(record)  # the declared keys only (record_keys.py), counts in range
    if not isinstance(record, dict):
        raise SettlementError("", "a hand record must be a JSON object")
    dealer = _seat(record.get("dealer"), "dealer")
    result = record.get("result")
    if not isinstance(result, dict):
        raise SettlementError("result", "missing or not an object")
    kind = win_kind(result.get("type"), "result.type")
    if kind == "discard" and _flag(result, "qianggang", "result.qianggang"):
        kind = "qianggang"
    sl = options["shanglou"]
    streak = record.get("dealer_streak", 1)
    if isinstance(streak, bool) or not isinstance(streak, int) or streak < 1:
        raise SettlementError("dealer_streak", f"must be an integer ≥ 1 (1 = the dealer's first hand), got {streak!r}")
    after_draw = _flag(record, "after_draw", "after_draw")
    if "shanglou" in record:
        shanglou = _flag(record, "shanglou", "shanglou") and sl["enabled"]
    else:
        shanglou = sl["enabled"] and (
            (sl["after_draw"] and after_draw) or (sl["dealer_streak"] > 0 and streak >= sl["dealer_streak"])
        )
    mult = 2 if shanglou else 1
    shaozhuang = _flag(record, "shaozhuang", "shaozhuang")
    notes = []
    deltas = [0, 0, 0, 0]
    payments = []
    winners_out = []
    wild = _wildcard(record, [(result, "result."), (record, "")])

    def pay(line: dict[str, Any]) -> None:
        if line["points"]:
            deltas[line["from"]] -= line["points"]
            deltas[line["to"]] += line["points"]
        payments.append(line)

    repeats = True
    extra: dict[str, Any] = {}
    if kind == "draw":
        if shaozhuang and options["shaozhuang"]["enabled"]:
            notes.append("焼荘 penalty waived on a draw (流局)")
    elif kind == "chombo":
        seat = _seat(result.get("seat"), "result.seat")
        c = options["chombo"]
        if c["mode"] == "fixed":
            for p in range(4):
                if p != seat:
                    pay(
                        {
                            "from": seat,
                            "to": p,
                            "points": c["points"],
                            "why": "chombo (false win): fixed penalty",
                            "reason": R_CHOMBO,
                        }
                    )
        else:
            claimed = result.get("claimed")
            if not isinstance(claimed, dict):
                raise SettlementError(
                    "result.claimed",
                    "required with chombo mode 'reverse': the claimed win {type, factors, kongs, from}",
                )
            ck = win_kind(claimed.get("type", "tsumo"), "result.claimed.type")
            if ck not in ("self_draw", "discard", "qianggang"):
                raise SettlementError("result.claimed.type", "must be a win type (tsumo, ron or qianggang)")
            frm = _seat(claimed.get("from"), "result.claimed.from", required=ck != "self_draw")
            cw = dict(claimed)
            cw["winner"] = seat
            w = build_win(record, result, cw, "result.claimed", options, dealer, ck, frm, validate=False)
            for line in liable_lines(w, win_shares(w, dealer, options, 1), options, set()):
                pay(
                    {
                        "from": seat,
                        "to": line["from"],
                        "points": line["points"],
                        "why": f"chombo (false win), reverse payment: {line['why']}",
                        "reason": R_CHOMBO_REVERSE,
                    }
                )
        extra["chombo_seat"] = seat
    else:
        frm = None
        if kind in ("discard", "qianggang"):
            frm = _seat(result.get("from"), "result.from")
        relations = _claims(result, options)
        if "winners" in result:
            raw = result["winners"]
            if not isinstance(raw, list) or not raw:
                raise SettlementError("result.winners", "must be a non-empty list")
            if len(raw) > 1 and kind != "discard":
                raise SettlementError("result.winners", "several winners only on one discard")
            items = [(wd, f"result.winners[{i}]") for i, wd in enumerate(raw)]
            for wd, fp in items:
                if not isinstance(wd, dict):
                    raise SettlementError(fp, "must be an object")
        else:
            items = [(result, "result")]
        wins = [build_win(record, result, wd, fp, options, dealer, kind, frm) for wd, fp in items]
        for i, x in enumerate(wins):
            if "menqing" in x.factors and any(by == x.seat for by, _ in relations):
                raise SettlementError("result.claims", f"seat {x.seat} made claims, so the hand is not menqing (門清)")
        seats = [x.seat for x in wins]
        if len(set(seats)) != len(seats):
            raise SettlementError("result.winners", "the same seat wins twice")
        if len(wins) > 1 and options["multiple_winners"] == "head_bump":
            wins.sort(key=lambda x: (cast(int, x.seat) - cast(int, frm)) % 4)  # seats, validated
            extra["head_bumped"] = [x.seat for x in wins[1:]]
            wins = wins[:1]
        for w in wins:
            shares = win_shares(w, dealer, options, mult)
            lines = liable_lines(w, shares, options, relations)
            for line in lines:
                pay(line)
            winners_out.append(
                {
                    "seat": w.seat,
                    "type": w.kind,
                    "from": w.frm,
                    "special": w.special,
                    "factors": w.factors + w.extra_ids,
                    "factor_names": [zh_name(f) for f in w.factors] + w.extra_ids,
                    "derived_from_tiles": w.derived,
                    "kongs": w.kongs,
                    "shares": [{k: s[k] for k in ("seat", "hand", "kong", "fixed", "total")} for s in shares],
                    "total": sum(line["points"] for line in lines),
                }
            )
            if w.wild is not None and wild is None:
                wild = w.wild
        repeats = any(w.seat == dealer for w in wins)
        if shaozhuang:
            if options["shaozhuang"]["enabled"]:
                pts = options["shaozhuang"]["points"]
                for p in range(4):
                    if p != dealer:
                        pay(
                            {
                                "from": dealer,
                                "to": p,
                                "points": pts,
                                "why": "焼荘 (four identical first discards): dealer's penalty",
                                "reason": R_SHAOZHUANG,
                            }
                        )
            else:
                notes.append("shaozhuang flagged but the 焼荘 rule is off")
    dealer_next = dealer if repeats else (dealer + 1) % 4
    streak_next = streak + 1 if repeats else 1
    shanglou_next = sl["enabled"] and (
        (sl["after_draw"] and kind == "draw") or (sl["dealer_streak"] > 0 and streak_next >= sl["dealer_streak"])
    )
    out = {
        "system": "beijing",
        "deltas": deltas,
        "payments": payments,
        "penalties": [],
        "result": kind,
        "winners": winners_out,
        "dealer_next": dealer_next,
        "dealer_repeats": repeats,
        "dealer_streak_next": streak_next,
        "shanglou": shanglou,
        "shanglou_next": shanglou_next,
        "notes": notes,
    }
    if wild is not None:
        out["wildcard"] = tile_name(wild)
    out.update(extra)
    assert sum(deltas) == 0
    return out
