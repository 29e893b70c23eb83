"""Display names for the scoring engine's codes and texts (result kinds, abortive-draw reasons,
limit names, payment reasons, error messages), translated through gettext.

The engine is pure and speaks English codes; pages and the scorekeeper's API answers pass
through here so a zh-Hant page never shows ``ron`` or ``must be a seat 0-3``. Unknown text is
returned unchanged (a new engine message shows in English rather than not at all)."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
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


# ---------------------------------------------------------------- error messages

_SEAT = r"(?:\w+|'.*?')"
_ERRORS = [  # (pattern of the engine/service message, translated template)
    (r"must be a seat 0-3, got .*", gettext_lazy("pick a seat")),
    (r"must be a list of seats 0-3, got .*", gettext_lazy("pick the seats")),
    (r"lists a seat twice", gettext_lazy("a seat is picked twice")),
    (r"missing: the winner's seat 0-3", gettext_lazy("pick the winner")),
    (r"missing: the winner .*", gettext_lazy("pick the winner")),
    (r"must be a non-empty list of winners", gettext_lazy("pick the winner")),
    (r"missing: the seat that discarded the winning tile", gettext_lazy("pick the player who discarded the winning tile")),
    (r"a player cannot ron their own discard", gettext_lazy("the winner cannot win on their own discard")),
    (r"seat (\d) is listed as a winner twice", gettext_lazy("a winner is picked twice")),
    (r"missing: give han \(and fu below 5 han\) or yakuman", gettext_lazy("give the han (and fu) or yakuman")),
    (r"must be an integer of at least 1, got .*", gettext_lazy("give at least 1 han")),
    (r"below the minimum of (?P<n>\d+) han", gettext_lazy("below the minimum of %(n)s han")),
    (r"missing: a (?P<han>\d+) han hand needs fu", gettext_lazy("a %(han)s han hand needs fu")),
    (r"must be 20, 25 or a multiple of 10 from 30 to (?P<max>\d+), got .*",
     gettext_lazy("fu must be 20, 25 or a multiple of 10 from 30 to %(max)s")),
    (r"20 fu is only possible on a self-draw \(pinfu tsumo\); a ron is at least 30 fu",
     gettext_lazy("20 fu is only possible on a self-draw (pinfu tsumo); a ron is at least 30 fu")),
    (r"25 fu \(seven pairs\) needs at least 2 han", gettext_lazy("25 fu (seven pairs) needs at least 2 han")),
    (r"must be a positive integer \(k-fold yakuman\), got .*", gettext_lazy("pick a yakuman multiple")),
    (r"abortive draws are not played under these rules.*",
     gettext_lazy("abortive draws are not played under these rules")),
    (r"must be one of (?P<allowed>[a-z_, ]+); got .*",
     gettext_lazy("this reason is not allowed under these rules")),
    (r"missing: the seat that committed the chombo", gettext_lazy("pick the player who committed the chombo")),
    (r"nagashi mangan is not played under these rules.*",
     gettext_lazy("nagashi mangan is not played under these rules")),
    (r"the liable player cannot be the winner", gettext_lazy("the liable player cannot be the winner")),
    (r"the next hand of this game is (?P<n>\d+)", gettext_lazy("the next hand of this game is %(n)s")),
    (r"hand (?P<n>\d+) is already entered with a different record; correct it explicitly",
     gettext_lazy("hand %(n)s is already entered with a different record; correct it explicitly")),
    (r"this game is void", gettext_lazy("this game is void")),
    (r"the season is closed; hands can no longer change",
     gettext_lazy("the season is closed; hands can no longer change")),
    (r"this game was finished from its hands; correct a hand instead",
     gettext_lazy("this game was finished from its hands; correct a hand instead")),
    (r"a hand number 1, 2, 3 \.\.\.", gettext_lazy("a hand number 1, 2, 3 ...")),
    (r"no hand has been entered for this game", gettext_lazy("no hand has been entered for this game")),
]
_ERRORS = [(re.compile(p), t) for p, t in _ERRORS]

_FIELDS = [  # field path → what the scorekeeper calls it
    (re.compile(r"(?:hands\[\d+\]\.)?result\.winners\[(\d+)\]\.(han|fu|yakuman|seat)"), "winner"),
    (re.compile(r"(?:hands\[\d+\]\.)?result\.winner(?:\.(han|fu|yakuman|seat))?"), "winner"),
]


def error_message(message: str) -> str:
    """One engine or service message in the active language (unknown ones unchanged)."""
    for pattern, template in _ERRORS:
        m = pattern.fullmatch(message)
        if m:
            return str(template) % m.groupdict() if m.groupdict() else str(template)
    return message


def validation_error_translated(exc: ValidationError) -> ValidationError:
    """The same error, each message translated; the field names (``result.winners[0].fu``) stay."""
    kind = type(exc)  # a HandConflict stays one (the API answers 409)
    if hasattr(exc, "error_dict"):
        return kind({field: [error_message(m) for e in errs for m in e.messages]
                                for field, errs in exc.error_dict.items()})
    return kind([error_message(m) for m in exc.messages])


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
