"""Accounts through django-allauth's real pages: sign up, verify by the emailed link, sign in by
email or username; a taken email; password reset and change; email change with verification;
sessions; allauth's rate limits on the 429 page; django-axes on the new form; a mail server that
is down."""

import smtplib

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tests.accounts.conftest import PASSWORD, link_in_last_mail, sign_in
from tests.actors import make_user

User = get_user_model()


def _sign_up(client, username="newcomer", email="newcomer@example.org", **extra):
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
        **extra,
    )


def test_sign_up_verify_then_sign_in_by_email_and_by_username(db):
    client = Client()
    response = _sign_up(client)
    assert response.status_code == 302 and response["Location"] == "/accounts/confirm-email/"
    user = User.objects.get(username="newcomer")
    assert not EmailAddress.objects.get(user=user).verified
    assert "_auth_user_id" not in client.session
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["newcomer@example.org"]

    # not yet verified: the password alone does not sign in, a new link is sent instead
    blocked = sign_in(Client(), "newcomer")
    assert blocked.status_code == 302 and blocked["Location"] == "/accounts/confirm-email/"

    link = link_in_last_mail("/accounts/confirm-email/")
    page = client.get(link)
    assert page.status_code == 200 and "newcomer@example.org" in page.content.decode()
    assert client.post(link).status_code == 302
    assert EmailAddress.objects.get(user=user).verified

    by_email = Client()
    assert sign_in(by_email, "NewComer@Example.org").status_code == 302
    assert by_email.session["_auth_user_id"] == str(user.pk)
    by_name = Client()
    assert sign_in(by_name, "newcomer").status_code == 302
    assert by_name.session["_auth_user_id"] == str(user.pk)


def test_an_email_already_taken_is_refused_to_its_holder_and_tells_a_stranger_nothing(db):
    make_user("first")
    EmailAddress.objects.create(user=User.objects.get(username="first"), email="same@example.org", verified=True)
    fresh = _sign_up(Client(), username="fresh", email="fresh@example.org")
    mail.outbox.clear()
    taken = _sign_up(Client(), username="second", email="same@example.org")
    # the same answer as a sign-up that worked: no oracle for whether the address has an account
    assert taken.status_code == fresh.status_code == 302
    assert taken["Location"] == fresh["Location"]
    assert not User.objects.filter(username="second").exists()
    assert EmailAddress.objects.filter(email__iexact="same@example.org").count() == 1
    # the refusal goes, in words, to whoever holds the address
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["same@example.org"]
    assert "already" in mail.outbox[0].body.lower()


def test_a_password_reset_answers_alike_for_an_unknown_address(db):
    user = make_user("known", email="known@example.org")
    EmailAddress.objects.create(user=user, email="known@example.org", verified=True, primary=True)
    known = Client().post("/accounts/password/reset/", {"email": "known@example.org"})
    unknown = Client().post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]


def test_an_account_without_email_signs_in_by_username(db):
    user = make_user("old-timer")
    client = Client()
    assert sign_in(client, "old-timer", "old-timer-pw-123").status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_password_reset_by_the_emailed_link(db):
    user = make_user("lost", email="lost@example.org")
    EmailAddress.objects.create(user=user, email="lost@example.org", verified=True, primary=True)
    client = Client()
    assert client.post("/accounts/password/reset/", {"email": "lost@example.org"}).status_code == 302
    link = link_in_last_mail("/accounts/password/reset/key/")
    form = client.get(link)
    assert form.status_code == 302  # allauth moves the key into the session
    url = form["Location"]
    done = client.post(url, {"password1": "a-New-passphrase-88", "password2": "a-New-passphrase-88"})
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a-New-passphrase-88")
    assert sign_in(Client(), "lost", "a-New-passphrase-88").status_code == 302


def test_password_change(db):
    user = make_user("changer")
    client = Client()
    sign_in(client, "changer", "changer-pw-123")
    wrong = client.post(
        "/accounts/password/change/",
        {"oldpassword": "nope", "password1": "a-New-passphrase-88", "password2": "a-New-passphrase-88"},
    )
    assert wrong.status_code == 200 and "oldpassword" in wrong.context["form"].errors
    ok = client.post(
        "/accounts/password/change/",
        {"oldpassword": "changer-pw-123", "password1": "a-New-passphrase-88", "password2": "a-New-passphrase-88"},
    )
    assert ok.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a-New-passphrase-88")


def test_email_change_waits_for_verification(db):
    user = make_user("mover", email="old@example.org")
    EmailAddress.objects.create(user=user, email="old@example.org", verified=True, primary=True)
    client = Client()
    sign_in(client, "mover", "mover-pw-123")
    mail.outbox.clear()
    response = client.post("/accounts/email/", {"action_add": "", "email": "new@example.org"})
    assert response.status_code == 302
    assert mail.outbox and mail.outbox[-1].to == ["new@example.org"]
    user.refresh_from_db()
    assert user.email == "old@example.org"  # not changed until the new address is verified
    link = link_in_last_mail("/accounts/confirm-email/")
    assert client.post(link).status_code == 302
    user.refresh_from_db()
    assert user.email == "new@example.org"
    assert list(EmailAddress.objects.filter(user=user).values_list("email", "verified")) == [("new@example.org", True)]


