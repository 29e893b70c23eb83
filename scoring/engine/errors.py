"""Errors raised by the scoring engine. They always name the offending field."""


class SettlementError(ValueError):
    """An invalid hand record or rule option.

    ``field`` is a dotted path into the record (``result.winners[1].fu``) so a
    caller can point at the exact input that is wrong.
    """

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)

    def __reduce__(self):
        # picklable with its extra attributes (``index``, ``hand_id``): bulk re-settles run in worker processes
        return type(self), (self.field, self.message), self.__dict__
