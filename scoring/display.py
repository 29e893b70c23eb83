"""Display names for the scoring engine's codes and texts (result kinds, abortive-draw reasons,
limit names, payment reasons from the engine's ``reason`` objects, error messages), translated through gettext.

The engine is pure and speaks English codes; pages and the scorekeeper's API answers pass
through here so a zh-Hant page never shows ``ron`` or ``must be a seat 0-3``. Unknown text is
returned unchanged (a new engine message shows in English rather than not at all)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from league.names import player_display_name

RESULT_KINDS = {
    "ron": gettext_lazy("Ron"),
    "tsumo": gettext_lazy("Tsumo (self-draw)"),
    "draw": gettext_lazy("Exhaustive draw"),
    "abortive": gettext_lazy("Abortive draw"),
    "chombo": gettext_lazy("Chombo"),
    "self_draw": gettext_lazy("Self-draw"),
    "discard": gettext_lazy("Win on a discard"),
}

ABORTIVE_REASONS = {
    "nine_terminals": gettext_lazy("Nine terminals and honours"),
    "four_winds": gettext_lazy("Four identical winds discarded"),
    "four_riichi": gettext_lazy("Four riichi declarations"),
    "four_kans": gettext_lazy("Four kans by different players"),
    "triple_ron": gettext_lazy("Triple ron"),
}

LIMITS = {
    "mangan": gettext_lazy("mangan"),
    "haneman": gettext_lazy("haneman"),
    "baiman": gettext_lazy("baiman"),
    "sanbaiman": gettext_lazy("sanbaiman"),
    "yakuman": gettext_lazy("yakuman"),
    "double yakuman": gettext_lazy("double yakuman"),
    "triple yakuman": gettext_lazy("triple yakuman"),
    "kazoe yakuman": gettext_lazy("counted yakuman"),
}


def result_kind(code) -> str:
    return str(RESULT_KINDS.get(code, code or ""))


def abortive_reason(code) -> str:
    return str(ABORTIVE_REASONS.get(code, code or ""))


_YAKUMAN_MULTIPLES = {1: LIMITS["yakuman"], 2: LIMITS["double yakuman"], 3: LIMITS["triple yakuman"]}
# a payment reason's limit code (scoring.engine.riichi.settle) → its name
_LIMIT_CODES = {
    "mangan": LIMITS["mangan"],
    "haneman": LIMITS["haneman"],
    "baiman": LIMITS["baiman"],
    "sanbaiman": LIMITS["sanbaiman"],
    "kazoe_yakuman": LIMITS["kazoe yakuman"],
    "yakuman": LIMITS["yakuman"],
}


def limit_name(name: str | None, yakuman: object = 0) -> str:
    """A limit's name: the engine's limit name (a winner's ``limit``) or a payment reason's limit
    code; ``yakuman``: the k-fold yakuman of the hand, which names it (double, triple, k×)."""
    if type(yakuman) is int and yakuman > 0:
        found = _YAKUMAN_MULTIPLES.get(yakuman)
        return str(found) if found is not None else _("%(n)s× yakuman") % {"n": yakuman}
    if not name:
        return ""
    found = LIMITS.get(name) or _LIMIT_CODES.get(name)
    return str(found) if found is not None else name


def hand_value(winner: dict) -> str:
    """'3 han 30 fu', '6 han · haneman', 'yakuman' for one winner of a riichi settlement."""
    if winner.get("yakuman"):
        return limit_name(winner.get("limit"), winner.get("yakuman")) or _("yakuman")
    han, fu, limit = winner.get("han"), winner.get("fu"), winner.get("limit")
    if han is None:
        return limit_name(limit)
    text = _("%(han)s han %(fu)s fu") % {"han": han, "fu": fu} if fu else _("%(han)s han") % {"han": han}
    return f"{text} · {limit_name(limit)}" if limit else text


_HOW = {"ron": gettext_lazy("Ron"), "tsumo": gettext_lazy("Tsumo")}

# pao shares of a riichi win (and of its honba)
_SHARES = {
    "liable_half": gettext_lazy("liable player's half"),
    "discarder_half": gettext_lazy("discarder's half"),
    "liable_all": gettext_lazy("liable player pays all"),
    "liable_yakuman": gettext_lazy("liable player's yakuman"),
    "not_liable": gettext_lazy("yakuman without liability"),
}

_FIXED = {
    "riichi_deposit": gettext_lazy("riichi stick"),
    "deposits": gettext_lazy("riichi sticks on the table"),
    "riichi_deposit_back": gettext_lazy("own riichi stick back"),
    "noten": gettext_lazy("no-ten payment"),
    "nagashi_mangan": gettext_lazy("nagashi mangan"),
    "chombo": gettext_lazy("chombo"),
    "chombo_reverse_mangan": gettext_lazy("chombo (reverse mangan)"),
    "chombo_reverse": gettext_lazy("chombo (reverse payment)"),
    "shaozhuang": gettext_lazy("dealer's penalty (four identical first discards)"),
}

# Zung Jung: what a band of the hand's value is paid for, and how it is split
_BAND_CAUSES = {
    "self_draw": gettext_lazy("Self-draw"),
    "discard": gettext_lazy("Win on a discard"),
    "uniform": gettext_lazy("uniform payoff"),
    "first_discard": gettext_lazy("first discard of the winning tile (same-turn immunity)"),
    "own_earlier": gettext_lazy("winner's own earlier discard"),
    "earlier_discard": gettext_lazy("an earlier discard of the tile"),
}
_BAND_SPLITS = {
    "shared": gettext_lazy("points %(a)s→%(b)s, shared"),
    "below_par": gettext_lazy("points %(a)s→%(b)s, at or below par, shared"),
    "above_par": gettext_lazy("points %(a)s→%(b)s, above par, paid three times"),
}

# Beijing: a payer's share of the win, and who pays it in their place
_SHARE_LIABILITY = {
    None: gettext_lazy("share of the win"),
    "discarder": gettext_lazy("share of the win (paid by the discarder)"),
    "robbed_kong": gettext_lazy("share of the win (paid by the robbed player)"),
}


def _with_share(text: str, share) -> str:
    found = _SHARES.get(share) if share else None
    return f"{text} ({found})" if found is not None else text


def payment_why(reason: object) -> str:
    """One payment's or penalty's ``reason`` (the engine's structured cause of it: ``{"code": "win",
    "how": "ron", "han": 3, "fu": 30}``, ``{"code": "honba", "count": 1}``...) in the page's language;
    "" when there is none (settlements stored before reasons) or the code is unknown."""
    if not isinstance(reason, dict):
        return ""
    code: Any = reason.get("code")
    fixed = _FIXED.get(code)
    if fixed is not None:
        return str(fixed)
    if code == "win":
        how = _HOW.get(reason.get("how", ""))
        parts = [str(how)] if how is not None else []
        if reason.get("han") is not None:
            parts.append(_("%(han)s han") % {"han": reason["han"]})
        if reason.get("fu") is not None:
            parts.append(_("%(fu)s fu") % {"fu": reason["fu"]})
        if reason.get("limit") or reason.get("yakuman"):
            parts.append(limit_name(reason.get("limit"), reason.get("yakuman") or 0))
        return _with_share(" ".join(parts), reason.get("share"))
    if code == "honba":
        return _with_share(_("%(n)s honba") % {"n": reason.get("count")}, reason.get("share"))
    if code == "band":
        cause, split, band = (
            _BAND_CAUSES.get(reason.get("cause", "")),
            _BAND_SPLITS.get(reason.get("split", "")),
            reason.get("band"),
        )
        if cause is None or split is None or not isinstance(band, list) or len(band) != 2:
            return ""
        return _("%(cause)s: %(band)s") % {"cause": cause, "band": split % {"a": band[0], "b": band[1]}}
    if code == "share":
        found = _SHARE_LIABILITY.get(reason.get("liability"))
        return str(found) if found is not None else ""
    if code == "bao":
        times = reason.get("times")
        if type(times) is int and times > 1:
            return _("the whole win ×%(n)s (three claims)") % {"n": times}
        return _("the whole win (three claims)")
    return ""


def settlement_display(settlement: dict, names: list[str]) -> dict:
    """Translated lines of a settlement for pages: who paid whom and why, penalties, winners' values."""

    def who(seat):
        return _("the table") if seat is None else names[seat]

    return {
        "payments": [
            {
                "from": who(p.get("from")),
                "to": who(p.get("to")),
                "points": p.get("points"),
                "why": payment_why(p.get("reason")),
            }
            for p in settlement.get("payments", [])
        ],
        "penalties": [
            {"seat": who(p.get("seat")), "points": p.get("points"), "why": payment_why(p.get("reason"))}
            for p in settlement.get("penalties", [])
        ],
        "winners": [
            {"seat": who(w.get("seat")), "value": hand_value(w), "points": w.get("value")}
            for w in settlement.get("winners", [])
            if isinstance(w, dict)
        ],
    }


