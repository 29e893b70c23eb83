"""Moved to the shared package: ``kyoku.errors``."""

from kyoku.errors import exception_handler, validation_payload  # noqa: F401
