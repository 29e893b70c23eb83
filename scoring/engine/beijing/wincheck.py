"""``win_check``: why a declared Beijing win would be false (empty list = the win stands)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import SettlementError
from ..tiles import parse_tile, parse_tiles, tile_name
from .factors import ALIASES
from .hand import analyse, is_complete_with, next_tile
from .settle import win_kind

_REASONS = {
    "dead_hand": ("the declarer's hand is dead (上がり放棄)", "已放弃和牌(死手)"),
    "wildcard_discarded": (
        "the declarer discarded a 混 (wildcard) this hand and forfeited winning (上がり放棄)",
        "打出过混儿,本局放弃和牌",
    ),
    "tile_count": ("wrong number of tiles (大相公/小相公): winning is forfeited", "大相公/小相公,放弃和牌"),
    "wildcard_in_meld": ("a meld containing a 混 cannot be claimed or exposed", "含混儿的副露不能吃碰杠"),
    "not_complete": ("not a complete hand (4 melds + a pair, or seven pairs)", "牌型未和(需四组一对或七对)"),
    "open_hand_discard": (
        "a discard win needs a concealed hand: after a chow, pong or exposed kong a hand wins only by self-draw (吃碰提)",
        "吃碰明杠后只能自摸(提溜),不能点炮和",
    ),
    "discarded_wildcard_win": ("no one can win on a discarded 混 (wildcard)", "不能和别人打出的混儿"),
    "three_wildcards_discard": ("with three 混 in hand a player wins only by self-draw", "手中有三张混儿只能自摸"),
    "hunyou_discard": (
        "混悠 (wildcard single wait) wins only by self-draw, even when concealed",
        "混悠(混儿单吊)只能自摸",
    ),
    "qidui_not_concealed": ("seven pairs (七対) needs a concealed hand (門清)", "七对必须门清"),
    "gangkai_discard": ("槓開 is a kong-replacement win, always a self-draw", "杠开只能是自摸"),
    "furiten_passed": (
        "the declarer passed a winnable discard and cannot win on a discard until his next turn (見逃し)",
        "漏和后到自己下一巡前不能点炮和",
    ),
    "duanmen": ("断門 is required: the hand must lack one of the three number suits", "须断门(缺一门)"),
    "claim_limit": ("more than one chow/pong this hand (食いの回数制限)", "本局吃碰超过一次"),
    "qianggang_not_added": (
        "only an added kong (加槓) can be robbed, or a concealed kong when the wait is in one of a 龍's melds",
        "只能抢加杠;暗杠仅在和张属于一条龙时可抢",
    ),
}


def _reason(code: str, extra: str = "") -> dict[str, Any]:
    en, zh = _REASONS[code]
    return {"code": code, "message": en + (f" ({extra})" if extra else ""), "message_zh": zh}


def _opts(options: dict[str, Any] | None) -> dict[str, Any]:
    from .options import resolve

    if options is None:
        return resolve({"preset": "beijing"})
    if "preset" in options:
        return resolve(options)
    return options


def win_check(declaration: dict[str, Any], options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Reasons why ``declaration`` (see docs/engine-interfaces.md) is a false win; ``[]`` if it stands."""
    if not isinstance(declaration, dict):
        raise SettlementError("declaration", "must be an object")
    o = _opts(options)
    kind = win_kind(declaration.get("type", "tsumo"), "type")
    if kind not in ("self_draw", "discard", "qianggang"):
        raise SettlementError("type", "must be a win type (tsumo, ron, qianggang)")
    by_discard = kind in ("discard", "qianggang")
    reasons: list[dict[str, Any]] = []
    # add(code, extra="")
    add: Callable[..., None] = lambda code, extra="": reasons.append(_reason(code, extra))  # noqa: E731

    wild = None
    if declaration.get("wildcard") is not None:
        wild = parse_tile(declaration["wildcard"], "wildcard")
    elif declaration.get("wildcard_indicator") is not None:
        wild = next_tile(parse_tile(declaration["wildcard_indicator"], "wildcard_indicator"))

    if declaration.get("dead_hand"):
        add("dead_hand")
    own = parse_tiles(declaration.get("discards") or [], "discards")
    if declaration.get("discarded_wildcard") or (wild is not None and wild in own):
        add("wildcard_discarded")

    factors = declaration.get("factors")
    fl = [ALIASES.get(f, f) for f in factors] if isinstance(factors, list) else None
    if fl is not None:
        if "qidui" in fl and "menqing" not in fl:
            add("qidui_not_concealed")
        if "gangkai" in fl and by_discard:
            add("gangkai_discard")

    hand = declaration.get("hand")
    if hand is None:
        open_ = bool(declaration.get("open")) or (fl is not None and "menqing" not in fl)
        wc = declaration.get("wildcards") or 0
        if by_discard:
            if open_:
                add("open_hand_discard")
            if kind == "discard" and declaration.get("winning_tile_wildcard"):
                add("discarded_wildcard_win")
            if 3 <= wc < 4:
                add("three_wildcards_discard")
            if declaration.get("hunyou"):
                add("hunyou_discard")
        return reasons

    try:
        an = analyse(hand, None if wild is None else tile_name(_prev(wild)), o, "hand")
    except SettlementError as exc:
        if "相公" in exc.message:
            add("tile_count", exc.message)
            return reasons
        if "混" in exc.message and "meld" in exc.message:
            add("wildcard_in_meld", exc.field)
            return reasons
        raise
    if an.hungang:  # 混槓: any shape, any way
        return reasons
    if not an.complete:
        add("not_complete")
    if by_discard:
        if an.open:
            add("open_hand_discard")
        if kind == "discard" and an.win_is_wild:
            add("discarded_wildcard_win")
        if an.jokers >= 3:
            add("three_wildcards_discard")
        if an.hunyou:
            add("hunyou_discard")
        passed = [t for t in parse_tiles(declaration.get("passed") or [], "passed") if t != wild]
        if passed and not an.open and an.jokers13 < 3 and not an.hunyou:
            winnable = [t for t in passed if is_complete_with(an.concealed, an.melds, t, wild)]
            if winnable:
                add("furiten_passed", "passed " + ", ".join(tile_name(t) for t in winnable))
    if kind == "qianggang":
        robbed = declaration.get("robbed_kong", "added")
        if robbed in ("concealed", "ankan"):
            if not any(r.long_tiles_win for r in an.readings):
                add("qianggang_not_added", "concealed kong")
        elif robbed not in ("added", "kakan"):
            add("qianggang_not_added", str(robbed))
    if an.complete and o.get("duanmen") and an.best(True) is None:
        add("duanmen")
    if o.get("claim_limit") and an.claims > 1:
        add("claim_limit", f"{an.claims} claims")
    return reasons


def _prev(t: int) -> int:
    for i in range(34):
        if next_tile(i) == t:
            return i
    raise AssertionError(t)
