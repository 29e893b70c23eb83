"""Accounts tests: a league with an M-League season (A: players 1-4), its admin and referee
(tests/conftest.py), and helpers that sign in through django-allauth's real pages."""

import re

import pytest
from django.core import mail

from kyoku.principals import SYSTEM
from league import services
from tests.actors import open_season

PASSWORD = "a-Long-passphrase-77"


@pytest.fixture
def mleague_rules(db):
    return services.rule_set_create(name="M-League", slug="mleague", preset="mleague", is_template=True, actor=SYSTEM)


@pytest.fixture
def season(league, mleague_rules, players):
    return open_season(league, mleague_rules, players)


@pytest.fixture(autouse=True)
def _mail_in_memory(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def link_in_last_mail(path_part: str) -> str:
    """The first link of the last email whose path contains ``path_part`` (its path only)."""
    body = mail.outbox[-1].body
    found = re.search(r"https?://[^/\s]+(\S*" + re.escape(path_part) + r"\S*)", body)
    assert found, body
    return found.group(1)


def sign_in(client, login: str, password: str = PASSWORD, **extra):
    return client.post("/accounts/login/", {"login": login, "password": password}, **extra)
