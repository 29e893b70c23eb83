"""The one way the referee desk names a seat: this hand's wind and the player's name, in the
reader's language. Every page, form, explanation, print view and API field that names a seat goes
through :func:`seat_label`, so a ruling names each player once, the same way, everywhere.

Seats are numbered 0..3 in turn order and the incident's ``dealer`` is the seat of East this hand
(ruling contract; seed 003 names players by their wind in the hand: 北家, 南家, 莊家), so the wind
comes from :func:`referee.engine.messages.seat_wind`, never from the seat's wind at the start of the
game. Pure functions of their arguments apart from the active language.
"""

from __future__ import annotations

from django.utils.translation import get_language

from kyoku.labels import LABELS, label
from referee.engine.messages import render, seat_wind, wind_name

WIND_CODES = ("east", "south", "west", "north")


def reader_lang() -> str:
    """The engine's language code for the active Django language: ``en``, ``zh`` or ``ja``."""
    lang = (get_language() or "en").lower()
    if lang.startswith("zh"):
        return "zh"
    if lang.startswith("ja"):
        return "ja"
    return "en"


def seat_label(seat: int, *, dealer: int, names: dict[int, str], lang: str | None = None) -> str:
    """``South (Bob)`` / ``南家(Bob)``: the seat's wind this hand and its player's name."""
    lang = lang or reader_lang()
    wind = wind_name(seat_wind(seat, dealer), lang)
    name = names.get(seat)
    if not name:
        return f"{wind} ({seat})" if lang == "en" else f"{wind}({seat})"
    return f"{wind} ({name})" if lang == "en" else f"{wind}({name})"


def seat_rows(*, dealer: int, names: dict[int, str], lang: str | None = None) -> list[dict]:
    """The four seats of a hand for tables and the API: number, wind (code and word), player, label."""
    lang = lang or reader_lang()
    rows = []
    for seat in range(4):
        wind = seat_wind(seat, dealer)
        rows.append(
            {
                "seat": seat,
                "wind": WIND_CODES[wind],
                "wind_name": wind_name(wind, lang),
                "player_name": names.get(seat, ""),
                "label": seat_label(seat, dealer=dealer, names=names, lang=lang),
            }
        )
    return rows


def seat_labels_by_dealer(*, names: dict[int, str], lang: str | None = None) -> dict[int, dict[int, str]]:
    """``{dealer: {seat: label}}`` for the four possible dealers (the new-incident page relabels its
    seats when the referee picks the dealer, with the same words as the ruling)."""
    lang = lang or reader_lang()
    return {d: {s: seat_label(s, dealer=d, names=names, lang=lang) for s in range(4)} for d in range(4)}


def explanation_lines(
    ruling: dict | None, *, dealer: int, names: dict[int, str], lang: str | None = None
) -> list[dict]:
    """A ruling's explanation in the reader's language, each seat named by :func:`seat_label`;
    ``[{"text", "clauses"}]``. Built from the engine's structured lines (``explanation_data``); a
    ruling stored without them keeps the engine's own words."""
    if not ruling:
        return []
    lang = lang or reader_lang()
    data = ruling.get("explanation_data")
    if data:

        def namer(seat: int) -> str:
            return seat_label(seat, dealer=dealer, names=names, lang=lang)

        return [{"text": render(d, dealer, lang, namer), "clauses": list(d.get("clauses", []))} for d in data]
    texts = (
        ruling.get({"zh": "explanation_zh", "ja": "explanation_ja"}.get(lang, "explanation"))
        or ruling.get("explanation")
        or []
    )
    return [{"text": t, "clauses": []} for t in texts]


def ruling_named(
    ruling: dict | None, *, dealer: int, names: dict[int, str], lang: str | None = None, events: list | None = None
) -> dict:
    """The seats a ruling names (winners, corrections, penalties, dead hands), each with its label;
    with the incident's ``events``, its invalid declarations as the timeline rows they are (number,
    seat, act, time) rather than bare indexes."""
    if not ruling:
        return {}
    lang = lang or reader_lang()

    def lab(seat: int) -> str:
        return seat_label(seat, dealer=dealer, names=names, lang=lang)

    return {
        "winners": [lab(s) for s in ruling.get("winners") or []],
        "corrections": [{**c, "label": lab(c["seat"])} for c in ruling.get("corrections") or []],
        "penalties": [{**p, "label": lab(p["seat"])} for p in ruling.get("penalties") or []],
        "dead_hands": [lab(s) for s in ruling.get("dead_hands") or []],
        "invalid": [_event_row(i, events, lab) for i in ruling.get("invalid_declarations") or []],
    }


def _event_row(index: int, events: list | None, lab) -> dict:
    ev = events[index] if events and isinstance(index, int) and 0 <= index < len(events) else {}
    act = ev.get("kind") if ev.get("act") == "call" else ev.get("act")
    seat = ev.get("seat")
    kind = "act" if act in LABELS["act"] else "event_detail"  # chi / pon / kan are event details
    return {
        "event": index,
        "label": lab(seat) if isinstance(seat, int) else "",
        "act": act or "",
        "act_name": label(act, kind) if act else "",
        "t": ev.get("t"),
    }
