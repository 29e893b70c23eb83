"""The league's penalty catalogue as data, and how repeated offences escalate (clause 5).

A ruling names offences (``{"seat", "offence", "clauses"}``); the catalogue turns an offence
into a sanction. Pure functions, no Django. A league may store its own catalogue (same shape);
:func:`validate_catalogue` checks one, :func:`sanction_for` applies it.

Catalogue shape::

    {"version": "2024.1",                     # recorded with every sanction
     "offences": {name: {"sanction": one of SANCTIONS, "points": int >= 0 (deductions),
                         "clauses": [...], "description": "...", "description_zh": "..."}},
     "sanction_points": {sanction: int >= 0},  # set deduction of a sanction reached by escalation
     "escalation": [{"from": sanction, "to": sanction,
                     "game": N or None,        # the N-th `from` in the same game → `to`
                     "season": N or None}]}    # the N-th `from` in the same season → `to`

Prior sanctions of the player are given as ``"yellow_card"`` or ``{"sanction": "yellow_card",
"scope": "game" | "season"}``; ``scope`` says whether it was given in the current game (which is
also part of the season) or earlier in the season; a bare string counts as ``"season"``.
"""

from __future__ import annotations

import copy
from typing import Any, TypeGuard, cast

from .errors import RulingError

SANCTIONS = ("warning", "yellow_card", "red_card", "point_deduction", "chombo", "dead_hand")
POINT_SANCTIONS = ("point_deduction", "chombo")  # these need "points" on the offence
SCOPES = ("game", "season")
ENGINE_OFFENCES = ("early_play_harm", "false_win", "misdeal")  # offences rulings name
TOP_KEYS = ("version", "name", "description", "offences", "sanction_points", "escalation")
OFFENCE_KEYS = ("sanction", "points", "clauses", "description", "description_zh")

DEFAULT_CATALOGUE: dict[str, Any] = {
    "version": "2024.1",
    "name": "Kyoku default penalty catalogue",
    "offences": {
        "early_play_harm": {
            "sanction": "yellow_card",
            "clauses": ["1.1"],
            "description": "A PLAY action during DEAL that harmed another player",
            "description_zh": "配牌程序中偷步摸打並影響他家利益",
        },
        "false_win": {
            "sanction": "chombo",
            "points": 20000,
            "clauses": ["4"],
            "description": "False win declaration (chombo)",
            "description_zh": "錯和",
        },
        "invalid_call": {
            "sanction": "point_deduction",
            "points": 1000,
            "clauses": ["2"],
            "description": "A call that cannot be completed or is withdrawn",
            "description_zh": "無效鳴牌",
        },
        "late_declaration": {
            "sanction": "warning",
            "clauses": ["2", "3"],
            "description": "A counter-declaration made outside reaction time",
            "description_zh": "超出反應時間的宣言",
        },
        "misdeal": {
            "sanction": "dead_hand",
            "clauses": ["1.3"],
            "description": "A short or long hand from the deal found after PLAY began",
            "description_zh": "配牌相公未及修正",
        },
        "slow_play": {
            "sanction": "warning",
            "clauses": ["2"],
            "description": "Slow play, or halting play with an informal 'wait'",
            "description_zh": "拖延對局,或以「等等」等非正規方式中斷牌局",
        },
        "unsportsmanlike": {
            "sanction": "yellow_card",
            "clauses": ["5"],
            "description": "Unsportsmanlike conduct",
            "description_zh": "違反體育精神的行為",
        },
    },
    # a red card carries a set score deduction
    "sanction_points": {"red_card": 20000},
    "escalation": [
        {"from": "warning", "to": "yellow_card", "game": 2, "season": None},
        {"from": "yellow_card", "to": "red_card", "game": 2, "season": 2},
    ],
}


