"""One place that turns codes and enum values into display names in the active language.

Templates use the ``label`` filter (``{% load kyoku_labels %}{{ p.offence|label:"offence" }}``);
Python uses :func:`label`. A code with no entry is shown humanised ("slow_play" → "Slow play"),
never raw; tests/i18n/test_zh_hant_pages.py fails on snake_case left in a page. A league's own
catalogue offences carry their names in the catalogue (``description`` / ``description_zh``):
:func:`offence_label` prefers those for offences this table does not know.
"""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

LABELS: dict[str, dict[str, object]] = {
    "offence": {
        "early_play_harm": _("Early play that harmed another player"),
        "false_win": _("False win (chombo)"),
        "invalid_call": _("Invalid call"),
        "late_declaration": _("Late declaration"),
        "misdeal": _("Misdeal not corrected in time"),
        "slow_play": _("Slow play"),
        "unsportsmanlike": _("Unsportsmanlike conduct"),
    },
    "sanction": {
        "warning": _("Warning"),
        "yellow_card": _("Yellow card"),
        "red_card": _("Red card"),
        "point_deduction": _("Point deduction"),
        "chombo": _("Chombo"),
        "dead_hand": _("Dead hand"),
    },
    "incident_kind": {
        "deal_error": _("Dealing error (short or long hand)"),
        "early_play": _("Play during the deal"),
        "reaction_time": _("Call or declaration outside reaction time"),
        "head_bump": _("Head bump / several win declarations"),
        "false_win": _("False win"),
        "call_dispute": _("Call priority dispute"),
        "conduct": _("Conduct"),
        "other": _("Other"),
    },
    # the procedure phases of the referee engine (clause 1)
    "phase": {
        "DEAL": pgettext_lazy("procedure phase", "Deal"),
        "PLAY": pgettext_lazy("procedure phase", "Play"),
        "SETTLEMENT": pgettext_lazy("procedure phase", "Settlement"),
    },
    "play_start": {
        "announced": _("announced"),
        "retroactive": _("retroactive"),
        "dealer_first_draw": _("the dealer's first draw"),
    },
    "act": {
        "announce": _("Announce"), "touch_wall": _("Touch wall"), "draw": _("Draw"), "discard": _("Discard"),
        "call": _("Call"), "expose": _("Expose meld"), "ron": _("Ron"), "tsumo": _("Tsumo"),
        "claim_deal_incomplete": _("Claim deal incomplete"), "false_win_found": _("False win found"),
        "harm": _("Harm"),
    },
    "event_detail": {
        "settled_t": _("settled (ms)"), "visible_t": _("visible (ms)"), "kind": _("kind"), "by": _("by event #"),
        "short": _("short hand"), "long": _("long hand"), "chi": _("chi"), "pon": _("pon"), "kan": _("kan"),
        "missed_call": _("missed a call"), "correction_prevented": _("correction prevented"),
    },
    "place": {1: _("1st"), 2: _("2nd"), 3: _("3rd"), 4: _("4th")},
    "result_type": {
        "ron": _("Ron"), "tsumo": _("Tsumo"), "draw": _("Exhaustive draw"), "chombo": _("Chombo"),
        "abortive_draw": _("Abortive draw"), "nagashi": _("Nagashi mangan"),
    },
}


def _humanise(code) -> str:
    text = str(code).replace("_", " ").strip()
    return text[:1].upper() + text[1:].lower() if text.isupper() or "_" in str(code) else text


def label(code, kind: str) -> str:
    """The display name of ``code`` among the ``kind`` values, in the active language."""
    if code is None or code == "":
        return ""
    table = LABELS.get(kind, {})
    key = int(code) if kind == "place" and str(code).isdigit() else code
    if key in table:
        return str(table[key])
    return _humanise(code)


def _zh() -> bool:
    return (get_language() or "en").lower().startswith("zh")


def offence_label(code: str, catalogue: dict | None = None) -> str:
    """An offence's name. In Chinese the league catalogue's own ``description_zh`` comes first; in
    English this table's short name, else the catalogue's ``description``; else the humanised code."""
    entry = ((catalogue or {}).get("offences") or {}).get(code) or {}
    if _zh() and entry.get("description_zh"):
        return entry["description_zh"]
    if code in LABELS["offence"] or not entry.get("description"):
        return label(code, "offence")
    return entry["description"]


def choices(kind: str) -> list[tuple[str, object]]:
    """``(code, lazy name)`` pairs for a form's choices (names translated when rendered)."""
    return list(LABELS[kind].items())
