"""Beijing rule options: the preset, one-line docs, and validation (``resolve``)."""

from __future__ import annotations

import copy
from typing import Any

from ..errors import SettlementError

PRESETS: dict[str, dict[str, Any]] = {
    "beijing": {
        "base": 1,
        "kong_points": {"open": 1, "concealed": 2, "added": 1},
        "dealer_doubles_kong": True,
        "gangkai_doubles_kong": True,
        "discarder_pays_all": False,
        "pays_all_self_draw_double": True,
        "fixed_hands": {"tianhu": 20, "dihu": 20, "hungang": 20},
        "chombo": {"mode": "fixed", "points": 20},
        "shaozhuang": {"enabled": False, "points": 10},
        "shanglou": {"enabled": False, "after_draw": True, "dealer_streak": 0, "scope": "all"},
        "qianggang_pao": False,
        "hangzhou_pao": False,
        "multiple_winners": "head_bump",
        "furiten": "next_turn",
        "duanmen": False,
        "claim_limit": False,
        "hunyou_meihuar": False,
        "benhunlong_meihuar": False,
        "extra_factors": {},
    },
}

OPTION_DOCS: dict[str, str] = {
    "base": "Base rate r: the value of one point (a hand with no factor is worth r).",
    "kong_points": "Points per kong of the winner, paid by each opponent: open (exposed) 1, concealed 2; "
    "an added kong (加槓) counts as open by default.",
    "dealer_doubles_kong": "Kong points are doubled when the dealer pays or receives them (off: some players don't).",
    "gangkai_doubles_kong": "The 槓開 factor also doubles kong points (S4: yes).",
    "discarder_pays_all": "点炮包荘 / 大包: on a discard win the discarder alone pays the three players' shares "
    "(without the discarder ×2).",
    "pays_all_self_draw_double": "With discarder_pays_all: self-draws keep the 提溜 ×2 (to be agreed; default keep).",
    "fixed_hands": "Fixed values of 天和 / 地和 / 混槓, paid equally by each of the three, no factors.",
    "chombo": "False win: {'mode': 'fixed', 'points': 20} to each of the three, or {'mode': 'reverse'} "
    "(each player receives what he would have paid for the claimed hand).",
    "shaozhuang": "焼荘 / 荒荘: if the first go-around had four identical discards (record flag 'shaozhuang') "
    "and the hand ends in a win, the dealer pays 'points' to each of the other three; waived on a draw.",
    "shanglou": "上楼: the hand after a draw (after_draw) and/or from the dealer's Nth consecutive hand "
    "(dealer_streak, 0 = off) scores ×2; scope 'all' (hand + kong + fixed hands), "
    "'hand_and_kong' or 'hand'. Penalties are never doubled.",
    "qianggang_pao": "搶槓包: the robbed player alone pays the sum of the three self-draw-style shares.",
    "hangzhou_pao": "杭州流の3副露の包: a player who made 3 claims from another's discards is in 包 with him; "
    "each pays the other's entire win alone (double 包 ×2).",
    "multiple_winners": "Several winners on one discard: 'head_bump' (the first after the discarder in turn "
    "order wins alone) or 'all'.",
    "furiten": "After passing a winnable discard no discard win until the player's 'next_turn' (S4 2015-12) "
    "or until he has 'draw_or_call'ed; the declaration's 'passed' list follows this window.",
    "duanmen": "断門: a winning hand must lack at least one of the three number suits.",
    "claim_limit": "食いの回数制限: at most one chow/pong per player per hand (exposed kongs without pong are free).",
    "hunyou_meihuar": "Treat 混悠 (wildcard single wait, one wildcard) as 没混 (×2).",
    "benhunlong_meihuar": "Treat 本混龍 (one wildcard inside a 龍, face in the 龍's suit) as 没混 (×2).",
    "extra_factors": "Table-agreed extra patterns {id: k} (each ×2^k), e.g. {'qingyise': 1}; S4 gives no values.",
}

_MW = ("head_bump", "all")
_SCOPES = ("all", "hand_and_kong", "hand")


