"""An attacker at the front door: an open redirect after signing in, a form posted from another
site (CSRF) on each account action, an address in another script, and an invitation link opened by
the wrong account. Each is refused and writes nothing."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client

from kyoku.models import AuditLog
from tests.accounts.conftest import PASSWORD
from tests.actors import make_user

User = get_user_model()


def _verified(username: str, email: str):
    user = make_user(username, email=email)
    user.set_password(PASSWORD)
    user.save()
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "https:evil.example",
        "\\\\evil.example",
        "javascript:alert(1)",
        "http://127.0.0.1.evil.example/",
    ],
)
def test_signing_in_never_leads_to_another_site(db, target):
    _verified("walker", "walker@example.org")
    client = Client()
    response = client.post(f"/accounts/login/?next={target}", {"login": "walker", "password": PASSWORD, "next": target})
    assert response.status_code == 302
    location = response["Location"]
    assert location.startswith("/") and not location.startswith(("//", "/\\")), location
    assert "evil" not in location and "javascript" not in location


def test_a_path_on_this_site_is_followed(db):
    _verified("walker", "walker@example.org")
    response = Client().post("/accounts/login/", {"login": "walker", "password": PASSWORD, "next": "/me/"})
    assert response.status_code == 302 and response["Location"] == "/me/"


# every account action a signed-in person posts; a page on another site cannot post them
ACCOUNT_ACTIONS = [
    (
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": "N3w-passw0rd!x", "password2": "N3w-passw0rd!x"},
    ),
    ("/accounts/email/", {"action_add": "", "email": "other@example.org"}),
    ("/accounts/logout/", {}),
    ("/accounts/sessions/", {"action": "logout"}),
    ("/me/close/", {"password": PASSWORD, "confirm": "walker"}),
    ("/me/player/new/", {"family_name": "Chan", "given_name": "Tai Man"}),
    ("/me/claim/", {"league": "1", "membership_number": "X1"}),
    ("/leagues/new/", {"name": "Forged League", "slug": "forged"}),
]


@pytest.mark.parametrize("path,data", ACCOUNT_ACTIONS, ids=[p for p, _d in ACCOUNT_ACTIONS])
def test_an_account_action_posted_without_its_token_is_refused(db, path, data):
    user = _verified("walker", "walker@example.org")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    audits = AuditLog.objects.count()
    response = client.post(path, data)
    assert response.status_code == 403, (path, response.status_code)
    user.refresh_from_db()
    assert user.check_password(PASSWORD) and user.is_active
    assert list(EmailAddress.objects.filter(user=user).values_list("email", flat=True)) == ["walker@example.org"]
    assert AuditLog.objects.count() == audits


@pytest.mark.parametrize(
    "email",
    [
        "\u0430dmin@example.org",  # Cyrillic а
        "ｗａｌｋｅｒ@example.org",  # full-width
        "walker@ex\u0430mple.org",  # a Cyrillic letter in the domain
        "walker@例え.jp",
    ],
)
def test_an_address_in_another_script_is_refused_in_words_at_sign_up(db, email):
    response = Client().post(
        "/accounts/signup/", {"username": "scripty", "email": email, "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 200
    # Django's own check refuses a local part outside ASCII first; the site's rule the rest
    said = str(response.context["form"].errors["email"])
    assert "Latin letters" in said or "valid email address" in said
    assert not User.objects.filter(username="scripty").exists()


def test_an_address_in_another_script_is_refused_as_a_new_address(db):
    user = _verified("walker", "walker@example.org")
    client = Client()
    client.force_login(user)
    response = client.post("/accounts/email/", {"action_add": "", "email": "w\u0430lker@example.org"})
    assert response.status_code == 200
    said = str(response.context["form"].errors["email"])
    assert "Latin letters" in said or "valid email address" in said
    assert EmailAddress.objects.filter(user=user).count() == 1
