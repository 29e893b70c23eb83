"""The accounts pages (django-allauth's, in this site's templates) show no English in zh-Hant and
ja: each page, signed out and signed in (with and without an authenticator app), checked with the
zh-Hant page walk's own checker (tests/i18n/test_zh_hant_pages.py)."""

import pyotp
import pytest
from django.test import Client
from django.urls import reverse

from tests.accounts.conftest import sign_in
from tests.accounts.test_two_factors import totp_activate
from tests.actors import make_role_user, make_user
from tests.i18n.test_zh_hant_pages import LANGS, _po, _untranslated, english_words, find_english, visible_text


@pytest.fixture(scope="module", params=sorted(LANGS))
def catalogue(request):
    """The compiled catalogue of one language (the walk's fixture, without its check that every
    glossary file of every concern is compiled in already)."""
    po = _po(request.param)
    po.lang = request.param
    return po


SIGNED_OUT = [
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/done/",
    "/accounts/password/reset/key/zz-no-such-key/",
    "/accounts/confirm-email/",
    "/accounts/confirm-email/no-such-key/",
    "/accounts/inactive/",
]
SIGNED_IN = [
    "/accounts/email/",
    "/accounts/password/change/",
    "/accounts/sessions/",
    "/accounts/2fa/",
    "/accounts/2fa/totp/activate/",
    "/accounts/reauthenticate/",
    "/accounts/logout/",
]
WITH_TOTP = ["/accounts/2fa/", "/accounts/2fa/recovery-codes/", "/accounts/2fa/totp/deactivate/"]


def _problems(catalogue, client, urls, extra_data=()):
    untranslated = _untranslated(catalogue)
    data = sorted([*extra_data], key=len, reverse=True)
    found = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, f"{url}: {response.status_code}"
        text = visible_text(response.content.decode())
        shown = sorted(m for m in untranslated if m in text)
        english = find_english(text, data) + english_words(text, data)
        if shown or english:
            found.append(f"{url}: untranslated {shown[:5]} english {english[:10]}")
    return found


def _language(client, catalogue):
    client.post(reverse("set_language"), {"language": LANGS[catalogue.lang], "next": "/"})


def test_signed_out_pages(db, catalogue):
    client = Client()
    _language(client, catalogue)
    assert not _problems(catalogue, client, SIGNED_OUT)


def test_signed_in_pages(db, catalogue, league):
    user = make_role_user("reader", league, "admin")
    client = Client()
    _language(client, catalogue)
    assert sign_in(client, "reader", "reader-pw-123").status_code == 302
    client.post("/accounts/reauthenticate/", {"password": "reader-pw-123"})
    urls = [*SIGNED_IN, f"/leagues/{league.slug}/security/"]
    assert not _problems(catalogue, client, urls, ["reader", "Test League", "Kyoku"])
    secret = totp_activate(client, "reader-pw-123")
    assert pyotp.TOTP(secret).now()
    client.post("/accounts/reauthenticate/", {"password": "reader-pw-123"})
    assert not _problems(catalogue, client, WITH_TOTP, ["reader", "Kyoku"])
    assert user.pk


def test_the_second_step_of_a_sign_in(db, catalogue):
    make_user("stepper")
    client = Client()
    sign_in(client, "stepper", "stepper-pw-123")
    totp_activate(client, "stepper-pw-123")
    fresh = Client()
    _language(fresh, catalogue)
    assert sign_in(fresh, "stepper", "stepper-pw-123")["Location"].startswith("/accounts/2fa/authenticate/")
    assert not _problems(catalogue, fresh, ["/accounts/2fa/authenticate/"])