def _int(v: object, field: str, minimum: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise SettlementError(field, f"must be an integer ≥ {minimum}, got {v!r}")
    return v


def _bool(v: object, field: str) -> bool:
    if not isinstance(v, bool):
        raise SettlementError(field, f"must be true or false, got {v!r}")
    return v


def _dict(v: object, field: str, default: dict[str, Any], allowed: set[str] | None = None) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise SettlementError(field, f"must be an object, got {v!r}")
    allowed = set(default) if allowed is None else allowed
    for k in v:
        if k not in allowed:
            raise SettlementError(f"{field}.{k}", f"unknown key; known: {', '.join(sorted(allowed))}")
    out = dict(default)
    out.update(v)
    return out


def resolve(spec: Any) -> dict[str, Any]:
    """``{"preset": "beijing", **overrides}`` (or a preset name) → full validated options."""
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, dict):
        raise SettlementError("rules", "expected a preset name or an object with 'preset'")
    name = spec.get("preset", "beijing")
    if name not in PRESETS:
        raise SettlementError("rules.preset", f"unknown Beijing preset {name!r}; known: {', '.join(PRESETS)}")
    base = copy.deepcopy(PRESETS[name])
    overrides = {k: v for k, v in spec.items() if k != "preset"}
    for k in overrides:
        if k not in base:
            raise SettlementError(f"rules.{k}", f"unknown option; known: {', '.join(sorted(base))}")
    o = base
    for k, v in overrides.items():
        f = f"rules.{k}"
        if isinstance(o[k], dict) and k != "extra_factors":
            o[k] = _dict(v, f, o[k], {"mode", "points"} if k == "chombo" else None)
        else:
            o[k] = copy.deepcopy(v)
    # validate everything (preset values included)
    _int(o["base"], "rules.base", 1)
    for kk in ("open", "concealed", "added"):
        _int(o["kong_points"][kk], f"rules.kong_points.{kk}")
    for kk in (
        "dealer_doubles_kong",
        "gangkai_doubles_kong",
        "discarder_pays_all",
        "pays_all_self_draw_double",
        "qianggang_pao",
        "hangzhou_pao",
        "duanmen",
        "claim_limit",
        "hunyou_meihuar",
        "benhunlong_meihuar",
    ):
        _bool(o[kk], f"rules.{kk}")
    for kk in ("tianhu", "dihu", "hungang"):
        _int(o["fixed_hands"][kk], f"rules.fixed_hands.{kk}")
    c = o["chombo"]
    if c.get("mode") not in ("fixed", "reverse"):
        raise SettlementError("rules.chombo.mode", f"must be 'fixed' or 'reverse', got {c.get('mode')!r}")
    if c["mode"] == "fixed":
        _int(c.get("points"), "rules.chombo.points")
    _bool(o["shaozhuang"]["enabled"], "rules.shaozhuang.enabled")
    _int(o["shaozhuang"]["points"], "rules.shaozhuang.points")
    s = o["shanglou"]
    _bool(s["enabled"], "rules.shanglou.enabled")
    _bool(s["after_draw"], "rules.shanglou.after_draw")
    _int(s["dealer_streak"], "rules.shanglou.dealer_streak")
    if s["scope"] not in _SCOPES:
        raise SettlementError("rules.shanglou.scope", f"must be one of {', '.join(_SCOPES)}, got {s['scope']!r}")
    if o["multiple_winners"] not in _MW:
        raise SettlementError(
            "rules.multiple_winners", f"must be one of {', '.join(_MW)}, got {o['multiple_winners']!r}"
        )
    if o["furiten"] not in ("next_turn", "draw_or_call"):
        raise SettlementError("rules.furiten", f"must be 'next_turn' or 'draw_or_call', got {o['furiten']!r}")
    ef = o["extra_factors"]
    if not isinstance(ef, dict):
        raise SettlementError("rules.extra_factors", "must be an object {id: doublings}")
    from .factors import ALIASES

    for kk, vv in ef.items():
        if not isinstance(kk, str) or not kk or kk in ALIASES:
            raise SettlementError(f"rules.extra_factors.{kk}", "must be a new pattern id, not a standard factor")
        _int(vv, f"rules.extra_factors.{kk}", 1)
    return o
