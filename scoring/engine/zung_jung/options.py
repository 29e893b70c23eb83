"""Zung Jung rule options: the preset, their documentation and validation."""

from __future__ import annotations

import copy
from typing import Any

from ..errors import SettlementError
from .patterns import DEFAULT_EDITION, EDITIONS, known_ids

LIABILITY_MODES = ("none", "ordinary", "precise", "precise_multiwait")
SCHEMES = ("competition", "full_discard", "uniform")

PRESETS: dict[str, dict[str, Any]] = {
    "zung-jung": {
        "liability": "ordinary",
        "scheme": "competition",
        "par": 25,
        "min_points": 0,
        "limit": 320,
        "edition": DEFAULT_EDITION,
        "pattern_values": {},
        "seven_pairs_quad": True,
        "declined_nine_gates": False,
    },
}

OPTION_DOCS: dict[str, str] = {
    "liability": (
        "Same-turn immunity (跟張免責規條): 'none' (the discarder is always liable), 'ordinary' (official: "
        "the first earlier discarder of the identical tile pays instead; the winner's own earlier discard "
        "makes it a self-draw), 'precise' (精算版, identical tile, value bands), 'precise_multiwait' "
        "(精算版 over every tile the winner waits on)."
    ),
    "scheme": (
        "Payoff scheme: 'competition' (中庸競技制: the first `par` points shared by all three, the liable "
        "player pays the rest three times), 'full_discard' (全銃制: par 0, the liable player pays 3× "
        "everything), 'uniform' (中庸皆一制: every opponent always pays the value)."
    ),
    "par": "Standard score (標準分數) shared by all three opponents on a discard win under 'competition'; official 25.",
    "min_points": "Minimum hand value to win (0 = none, official; 5 = the official variant where a chicken hand is a false win).",
    "limit": "The limit (滿貫): a compound sum at or above it scores it; a pattern worth it or more is a listed limit scored alone.",
    "edition": "Pattern table edition (values by pattern); 'v3.3' is the official current edition.",
    "pattern_values": "Overrides of single pattern values by official number, e.g. {\"6.1\": 30}; '0' is the chicken hand.",
    "seven_pairs_quad": "Seven Pairs may contain four identical tiles counted as two pairs.",
    "declined_nine_gates": (
        "Whether a declined self-draw may be valued as Nine Gates when computing liability bands "
        "(precise rule 5 says never: default false)."
    ),
}

_ALIASES = {"immunity": "liability", "payoff_scheme": "scheme"}


def _int(value: object, field: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettlementError(field, f"expected an integer, got {value!r}")
    if value < minimum:
        raise SettlementError(field, f"must be at least {minimum}, got {value}")
    return value


def _bool(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise SettlementError(field, f"expected true or false, got {value!r}")
    return value


def resolve(spec: Any) -> dict[str, Any]:
    """``{"preset": "zung-jung", **overrides}`` (or the preset name) → full validated options."""
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, dict):
        raise SettlementError("rules", "expected a preset name or an object with 'preset'")
    name = spec.get("preset", "zung-jung")
    if name not in PRESETS:
        raise SettlementError("rules.preset", f"unknown Zung Jung preset {name!r}; known: {', '.join(PRESETS)}")
    options = copy.deepcopy(PRESETS[name])
    for raw_key, value in spec.items():
        if raw_key == "preset":
            continue
        key = _ALIASES.get(raw_key, raw_key)
        field = f"rules.{raw_key}"
        if key not in options:
            raise SettlementError(field, f"unknown Zung Jung option; known: {', '.join(sorted(OPTION_DOCS))}")
        options[key] = _validate(key, value, field)
    if options["edition"] not in EDITIONS:  # pragma: no cover - preset data
        raise SettlementError("rules.edition", "unknown edition")
    ids = known_ids(options["edition"])
    for pid in options["pattern_values"]:
        if pid not in ids:
            raise SettlementError(f"rules.pattern_values.{pid}", f"no pattern {pid!r} in edition {options['edition']}")
    return options


def _validate(key: str, value: Any, field: str) -> Any:  # the option's value: a JSON value
    if key == "liability":
        if value not in LIABILITY_MODES:
            raise SettlementError(field, f"expected one of {', '.join(LIABILITY_MODES)}, got {value!r}")
        return value
    if key == "scheme":
        if value not in SCHEMES:
            raise SettlementError(field, f"expected one of {', '.join(SCHEMES)}, got {value!r}")
        return value
    if key in ("par", "min_points"):
        return _int(value, field, 0)
    if key == "limit":
        return _int(value, field, 1)
    if key == "edition":
        if value not in EDITIONS:
            raise SettlementError(field, f"unknown edition {value!r}; known: {', '.join(EDITIONS)}")
        return value
    if key == "pattern_values":
        if not isinstance(value, dict):
            raise SettlementError(field, "expected an object {pattern number: points}")
        out: dict[str, int] = {}
        for pid, points in value.items():
            out[str(pid)] = _int(points, f"{field}.{pid}", 0)
        return out
    if key in ("seven_pairs_quad", "declined_nine_gates"):
        return _bool(value, field)
    raise SettlementError(field, "unknown option")  # pragma: no cover


def effective_par(options: dict[str, Any]) -> int:
    return 0 if options["scheme"] == "full_discard" else options["par"]
