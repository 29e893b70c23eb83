"""Strict validation of an incident record (``shared/spec/ruling-contract.md``).

Every error is a :class:`RulingError` naming the field (``events[3].t``). Extra keys on an
event (``note``, ``tile``, ...) are allowed and ignored; every key the engine reads is checked.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from .errors import RulingError
from .settings import resolve_settings

ACTS = (
    "announce",
    "touch_wall",
    "draw",
    "discard",
    "call",
    "expose",
    "ron",
    "tsumo",
    "claim_deal_incomplete",
    "false_win_found",
    "harm",
)
CALL_KINDS = ("chi", "pon", "kan")
CLAIM_KINDS = ("short", "long")
HARM_KINDS = ("missed_call", "correction_prevented")
WIN_ACTS = ("ron", "tsumo")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(value: object, field: str) -> int:
    if not _is_int(value) or not 0 <= value <= 3:
        raise RulingError(field, f"must be a seat number 0..3, got {value!r}")
    return value


def _choice(event: dict[str, Any], key: str, field: str, choices: tuple[str, ...]) -> str:
    if key not in event:
        raise RulingError(field, f"missing: one of {', '.join(choices)}")
    value: str = event[key]  # one of ``choices`` once checked
    if value not in choices:
        raise RulingError(field, f"must be one of {', '.join(choices)}, got {value!r}")
    return value


def validate_record(record: Any) -> tuple[dict[str, Any], int, list[dict[str, Any]]]:
    """``record`` → ``(settings, dealer, events)``; events are normalised copies."""
    if not isinstance(record, dict):
        raise RulingError("record", "an incident record must be a JSON object")
    if "rules" not in record:
        raise RulingError(
            "rules", 'missing: name the league settings, e.g. "wrc" or {"preset": "wrc", "reaction_time_ms": 1500}'
        )
    settings = resolve_settings(record["rules"])
    if "dealer" not in record:
        raise RulingError("dealer", "missing: the seat (0..3) of East this hand")
    dealer = _seat(record["dealer"], "dealer")
    if "events" not in record:
        raise RulingError("events", "missing: the incident timeline (a list of events)")
    raw = record["events"]
    if not isinstance(raw, list):
        raise RulingError("events", "must be a list of events")

    events: list[dict[str, Any]] = []
    last_win: dict[int, int] = {}  # seat → index of its latest win declaration
    last_discard: dict[str, Any] | None = None
    for i, ev in enumerate(raw):
        f = f"events[{i}]"
        if not isinstance(ev, dict):
            raise RulingError(f, "each event must be an object")
        if "t" not in ev:
            raise RulingError(f"{f}.t", "missing: milliseconds from the incident's origin")
        t = ev["t"]
        if not _is_int(t):
            raise RulingError(f"{f}.t", f"must be an integer number of milliseconds, got {t!r}")
        if events and t < events[-1]["t"]:
            raise RulingError(
                f"{f}.t", f"{t} is earlier than events[{i - 1}].t ({events[-1]['t']}); events must be in time order"
            )
        if "act" not in ev:
            raise RulingError(f"{f}.act", f"missing: one of {', '.join(ACTS)}")
        act = ev["act"]
        if act not in ACTS:
            raise RulingError(f"{f}.act", f"unknown act {act!r}; known: {', '.join(ACTS)}")
        if "seat" not in ev:
            raise RulingError(f"{f}.seat", "missing: the seat (0..3) that acted")
        seat = _seat(ev["seat"], f"{f}.seat")
        out = {"i": i, "t": t, "act": act, "seat": seat}

        if act == "discard":
            visible = ev.get("visible", True)
            if not isinstance(visible, bool):
                raise RulingError(f"{f}.visible", f"must be true or false, got {visible!r}")
            if "settled_t" in ev:
                st = ev["settled_t"]
                if not _is_int(st):
                    raise RulingError(f"{f}.settled_t", f"must be an integer number of milliseconds, got {st!r}")
                if st < t:
                    raise RulingError(f"{f}.settled_t", f"{st} is before the discard itself ({t})")
            elif not visible:
                raise RulingError(
                    f"{f}.settled_t", "missing: required when visible is false (when the tile could be seen)"
                )
            else:
                st = t
            out["settled_t"] = st
            out["visible"] = visible
        elif act == "call":
            out["kind"] = _choice(ev, "kind", f"{f}.kind", CALL_KINDS)
        elif act == "claim_deal_incomplete":
            out["kind"] = _choice(ev, "kind", f"{f}.kind", CLAIM_KINDS)
        elif act == "harm":
            if "by" not in ev:
                raise RulingError(f"{f}.by", "missing: the index of the event that caused the harm")
            by = ev["by"]
            if not _is_int(by) or not 0 <= by < i:
                raise RulingError(f"{f}.by", f"must be the index of an earlier event (0..{i - 1}), got {by!r}")
            if events[by]["seat"] == seat:
                raise RulingError(
                    f"{f}.seat", f"seat {seat} performed events[{by}] itself; harm names the seat that suffered"
                )
            out["by"] = by
            out["kind"] = _choice(ev, "kind", f"{f}.kind", HARM_KINDS)
        elif act == "false_win_found":
            if seat not in last_win:
                raise RulingError(f"{f}.seat", f"seat {seat} made no win declaration before this event")
            out["declaration"] = last_win[seat]
        if act == "ron":
            if last_discard is None:
                raise RulingError(f"{f}.act", "ron with no discard before it")
            if last_discard["seat"] == seat:
                raise RulingError(f"{f}.seat", f"seat {seat} cannot ron its own discard (events[{last_discard['i']}])")
        if act == "call" and out["kind"] in ("chi", "pon"):
            if last_discard is None:
                raise RulingError(f"{f}.act", f"{out['kind']} with no discard before it")
            discarder = last_discard["seat"]
            if discarder == seat:
                raise RulingError(f"{f}.seat", f"seat {seat} cannot call its own discard (events[{last_discard['i']}])")
            if out["kind"] == "chi" and seat != (discarder + 1) % 4:
                raise RulingError(
                    f"{f}.seat",
                    f"chi may only be called by the seat after the discarder (seat {(discarder + 1) % 4}), got {seat}",
                )
        if act in WIN_ACTS:
            last_win[seat] = i
        if act == "discard":
            last_discard = out
        events.append(out)
    return settings, dealer, events
