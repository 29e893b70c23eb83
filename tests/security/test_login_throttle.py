"""Brute-force protection on every login path (django-axes): after AXES_FAILURE_LIMIT wrong
passwords for one username from one address, even the right password is refused for the
cool-off time; another user, or the same user from another address, is not affected."""

import pytest
from django.urls import reverse

from tests.actors import make_user


@pytest.fixture
def victim(db):
    return make_user("victim")


def _web_login(client, path, password):
    # the site's sign-in form (django-allauth) names its field "login"; Django admin's "username"
    field = "username" if path.startswith("/admin/") else "login"
    return client.post(path, {field: "victim", "password": password}, REMOTE_ADDR="203.0.113.9")


def _token(client, password, addr="203.0.113.9"):
    return client.post("/api/auth/token/", {"username": "victim", "password": password}, REMOTE_ADDR=addr)


@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_thirty_wrong_passwords_lock_the_html_login(client, victim, settings, path):
    statuses = {_web_login(client, path, f"wrong-{i}").status_code for i in range(30)}
    assert 429 in statuses
    locked = _web_login(client, path, "victim-pw-123")
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session


def test_thirty_wrong_passwords_lock_the_api_token(client, victim):
    codes = [_token(client, f"wrong-{i}").status_code for i in range(30)]
    assert codes[0] == 400 and codes[-1] == 429
    assert _token(client, "victim-pw-123").status_code == 429
    # the same account from another address still logs in (no lock-out of a user by a stranger)
    assert _token(client, "victim-pw-123", addr="198.51.100.7").status_code == 200


def test_a_few_typos_do_not_lock(client, victim):
    for i in range(3):
        _web_login(client, reverse("login"), f"typo-{i}")
    response = _web_login(client, reverse("login"), "victim-pw-123")
    assert response.status_code == 302
