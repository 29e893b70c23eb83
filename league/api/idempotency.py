"""Moved to the shared package: ``kyoku.idempotency``."""

from kyoku.idempotency import HEADER, idempotent  # noqa: F401