def hands_explained(hands, seats) -> list[dict]:
    """Each stored hand of a game in words: its kind and value, winners, who paid whom (from the
    stored settlement), riichi declarations, honba and sticks, and the running scores."""
    names = [player_display_name(s.player) for s in seats]

    def name(seat):
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""

    rows = []
    for hand in hands:
        record, settlement = hand.record, hand.settlement
        result = record.get("result", {}) if isinstance(record.get("result"), dict) else {}
        kind = settlement.get("type", result.get("type", ""))
        shown = settlement_display(settlement, names)
        winners = shown["winners"]
        if not winners and result.get("winner") is not None:  # Zung Jung / Beijing: one winner, a value
            seat = result["winner"] if isinstance(result["winner"], int) else result["winner"].get("seat")
            value = settlement.get("value")
            winners = [{"seat": name(seat), "value": _("%(n)s points") % {"n": value} if value else "", "points": None}]
        rows.append(
            {
                "sequence": hand.sequence,
                "kind": result_kind(kind) or result_kind(result.get("type")),
                "code": kind,
                "dealer": name(record.get("dealer")),
                "honba": record.get("honba", 0),
                "deposits": record.get("deposits", 0),
                "riichi": [name(s) for s in record.get("riichi", []) if isinstance(s, int)],
                "winners": winners,
                "from": name(result.get("from")),
                "tenpai": [name(s) for s in result.get("tenpai", []) if isinstance(s, int)],
                "reason": abortive_reason(settlement.get("reason") or result.get("reason")),
                "chombo": name(result.get("seat")) if kind == "chombo" else "",
                "payments": shown["payments"],
                "penalties": shown["penalties"],
                "deltas": settlement.get("deltas", []),
                "scores": hand.scores_after,
            }
        )
    return rows
