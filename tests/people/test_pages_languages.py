"""People's pages read in Traditional Chinese and in Japanese: no English left in the interface
(the checker of tests/i18n/test_zh_hant_pages.py, on these pages with their rows filled)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Player
from people.models import LinkRequest
from tests.actors import make_user
from tests.i18n.test_zh_hant_pages import english_words, find_english, visible_text
from tests.people.conftest import login

pytestmark = pytest.mark.django_db


def _in(client, lang):
    client.post(reverse("set_language"), {"language": lang, "next": "/"})
    return client


@pytest.mark.parametrize("lang", ["zh-hant", "ja"])
def test_people_pages_have_no_english_left(lang, admin, league, roster, person):
    client = _in(login(admin), lang)
    client.post(
        f"/leagues/{league.slug}/claims/", {"action": "send", "player": roster[0].pk, "email": "person@example.org"}
    )
    from django.core import mail

    token = re.search(r"/claim/([A-Za-z0-9_-]+)/", mail.outbox[-1].body).group(1)
    asker = make_user("asker")
    LinkRequest.objects.create(league=league, user=asker, membership_number="ZZ9")
    LinkRequest.objects.create(
        league=league, user=asker, membership_number=roster[1].membership_number, player=roster[1]
    )
    user_data = [p.display_name for p in Player.objects.all()] + [p.native_name for p in Player.objects.all()]
    user_data += ["Test League", "person@example.org", "asker", "admin", "person", "ZZ9", "M001", "M002", token]
    pages = [(client, f"/leagues/{league.slug}/claims/")]
    pages += [(_in(Client(), lang), f"/claim/{token}/")]
    own = _in(login(person), lang)
    pages += [(own, f"/claim/{token}/"), (own, "/me/claim/"), (own, "/me/player/new/"), (own, "/me/data/")]
    pages += [(own, "/me/close/"), (own, "/me/"), (_in(login(asker), lang), "/me/")]
    english = visible_text(login(admin).get(f"/leagues/{league.slug}/claims/").content.decode())
    assert "Invitations" in english_words(english, user_data)  # the checker sees English where it is
    problems = []
    for c, url in pages:
        response = c.get(url)
        assert response.status_code == 200, url
        text = visible_text(response.content.decode())
        words = find_english(text, user_data) + english_words(text, user_data)
        if words:
            problems.append(f"{url}: {words}")
    assert not problems, problems
