"""League settings the referee engine needs, resolved from a record's ``rules``.

``rules`` is a preset name (``"wrc"``) or ``{"preset": name, "reaction_time_ms": int,
"multiple_ron": bool, "max_ron_winners": int}``. Anything else is rejected (the error names
``rules.<key>``). The resolved settings are echoed in every ruling (``settings``) so that a
ruling can be re-read later under the settings it was made with (clause 2).
"""

from __future__ import annotations

from typing import Any, TypeGuard

from .errors import RulingError

DEFAULT_REACTION_TIME_MS = 1500

# preset → how several rons on one discard are handled (clause 3).
#   multiple_ron False: head bump, one winner (the first in turn order after the discarder).
#   multiple_ron True:  every valid in-time declarer wins, up to max_ron_winners; more valid
#                       declarers than that is an abortive draw (e.g. tenhou: triple ron).
PRESETS: dict[str, dict[str, Any]] = {
    "wrc": {"multiple_ron": False, "max_ron_winners": 1},  # WRC: head bump (atamahane)
    "ema": {"multiple_ron": True, "max_ron_winners": 3},  # EMA: double and triple ron
    "mleague": {"multiple_ron": False, "max_ron_winners": 1},  # M.League: head bump
    "jpml": {"multiple_ron": False, "max_ron_winners": 1},  # JPML: head bump
    "tenhou": {"multiple_ron": True, "max_ron_winners": 2},  # double ron; triple ron abortive
    "zung-jung": {"multiple_ron": False, "max_ron_winners": 1},  # interception: single winner
    "beijing": {"multiple_ron": False, "max_ron_winners": 1},  # head bump
}

ALLOWED_KEYS = ("preset", "reaction_time_ms", "multiple_ron", "max_ron_winners")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def resolve_settings(rules: Any) -> dict[str, Any]:
    """``rules`` spec → ``{"preset", "reaction_time_ms", "multiple_ron", "max_ron_winners"}``."""
    if isinstance(rules, str):
        spec = {"preset": rules}
    elif isinstance(rules, dict):
        spec = rules
    else:
        raise RulingError("rules", "expected a preset name or an object with 'preset'")
    for key in spec:
        if key not in ALLOWED_KEYS:
            raise RulingError(f"rules.{key}", f"unknown setting; known: {', '.join(ALLOWED_KEYS)}")
    if "preset" not in spec:
        raise RulingError("rules.preset", "missing: name a preset such as 'wrc'")
    preset = spec["preset"]
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulingError("rules.preset", f"unknown preset {preset!r}; known: {', '.join(sorted(PRESETS))}")
    base = PRESETS[preset]

    rt = spec.get("reaction_time_ms", DEFAULT_REACTION_TIME_MS)
    if not _is_int(rt) or rt <= 0:
        raise RulingError("rules.reaction_time_ms", f"must be a positive integer (milliseconds), got {rt!r}")

    if "multiple_ron" in spec:
        multiple = spec["multiple_ron"]
        if not isinstance(multiple, bool):
            raise RulingError("rules.multiple_ron", f"must be true or false, got {multiple!r}")
        default_max = (base["max_ron_winners"] if base["multiple_ron"] else 3) if multiple else 1
    else:
        multiple = base["multiple_ron"]
        default_max = base["max_ron_winners"]

    if "max_ron_winners" in spec:
        max_w = spec["max_ron_winners"]
        if not _is_int(max_w) or not 1 <= max_w <= 3:
            raise RulingError("rules.max_ron_winners", f"must be an integer from 1 to 3, got {max_w!r}")
        if not multiple and max_w != 1:
            raise RulingError("rules.max_ron_winners", "must be 1 when multiple_ron is false (head bump)")
        if multiple and max_w == 1:
            raise RulingError("rules.max_ron_winners", "must be 2 or 3 when multiple_ron is true")
    else:
        max_w = default_max

    return {"preset": preset, "reaction_time_ms": rt, "multiple_ron": multiple, "max_ron_winners": max_w}
