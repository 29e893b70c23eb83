"""The referee engine: rules on incidents from a hand's timeline (pure Python, no Django).

The stable JSON interface is ``shared/spec/ruling-contract.md``; the rules it encodes are
``shared/spec/referee-rules.md`` (clauses 1.1, 1.2, 1.3, 2, 3, 4, 5).

    >>> from referee.engine import rule
    >>> r = rule({"rules": {"preset": "wrc", "reaction_time_ms": 1500}, "dealer": 0, "events": [
    ...     {"t": 0, "seat": 0, "act": "discard", "settled_t": 300},
    ...     {"t": 900, "seat": 1, "act": "draw"},
    ...     {"t": 2100, "seat": 1, "act": "discard"},
    ...     {"t": 3000, "seat": 3, "act": "claim_deal_incomplete", "kind": "short"}]})
    >>> r["procedure_at_end"], r["corrections"][0]["allowed"]
    ('DEAL', True)
"""

from .errors import RulingError
from .penalties import DEFAULT_CATALOGUE, default_catalogue, sanction_for, sanctions_for_ruling, validate_catalogue
from .ruling import ENGINE_VERSION, rule, rule_many
from .settings import DEFAULT_REACTION_TIME_MS, PRESETS, resolve_settings

__all__ = [
    "ENGINE_VERSION",
    "DEFAULT_CATALOGUE",
    "DEFAULT_REACTION_TIME_MS",
    "PRESETS",
    "RulingError",
    "default_catalogue",
    "resolve_settings",
    "rule",
    "rule_many",
    "sanction_for",
    "sanctions_for_ruling",
    "validate_catalogue",
]
