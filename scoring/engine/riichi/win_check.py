"""Riichi false-win (錯和) check: why a declared win would not stand.

``win_check(declaration, options) -> list[dict]``; an empty list means the win stands. Each
reason is ``{"code", "message", "message_zh"}`` with ``code`` one of:

* ``bad_declaration``: the declaration itself is malformed (type, seat, flags that cannot apply);
* ``ron_from_self``: a ron on the declarer's own discard;
* ``invalid_tiles``: tiles that cannot be read, or the wrong number of them;
* ``incomplete``: the tiles are not a complete hand;
* ``no_yaku``: no yaku, or the yaku make fewer han than ``min_han`` (dora do not count);
* ``furiten_discards``: ron while one of the declarer's own discards is among the waits;
* ``furiten_temporary``: ron after a waiting tile was passed since the declarer's last draw
  (``passed``; 同巡振聽);
* ``furiten_riichi``: ron after a waiting tile was passed after riichi
  (``passed_after_riichi``, checked when the declaration says riichi; 立直後振聽);
* ``dead_hand``: the declarer's hand was dead (``dead_hand: true``).

Furiten applies to ron only (a self-draw is never furiten). The waits are those of the 13 tiles
before the winning tile (concealed tiles; melds are fixed), whatever their yaku, leaving out a
tile the hand itself already holds four of.

Declaration (``docs/engine-interfaces.md``): ``seat``, ``type`` (``ron``/``discard`` or
``tsumo``/``self_draw``), ``from``, ``hand`` ({``concealed``, ``melds``, ``tile``}),
``seat_wind`` (or ``dealer``), ``round_wind``, ``dora_indicators``, ``ura_indicators``,
``riichi``, ``double_riichi``, ``flags`` (as in :mod:`.hand`), ``aka``, ``discards``, ``passed``,
``passed_after_riichi``, ``dead_hand``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mahjong.agari import Agari

from ..errors import SettlementError
from ..tiles import parse_tiles, tile_name, tiles_to_string
from .hand import FLAG_NAMES, evaluate_hand, parse_winner_hand

__all__ = ["win_check", "waits"]

_RON = ("ron", "discard")
_TSUMO = ("tsumo", "self_draw")


def _reason(code: str, message: str, message_zh: str) -> dict[str, Any]:
    return {"code": code, "message": message, "message_zh": message_zh}


def waits(concealed: list[int], melds_count_tiles: list[int] | None = None) -> list[int]:
    """34-indices the concealed tiles (13 − 3 per meld) wait on.

    ``melds_count_tiles``: the meld tiles, only so that a tile held four times in all is left out.
    """
    counts = [0] * 34
    for t in concealed:
        counts[t] += 1
    held = list(counts)
    for t in melds_count_tiles or []:
        held[t] += 1
    out = []
    for t in range(34):
        if held[t] >= 4:
            continue
        counts[t] += 1
        if Agari.is_agari(counts):
            out.append(t)
        counts[t] -= 1
    return out


def _names(tiles: Iterable[int]) -> str:
    return tiles_to_string(sorted(set(tiles)))


def win_check(declaration: dict[str, Any], options: dict[str, Any]) -> list[dict[str, Any]]:
    """Reasons the riichi win ``declaration`` is false under ``options`` (empty: it stands)."""
    options = options or {}
    reasons: list[dict[str, Any]] = []
    if not isinstance(declaration, dict):
        return [_reason("bad_declaration", "the declaration must be an object", "和牌宣告格式錯誤")]

    kind = declaration.get("type")
    seat = declaration.get("seat")
    if kind not in _RON + _TSUMO:
        reasons.append(
            _reason(
                "bad_declaration",
                f"type must be 'ron' or 'tsumo', got {kind!r}",
                f"和牌方式須為「榮和」(ron) 或「自摸」(tsumo),收到 {kind!r}",
            )
        )
    if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat <= 3):
        reasons.append(_reason("bad_declaration", f"seat must be 0..3, got {seat!r}", f"座位須為 0..3,收到 {seat!r}"))
        seat = None
    is_ron = kind in _RON
    if is_ron:
        src = declaration.get("from")
        if src is not None and not (isinstance(src, int) and not isinstance(src, bool) and 0 <= src <= 3):
            reasons.append(
                _reason(
                    "bad_declaration", f"from must be a seat 0..3, got {src!r}", f"放銃者座位須為 0..3,收到 {src!r}"
                )
            )
        elif src is not None and seat is not None and src == seat:
            reasons.append(
                _reason(
                    "ron_from_self",
                    "a ron cannot be declared on one's own discard",
                    "不能榮和自己打出的牌",
                )
            )

    if declaration.get("dead_hand"):
        reasons.append(
            _reason(
                "dead_hand",
                "the hand is dead (e.g. a wrong number of tiles or an illegal call earlier): it cannot win",
                "此手牌已成死牌(如相公或錯誤叫牌),不能和牌",
            )
        )

    # ---- tiles
    try:
        concealed, melds, win = parse_winner_hand(declaration.get("hand"), "hand")
    except SettlementError as exc:
        reasons.append(_reason("invalid_tiles", str(exc), f"牌張有誤:{exc}"))
        return reasons

    meld_tiles = [t for _, ts in melds for t in ts]
    wait_list = waits(concealed, meld_tiles)
    counts = [0] * 34
    for t in concealed + [win]:
        counts[t] += 1
    if not Agari.is_agari(counts):
        reasons.append(
            _reason(
                "incomplete",
                f"not a complete hand: {tiles_to_string(concealed)} + {tile_name(win)}"
                + (f" (waits: {_names(wait_list)})" if wait_list else " (not ready)"),
                f"未成和牌型:{tiles_to_string(concealed)} + {tile_name(win)}"
                + (f"(聽 {_names(wait_list)})" if wait_list else "(未聽牌)"),
            )
        )
        return reasons

    # ---- yaku (only when the declaration's type is known)
    if kind in _RON + _TSUMO:
        winner = _winner_from(declaration)
        try:
            evaluate_hand(winner, options, tsumo=not is_ron, field="declaration")
        except SettlementError as exc:
            msg = exc.message
            if msg.startswith("no yaku"):
                min_han = options.get("min_han", 1) or 1
                reasons.append(
                    _reason(
                        "no_yaku",
                        msg,
                        "無役(寶牌不算役)" if min_han <= 1 else f"役的飜數未達最低 {min_han} 飜(寶牌不算)",
                    )
                )
            elif msg.startswith("not a complete hand"):
                reasons.append(_reason("incomplete", msg, "未成和牌型"))
            elif exc.field.startswith("declaration.hand") or exc.field.startswith("declaration.aka"):
                reasons.append(_reason("invalid_tiles", str(exc), f"牌張有誤:{exc}"))
            else:
                reasons.append(_reason("bad_declaration", str(exc), f"和牌宣告有誤:{exc}"))

    # ---- furiten (ron only)
    if is_ron:
        wait_set = set(wait_list)
        try:
            discards = parse_tiles(declaration.get("discards") or [], "discards")
            passed = parse_tiles(declaration.get("passed") or [], "passed")
            passed_riichi = parse_tiles(declaration.get("passed_after_riichi") or [], "passed_after_riichi")
        except SettlementError as exc:
            reasons.append(_reason("invalid_tiles", str(exc), f"牌張有誤:{exc}"))
            return reasons
        hit = wait_set.intersection(discards)
        if hit:
            reasons.append(
                _reason(
                    "furiten_discards",
                    f"furiten: the hand waits on {_names(wait_set)} and the declarer discarded {_names(hit)}; "
                    "a ron is not allowed",
                    f"振聽:聽 {_names(wait_set)},而自己曾打出 {_names(hit)},不能榮和",
                )
            )
        hit = wait_set.intersection(passed)
        if hit:
            reasons.append(
                _reason(
                    "furiten_temporary",
                    f"temporary furiten: a waiting tile ({_names(hit)}) was passed since the declarer's "
                    "last draw; a ron is not allowed until the next draw",
                    f"同巡振聽:自己上次摸牌後已放過聽的牌 {_names(hit)},在下次摸牌前不能榮和",
                )
            )
        riichi = bool(declaration.get("riichi") or declaration.get("double_riichi"))
        flags = declaration.get("flags")
        if isinstance(flags, dict):
            riichi = riichi or bool(flags.get("riichi") or flags.get("double_riichi"))
        hit = wait_set.intersection(passed_riichi)
        if riichi and hit:
            reasons.append(
                _reason(
                    "furiten_riichi",
                    f"riichi furiten: a waiting tile ({_names(hit)}) was passed after riichi; "
                    "a ron is not allowed for the rest of the hand",
                    f"立直後振聽:立直後放過聽的牌 {_names(hit)},本局不能再榮和",
                )
            )
    return reasons


def _winner_from(declaration: dict[str, Any]) -> dict[str, Any]:
    """Declaration → the winner dict of :func:`.hand.evaluate_hand`."""
    flags = {}
    raw = declaration.get("flags")
    if isinstance(raw, dict):
        flags.update({k: v for k, v in raw.items() if k in FLAG_NAMES})
    for name in FLAG_NAMES:
        if declaration.get(name):
            flags[name] = True
    winner = {
        "seat": declaration.get("seat"),
        "hand": declaration.get("hand"),
        "flags": flags,
    }
    for key in ("seat_wind", "round_wind", "dealer", "dora_indicators", "ura_indicators", "aka"):
        if key in declaration:
            winner[key] = declaration[key]
    if "ura_dora_indicators" in declaration and "ura_indicators" not in winner:
        winner["ura_indicators"] = declaration["ura_dora_indicators"]
    return winner
