"""The README's demo logins sign in through the sign-in form (django-allauth): the admin by
username or by its verified email, the referee and the player (no email) by username."""

import pytest
from django.test import Client

from tests.accounts.conftest import sign_in


@pytest.mark.parametrize(
    "login,password",
    [
        ("admin", "kyoku-admin"),
        ("admin@example.org", "kyoku-admin"),
        ("referee", "kyoku-referee"),
        ("player", "kyoku-player"),
    ],
)
def test_demo_logins_sign_in(demo, login, password):
    client = Client()
    response = sign_in(client, login, password)
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.session.get("_auth_user_id")
