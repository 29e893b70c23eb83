"""Errors raised by the referee engine. They always name the offending field."""


class RulingError(ValueError):
    """An invalid incident record, rule setting or penalty catalogue.

    ``field`` is a path into the input (``events[3].t``, ``rules.reaction_time_ms``,
    ``offences.false_win.points``) so a caller can point at the exact input that is wrong.
    ``str(err)`` is ``"field: message"``.
    """

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)
