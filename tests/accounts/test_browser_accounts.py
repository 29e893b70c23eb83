"""In a browser, on a phone (390 px) and a desktop (1,366 px), in English and Japanese: sign up,
open the emailed link, verify, sign in. The pages fit the width and speak the reader's language."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from tests.accounts.conftest import PASSWORD
from tests.browser import chromium_page, needs_chromium

WORDS = {
    "en": {"signup": "Sign Up", "verify": "Verify your email address", "login": "Log in"},
    "ja": {"signup": "ユーザー登録", "verify": "メールアドレスを確認してください", "login": "ログイン"},
}


@needs_chromium
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1366])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_sign_up_and_verify_by_the_emailed_link(live_server, settings, lang, width):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox.clear()
    name = f"walker{width}{lang}"
    with chromium_page() as page:
        page.set_viewport_size({"width": width, "height": 900})
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        page.goto(f"{live_server.url}/accounts/login/")
        assert page.locator("#signup-link").is_visible() and page.locator("#forgot-link").is_visible()
        page.click("#signup-link")
        page.wait_for_selector("input[name=email]")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.fill("input[name=email]", f"{name}@example.org")
        page.fill("input[name=username]", name)
        page.fill("input[name=password1]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        page.click("form.card button[type=submit]")
        page.wait_for_url(re.compile(r"/accounts/confirm-email/$"))
        assert WORDS[lang]["verify"] in page.inner_text("main")
        assert page.evaluate("document.documentElement.scrollWidth") <= width

        assert len(mail.outbox) == 1 and mail.outbox[0].to == [f"{name}@example.org"]
        link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mail.outbox[0].body).group(0)
        page.goto(link)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.click("main form button[type=submit]")
        page.wait_for_url(re.compile(r"/accounts/login/"))
        assert EmailAddress.objects.get(email=f"{name}@example.org").verified

        page.fill("input[name=login]", f"{name}@example.org")
        page.fill("input[name=password]", PASSWORD)
        page.click("form.card button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        assert page.locator("header nav a[href='/accounts/email/']").count() == 1
        assert page.evaluate("document.documentElement.lang") == ("ja" if lang == "ja" else "en")
