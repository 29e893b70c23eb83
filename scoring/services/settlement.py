"""Stateless settlement, for the ``settle`` command and ``/api/settle``: contract records in,
settlements (or one error per record) out; nothing is read or stored."""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError

from scoring.engine import SettlementError, settle

from ..record_gate import record_gate

logger = logging.getLogger(__name__)


def settle_one(record) -> dict:
    """One contract record → its settlement, or ``{"error": "field: message"}``."""
    if isinstance(record, dict) and "game_end" not in record:
        try:
            record_gate(record)
        except ValidationError as exc:
            field, messages = next(iter(exc.message_dict.items()))
            return {"error": f"{field}: {messages[0]}"}
    try:
        return settle(record)
    except SettlementError as exc:
        return {"error": str(exc)}
    except Exception as exc:  # an engine bug must not take the whole list (or the endpoint) down
        logger.exception("engine failure on a record")
        return {"error": f"record: could not be settled ({type(exc).__name__})"}


def settle_document(data) -> tuple[object, bool]:
    """(output, every record valid) for one record or a list of records, in order."""
    if isinstance(data, list):
        outs = [settle_one(record) for record in data]
        return outs, not any(_is_error(o) for o in outs)
    out = settle_one(data)
    return out, not _is_error(out)


def _is_error(out) -> bool:
    return isinstance(out, dict) and set(out) == {"error"}
