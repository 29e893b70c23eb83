"""People's pages on a phone (390 px) and a desktop: nothing wider than the screen."""

import re

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client

from tests.browser import chromium_page, needs_chromium
from tests.people.conftest import login

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


def _session_cookie(client: Client, live_server) -> dict:
    return {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": live_server.url,
    }


@pytest.mark.parametrize("viewport", sorted(WIDTHS))
def test_claim_pages_fit_the_screen(live_server, admin, league, roster, person, viewport):
    client = login(admin)
    client.post(
        f"/leagues/{league.slug}/claims/", {"action": "send", "player": roster[0].pk, "email": "person@example.org"}
    )
    token = re.search(r"/claim/([A-Za-z0-9_-]+)/", mail.outbox[-1].body).group(1)
    pages = [
        (client, f"/leagues/{league.slug}/claims/"),
        (None, f"/claim/{token}/"),
        (login(person), "/me/claim/"),
        (login(person), "/me/player/new/"),
        (login(person), "/me/close/"),
    ]
    with chromium_page() as page:
        page.set_viewport_size(WIDTHS[viewport])
        for who, path in pages:
            page.context.clear_cookies()
            if who is not None:
                page.context.add_cookies([_session_cookie(who, live_server)])
            page.goto(f"{live_server.url}{path}")
            assert page.locator("h1").count() == 1, path
            overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{path} is {overflow}px wider than the {viewport}"