def default_catalogue() -> dict[str, Any]:
    """A fresh copy of :data:`DEFAULT_CATALOGUE` (safe to modify)."""
    return copy.deepcopy(DEFAULT_CATALOGUE)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_catalogue(catalogue: Any) -> list[str]:
    """Every problem with a catalogue, as ``"field: message"`` strings (empty list = valid)."""
    errors: list[str] = []
    if not isinstance(catalogue, dict):
        return ["catalogue: must be an object"]
    for key in catalogue:
        if key not in TOP_KEYS:
            errors.append(f"{key}: unknown catalogue field; known: {', '.join(TOP_KEYS)}")
    version = catalogue.get("version")
    if not isinstance(version, str) or not version.strip():
        errors.append("version: missing: a non-empty version string, recorded with every sanction")
    offences = catalogue.get("offences")
    if not isinstance(offences, dict) or not offences:
        errors.append("offences: must be a non-empty object of offence → sanction")
        offences = {}
    for name in ENGINE_OFFENCES:
        if name not in offences:
            errors.append(f"offences.{name}: missing: rulings name this offence")
    for name, entry in offences.items():
        f = f"offences.{name}"
        if not isinstance(entry, dict):
            errors.append(f"{f}: must be an object with 'sanction'")
            continue
        for key in entry:
            if key not in OFFENCE_KEYS:
                errors.append(f"{f}.{key}: unknown field; known: {', '.join(OFFENCE_KEYS)}")
        sanction = entry.get("sanction")
        if sanction not in SANCTIONS:
            errors.append(f"{f}.sanction: unknown sanction type {sanction!r}; known: {', '.join(SANCTIONS)}")
        if "points" in entry:
            pts = entry["points"]
            if not _is_int(pts):
                errors.append(f"{f}.points: must be an integer, got {pts!r}")
            elif pts < 0:
                errors.append(f"{f}.points: must not be negative, got {pts}")
        elif sanction in POINT_SANCTIONS:
            errors.append(f"{f}.points: missing: a {sanction} needs the points deducted")
        clauses = entry.get("clauses", [])
        if not isinstance(clauses, list) or not all(isinstance(c, str) for c in clauses):
            errors.append(f"{f}.clauses: must be a list of clause ids (strings)")
    sp = catalogue.get("sanction_points", {})
    if not isinstance(sp, dict):
        errors.append("sanction_points: must be an object of sanction → points")
        sp = {}
    for name, pts in sp.items():
        if name not in SANCTIONS:
            errors.append(f"sanction_points.{name}: unknown sanction type; known: {', '.join(SANCTIONS)}")
        elif not _is_int(pts):
            errors.append(f"sanction_points.{name}: must be an integer, got {pts!r}")
        elif pts < 0:
            errors.append(f"sanction_points.{name}: must not be negative, got {pts}")
    esc = catalogue.get("escalation", [])
    if not isinstance(esc, list):
        errors.append("escalation: must be a list of steps")
        esc = []
    graph: dict[str, str] = {}
    for j, step in enumerate(esc):
        f = f"escalation[{j}]"
        if not isinstance(step, dict):
            errors.append(f"{f}: must be an object with 'from' and 'to'")
            continue
        for key in step:
            if key not in ("from", "to", "game", "season"):
                errors.append(f"{f}.{key}: unknown field; known: from, to, game, season")
        for key in ("from", "to"):
            if step.get(key) not in SANCTIONS:
                errors.append(f"{f}.{key}: unknown sanction type {step.get(key)!r}; known: {', '.join(SANCTIONS)}")
        for key in SCOPES:
            n = step.get(key)
            if n is not None and (not _is_int(n) or n < 1):
                errors.append(f"{f}.{key}: must be a positive integer (the N-th occurrence) or null, got {n!r}")
        if step.get("game") is None and step.get("season") is None:
            errors.append(f"{f}: needs a 'game' or 'season' threshold")
        src = step.get("from")
        if src in graph:
            errors.append(f"{f}.from: a second step for {src!r}")
        elif src in SANCTIONS and step.get("to") in SANCTIONS:
            graph[src] = step["to"]
    for start in graph:
        seen, cur = {start}, graph[start]
        while cur in graph:
            if cur in seen:
                errors.append(f"escalation: steps form a cycle through {cur!r}")
                break
            seen.add(cur)
            cur = graph[cur]
        else:
            continue
        break
    return errors


def check_catalogue(catalogue: Any) -> dict[str, Any]:
    """Raise :class:`RulingError` on the first problem; return the catalogue."""
    errors = validate_catalogue(catalogue)
    if errors:
        field, _, message = errors[0].partition(": ")
        raise RulingError(field, message)
    return cast(dict[str, Any], catalogue)  # valid: an object (validate_catalogue said so)


