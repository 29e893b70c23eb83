"""Errors raised by the scoring engine. They always name the offending field, and carry a code
and parameters so that the Django side can say them in the reader's language without reading
the English text (scoring/messages.py holds the words per code)."""

from __future__ import annotations

from typing import Any


class SettlementError(ValueError):
    # set by a replay on its way out: which hand of the list (``index``) or of the database (``hand_id``)
    index: int | None = None
    hand_id: int | None = None

    """An invalid hand record or rule option.

    ``field`` is a dotted path into the record (``result.winners[1].fu``) so a caller can point
    at the exact input that is wrong; ``code`` names the rule broken (``fu_invalid``) and
    ``params`` the figures its words need (``{"max": 110}``); ``message`` is the engine's own
    English text, kept for logs and for codes with no words of their own (``invalid``).
    """

    def __init__(self, field: str, message: str, code: str = "invalid", params: dict[str, Any] | None = None):
        self.field = field
        self.message = message
        self.code = code
        self.params = dict(params or {})
        super().__init__(f"{field}: {message}" if field else message)

    def __reduce__(self) -> tuple[type[SettlementError], tuple[str, str, str, dict[str, Any]], dict[str, Any]]:
        # picklable with its extra attributes (``index``, ``hand_id``): bulk re-settles run in worker processes
        return type(self), (self.field, self.message, self.code, self.params), self.__dict__
