"""The front door's walk: a real SMTP server on loopback receives every email (tests.notifications)."""

from tests.notifications.conftest import smtp  # noqa: F401
