"""Display names for the scoring engine's codes and texts (result kinds, abortive-draw reasons,
limit names, payment reasons, error messages), translated through gettext.

The engine is pure and speaks English codes; pages and the scorekeeper's API answers pass
through here so a zh-Hant page never shows ``ron`` or ``must be a seat 0-3``. Unknown text is
returned unchanged (a new engine message shows in English rather than not at all)."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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


def limit_name(name) -> str:
    if not name:
        return ""
    found = LIMITS.get(name)
    if found is not None:
        return str(found)
    m = re.fullmatch(r"(\d+)x yakuman", name)
    return _("%(n)s× yakuman") % {"n": m.group(1)} if m else name


def hand_value(winner: dict) -> str:
    """'3 han 30 fu', '6 han · haneman', 'yakuman' for one winner of a riichi settlement."""
    if winner.get("yakuman"):
        return limit_name(winner.get("limit")) or _("yakuman")
    han, fu, limit = winner.get("han"), winner.get("fu"), winner.get("limit")
    if han is None:
        return limit_name(limit)
    text = _("%(han)s han %(fu)s fu") % {"han": han, "fu": fu} if fu else _("%(han)s han") % {"han": han}
    return f"{text} · {limit_name(limit)}" if limit else text


_WIN_WHY = re.compile(r"^(ron|tsumo) (?:(\d+) han )?(?:(\d+) fu)? ?(.*?)(?: \((?:pao: )?(liable half|discarder half|"
                      r"liable pays all|liable yakuman|yakuman not under pao)\))?$")


def payment_why(why: str) -> str:
    """The engine's reason for one payment (``ron 3 han 30 fu``, ``1 honba``...) in the page's language."""
    if not why:
        return ""
    fixed = {
        "riichi deposit": _("riichi stick"),
        "riichi deposits": _("riichi sticks on the table"),
        "noten payment": _("no-ten payment"),
        "nagashi mangan": _("nagashi mangan"),
        "chombo (reverse mangan)": _("chombo (reverse mangan)"),
        "chombo": _("chombo"),
    }
    if why in fixed:
        return fixed[why]
    m = re.fullmatch(r"(\d+) honba", why)
    if m:
        return _("%(n)s honba") % {"n": m.group(1)}
    m = _WIN_WHY.match(why)
    if m:
        how, han, fu, limit, pao = m.groups()
        parts = [result_kind(how).split(" (")[0]]
        if han:
            parts.append(_("%(han)s han") % {"han": han})
        if fu:
            parts.append(_("%(fu)s fu") % {"fu": fu})
        if limit:
            parts.append(limit_name(limit))
        text = " ".join(parts)
        if pao:
            text += " (" + {"liable half": _("liable player's half"), "discarder half": _("discarder's half"),
                            "liable pays all": _("liable player pays all"),
                            "liable yakuman": _("liable player's yakuman"),
                            "yakuman not under pao": _("yakuman without liability")}[pao] + ")"
        return text
    return ""  # an engine text with no translation (Zung Jung bands, Beijing patterns): the kind says enough


def settlement_display(settlement: dict, names: list[str]) -> dict:
    """Translated lines of a settlement for pages: who paid whom and why, penalties, winners' values."""
    def who(seat):
        return _("the table") if seat is None else names[seat]

    return {
        "payments": [{"from": who(p.get("from")), "to": who(p.get("to")), "points": p.get("points"),
                      "why": payment_why(p.get("why", ""))} for p in settlement.get("payments", [])],
        "penalties": [{"seat": who(p.get("seat")), "points": p.get("points"), "why": payment_why(p.get("why", ""))}
                      for p in settlement.get("penalties", [])],
        "winners": [{"seat": who(w.get("seat")), "value": hand_value(w), "points": w.get("value")}
                    for w in settlement.get("winners", []) if isinstance(w, dict)],
    }


def hands_explained(hands, seats) -> list[dict]:
    """Each stored hand of a game in words: its kind and value, winners, who paid whom (from the
    stored settlement), riichi declarations, honba and sticks, and the running scores."""
    names = [s.player.display_name for s in seats]

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
            winners = [{"seat": name(seat), "value": _("%(n)s points") % {"n": value} if value else "",
                        "points": None}]
        rows.append({
            "sequence": hand.sequence, "kind": result_kind(kind) or result_kind(result.get("type")),
            "code": kind, "dealer": name(record.get("dealer")), "honba": record.get("honba", 0),
            "deposits": record.get("deposits", 0),
            "riichi": [name(s) for s in record.get("riichi", []) if isinstance(s, int)],
            "winners": winners, "from": name(result.get("from")),
            "tenpai": [name(s) for s in result.get("tenpai", []) if isinstance(s, int)],
            "reason": abortive_reason(settlement.get("reason") or result.get("reason")),
            "chombo": name(result.get("seat")) if kind == "chombo" else "",
            "payments": shown["payments"], "penalties": shown["penalties"],
            "deltas": settlement.get("deltas", []), "scores": hand.scores_after,
        })
    return rows
