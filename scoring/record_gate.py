"""The gate every hand record passes before it is settled or stored: the engine's own check of
its declared keys and ranges (``scoring/engine/<system>/record_keys.py``: a key the engine does
not declare is refused by the engine itself, so the gate and the engine are one contract), plus
the storage bounds the app adds: counts in their real range (``scoring.engine.interface.RANGES``), storable JSON (no NUL, no lone surrogate, bounded depth, size
and strings).

Keys below the declared levels (a winner's tiles, melds, claims) are checked for storability and
ranges; their meaning is the engine's to check."""

from __future__ import annotations

import importlib

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from kyoku.errors import engine_error
from kyoku.safe_json import UnsafeJSON, check
from scoring.engine import SettlementError
from scoring.engine.dispatch import SYSTEMS, system_for
from scoring.engine.interface import RANGES, Interface, check_ranges

__all__ = ["MAX_RECORD_NODES", "RANGES", "interface_of", "record_gate"]

MAX_RECORD_NODES = 2_000


def interface_of(system: str) -> Interface:
    """A rule system's declared record (its ``record_keys.INTERFACE``)."""
    interface: Interface = importlib.import_module(f"{SYSTEMS[system]}.record_keys").INTERFACE
    return interface


def record_gate(record, system: str | None = None) -> None:
    """Refuse what cannot be stored, then what the engine of ``system`` (default: the one the
    record's own ``rules`` name) does not declare, as a ValidationError naming the field."""
    if not isinstance(record, dict):
        raise ValidationError({"record": [gettext("a hand record must be a JSON object")]})
    try:
        check(record, "record", max_depth=12, max_nodes=MAX_RECORD_NODES, max_string=200)
    except UnsafeJSON as exc:
        raise ValidationError({exc.path.removeprefix("record.") or "record": [exc.message]}) from None
    try:
        if system is None:
            try:
                system = system_for(record.get("rules"))
            except SettlementError:
                system = None  # no rule set, or an unknown one: the engine refuses it, naming ``rules``
        if system is not None:
            interface_of(system).check(record)
        check_ranges(record)
    except SettlementError as exc:
        raise engine_error(exc) from None
