"""``rule(record) -> ruling``: the referee ruling engine (``shared/spec/ruling-contract.md``).

Pure Python, no Django. The rules are ``shared/spec/referee-rules.md`` (clauses 1.1 … 5).
"""

from __future__ import annotations

from typing import Any

from . import declarations, timeline
from .errors import RulingError
from .messages import clauses_of, line, render
from .validate import validate_record

ENGINE_VERSION = "1.0"


def _clause_key(c: str) -> tuple[int | str, ...]:
    return tuple(int(p) if p.isdigit() else p for p in c.split("."))


def _harm(events: list[dict[str, Any]], status: dict[int, str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Early actions (clause 1.1) → (lines, penalties)."""
    lines: list[dict[str, Any]] = []
    penalties: list[dict[str, Any]] = []
    early = [i for i, s in status.items() if s == "early"]
    for i in early:
        ev = events[i]
        act = ev["kind"] if ev["act"] == "call" else ev["act"]
        lines.append(line("early_action", seat=ev["seat"], act=act, t=ev["t"], event=i))
    harms = [ev for ev in events if ev["act"] == "harm"]
    penalised = set()
    for h in harms:
        b = events[h["by"]]
        act = b["kind"] if b["act"] == "call" else b["act"]
        params = dict(victim_seat=h["seat"], harm=h["kind"], seat=b["seat"], act=act, t_by=b["t"], by=b["i"])
        st = status.get(b["i"])
        if st == "early":
            lines.append(line("harm_penalised", **params))
            if b["i"] not in penalised:
                penalised.add(b["i"])
                penalties.append({"seat": b["seat"], "offence": "early_play_harm", "clauses": ["1.1"], "event": b["i"]})
        else:
            if st is None:
                reason = "not_play_action" if b["act"] not in timeline.PLAY_ACTS else "in_play"
            else:
                reason = st
            lines.append(line("harm_not_penalised", **params, reason=reason))
    if early and not penalised:
        lines.append(line("no_harm"))
    return lines, penalties


def rule(record: Any) -> dict[str, Any]:
    """One ruling for one incident record; raises :class:`RulingError` naming the bad field."""
    settings, dealer, events = validate_record(record)
    rt = settings["reaction_time_ms"]
    lines = [line("settings", rt=rt, preset=settings["preset"])]

    tl = timeline.walk(events, dealer, rt)
    lines += tl["lines"]
    status = timeline.early_actions(events, dealer, tl)
    if tl["play_start"] == "announced" and any(s == "early" for s in status.values()):
        lines.append(line("not_ratified"))
    harm_lines, penalties = _harm(events, status)
    lines += harm_lines

    corrections, corr_lines, refused = timeline.corrections(events, tl)
    lines += corr_lines
    dead = sorted({events[i]["seat"] for i in refused})
    for seat in dead:
        first = next(i for i in refused if events[i]["seat"] == seat)
        penalties.append({"seat": seat, "offence": "misdeal", "clauses": ["1.3"], "event": first})

    dec = declarations.resolve(events, settings, tl, set(dead))
    lines += dec["lines"]
    penalties += dec["penalties"]
    penalties.sort(key=lambda p: p["event"])

    if events and tl["state"] == "PLAY":
        lines.append(line("end_play", t=events[-1]["t"]))
    elif events and tl["state"] == "SETTLEMENT":
        lines.append(line("end_settlement", t=events[-1]["t"]))
    if penalties:
        lines.append(line("sanctions"))

    clauses = set()
    for ln in lines:
        clauses.update(clauses_of(ln))
    for item in corrections + penalties:
        clauses.update(item["clauses"])

    return {
        "play_started_t": tl["play_started_t"],
        "play_start": tl["play_start"],
        "play_start_event": tl["trigger"],
        "settlement_started_t": events[tl["settle"]]["t"] if tl["settle"] is not None else None,
        "corrections": corrections,
        "correction_events": [ev["i"] for ev in events if ev["act"] == "claim_deal_incomplete"],
        "dead_hands": dead,
        "winners": dec["winners"],
        "abortive_draw": dec["abortive"],
        "invalid_declarations": sorted(set(dec["invalid"]) | set(refused)),
        "superseded_calls": dec["superseded"],
        "calls": dec["calls"],
        "early_actions": sorted(i for i, s in status.items() if s == "early"),
        "penalties": [{k: p[k] for k in ("seat", "offence", "clauses")} for p in penalties],
        "penalty_events": [p["event"] for p in penalties],
        "explanation": [render(ln, dealer, "en") for ln in lines],
        "explanation_zh": [render(ln, dealer, "zh") for ln in lines],
        "explanation_ja": [render(ln, dealer, "ja") for ln in lines],
        "explanation_data": [{**ln, "clauses": clauses_of(ln)} for ln in lines],
        "clauses_applied": sorted(clauses, key=_clause_key),
        "procedure_at_end": tl["state"],
        "settings": settings,
        "engine_version": ENGINE_VERSION,
    }


def rule_many(records: Any) -> list[dict[str, Any]]:
    """Rule a list of records; an invalid record yields ``{"error": "field: message"}`` in its place."""
    if not isinstance(records, list):
        raise RulingError("records", "expected a JSON list of incident records")
    out = []
    for record in records:
        try:
            out.append(rule(record))
        except RulingError as exc:
            out.append({"error": str(exc)})
    return out