def _priors(prior: Any) -> list[tuple[str, str]]:
    if prior is None:
        return []
    if not isinstance(prior, (list, tuple)):
        raise RulingError("prior", "must be a list of prior sanctions")
    out = []
    for j, item in enumerate(prior):
        sanction: object  # a code, checked below: a dict entry may hold anything
        if isinstance(item, str):
            sanction, scope = item, "season"
        elif isinstance(item, dict):
            sanction, scope = item.get("sanction"), item.get("scope", "season")
            if scope not in SCOPES:
                raise RulingError(f"prior[{j}].scope", f"must be 'game' or 'season', got {scope!r}")
        else:
            raise RulingError(f"prior[{j}]", 'must be a sanction name or {"sanction", "scope"}')
        if sanction not in SANCTIONS:
            field = f"prior[{j}]" if isinstance(item, str) else f"prior[{j}].sanction"
            raise RulingError(field, f"unknown sanction type {sanction!r}; known: {', '.join(SANCTIONS)}")
        out.append((sanction, scope))
    return out


def sanction_for(catalogue: Any, offence: str, prior: Any = None) -> dict[str, Any]:
    """The sanction for ``offence`` given the player's prior sanctions in this game / season.

    Returns ``{"offence", "sanction", "points", "escalated_from", "clauses", "catalogue_version"}``:
    ``escalated_from`` is the catalogue's base sanction when escalation changed it, else None;
    ``points`` the deduction (0 when the sanction deducts nothing); ``clauses`` the offence's
    clauses plus clause 5 (the catalogue).
    """
    check_catalogue(catalogue)
    offences = catalogue["offences"]
    if offence not in offences:
        raise RulingError("offence", f"unknown offence {offence!r}; known: {', '.join(sorted(offences))}")
    entry = offences[offence]
    priors = _priors(prior)
    steps = {s["from"]: s for s in catalogue.get("escalation", [])}
    sp = catalogue.get("sanction_points", {})

    base = entry["sanction"]
    sanction = base
    seen = {sanction}
    while sanction in steps:
        step = steps[sanction]
        in_game = sum(1 for s, scope in priors if s == sanction and scope == "game")
        in_season = sum(1 for s, _ in priors if s == sanction)
        hit = (step.get("game") is not None and in_game + 1 >= step["game"]) or (
            step.get("season") is not None and in_season + 1 >= step["season"]
        )
        if not hit or step["to"] in seen:
            break
        sanction = step["to"]
        seen.add(sanction)

    if sanction == base:
        points = entry.get("points", sp.get(base, 0))
    else:
        points = sp.get(sanction, 0)
    clauses = sorted(
        set(entry.get("clauses", [])) | {"5"}, key=lambda c: tuple(int(p) if p.isdigit() else 0 for p in c.split("."))
    )
    return {
        "offence": offence,
        "sanction": sanction,
        "points": points,
        "escalated_from": base if sanction != base else None,
        "clauses": clauses,
        "catalogue_version": catalogue["version"],
    }


def sanctions_for_ruling(catalogue: Any, ruling: dict[str, Any], prior_by_seat: Any = None) -> list[dict[str, Any]]:
    """Sanctions for every penalty of a ruling, in order; each is added to that seat's
    same-game priors before the next is decided. ``prior_by_seat``: ``{seat: [prior, ...]}``
    (seat keys may be ints or strings, as from JSON)."""
    prior_by_seat = prior_by_seat or {}
    running: dict[int, list[tuple[str, str]]] = {}
    out = []
    for j, pen in enumerate(ruling.get("penalties", [])):
        seat = pen["seat"]
        if seat not in running:
            base = prior_by_seat.get(seat, prior_by_seat.get(str(seat), []))
            running[seat] = list(_priors(base))
        priors = [{"sanction": s, "scope": scope} for s, scope in running[seat]]
        result = sanction_for(catalogue, pen["offence"], priors)
        running[seat].append((result["sanction"], "game"))
        out.append({"seat": seat, **result})
    return out
