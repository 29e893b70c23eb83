"""Logins for the named actors of the tests (password: ``<name>-pw-123``)."""

from django.contrib.auth import get_user_model


def make_user(name: str, **extra):
    return get_user_model().objects.create_user(name, password=f"{name}-pw-123", **extra)