def test_sessions_list_and_signing_out_the_others(db):
    user = make_user("roamer")
    phone, laptop = Client(HTTP_USER_AGENT="Phone"), Client(HTTP_USER_AGENT="Laptop")
    sign_in(phone, "roamer", "roamer-pw-123")
    sign_in(laptop, "roamer", "roamer-pw-123")
    page = laptop.get("/accounts/sessions/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Phone" in html and "Laptop" in html
    assert laptop.post("/accounts/sessions/", {}).status_code == 302
    assert phone.get("/me/").status_code == 302  # signed out
    assert laptop.get("/me/").status_code == 200
    assert user.pk


def test_too_many_signups_get_the_429_page_in_the_readers_language(db, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "2/m/ip"}
    client = Client()
    client.cookies["django_language"] = "ja"
    codes = [_sign_up(client, username=f"u{i}", email=f"u{i}@example.org").status_code for i in range(3)]
    assert codes[:2] == [302, 302] and codes[2] == 429
    html = _sign_up(client, username="u9", email="u9@example.org").content.decode()
    assert 'id="error-page"' in html and "リクエストが多すぎます" in html


def test_axes_locks_the_new_form_by_username_and_by_email(db):
    user = make_user("victim", email="victim@example.org")
    EmailAddress.objects.create(user=user, email="victim@example.org", verified=True, primary=True)
    client = Client()
    codes = [sign_in(client, "victim", f"wrong-{i}", REMOTE_ADDR="203.0.113.5").status_code for i in range(5)]
    assert codes == [200] * 4 + [429]  # the fifth failure locks
    # locked: the right password, by username or by email, from that address
    assert sign_in(client, "victim", "victim-pw-123", REMOTE_ADDR="203.0.113.5").status_code == 429
    assert sign_in(client, "victim@example.org", "victim-pw-123", REMOTE_ADDR="203.0.113.5").status_code == 429
    assert "_auth_user_id" not in client.session
    # and on Django admin's form too: one lock per account
    admin_form = client.post(
        "/admin/login/", {"username": "victim", "password": "victim-pw-123"}, REMOTE_ADDR="203.0.113.5"
    )
    assert admin_form.status_code == 429
    # another address is not locked out
    assert sign_in(Client(), "victim", "victim-pw-123", REMOTE_ADDR="198.51.100.5").status_code == 302


def test_failures_by_email_count_for_the_account(db):
    user = make_user("target", email="target@example.org")
    EmailAddress.objects.create(user=user, email="target@example.org", verified=True, primary=True)
    client = Client()
    for i in range(5):
        sign_in(client, "Target@Example.org", f"wrong-{i}", REMOTE_ADDR="203.0.113.6")
    assert sign_in(client, "target", "target-pw-123", REMOTE_ADDR="203.0.113.6").status_code == 429


class _DownBackend:
    """An EMAIL_BACKEND whose server is down."""

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


class _TimeoutBackend(_DownBackend):
    def send_messages(self, messages):
        raise TimeoutError("timed out")


@pytest.mark.parametrize("backend", ["_DownBackend", "_TimeoutBackend"])
def test_mail_server_down_at_sign_up_is_said_and_asking_again_works(db, settings, backend):
    settings.EMAIL_BACKEND = f"tests.accounts.test_accounts.{backend}"
    client = Client()
    response = _sign_up(client, username="unlucky", email="unlucky@example.org")
    assert response.status_code == 302
    page = client.get(response["Location"])
    html = page.content.decode()
    assert page.status_code == 200
    assert "could not be sent to unlucky@example.org" in html
    assert "Confirmation email sent" not in html

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    again = sign_in(Client(), "unlucky")  # asking again: signing in sends a new link
    assert again.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["unlucky@example.org"]


def test_mail_server_down_at_password_reset_is_said_and_asking_again_works(db, settings):
    user = make_user("resetter", email="resetter@example.org")
    EmailAddress.objects.create(user=user, email="resetter@example.org", verified=True, primary=True)
    settings.EMAIL_BACKEND = "tests.accounts.test_accounts._DownBackend"
    client = Client()
    response = client.post("/accounts/password/reset/", {"email": "resetter@example.org"}, follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert "could not be sent to resetter@example.org" in html and "Ask again for a reset link." in html
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert client.post("/accounts/password/reset/", {"email": "resetter@example.org"}).status_code == 302
    assert len(mail.outbox) == 1


def test_the_login_page_links_to_sign_up_and_forgotten_password(db):
    html = Client().get("/accounts/login/").content.decode()
    assert 'href="/accounts/signup/' in html and 'href="/accounts/password/reset/"' in html
