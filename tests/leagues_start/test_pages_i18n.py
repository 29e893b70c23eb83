"""The front door's pages in Traditional Chinese and Japanese: no English left behind (the checker
of tests/i18n/test_zh_hant_pages.py, on these pages alone), and the start form on a phone's width
is one column of fields (no fixed widths)."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

from kyoku import roles
from tests.actors import make_user
from tests.i18n.test_zh_hant_pages import LANGS, _po, _untranslated, english_words, find_english, visible_text
from tests.leagues_start.conftest import start_data


@pytest.fixture(scope="module", params=sorted(LANGS))
def catalogue(request):
    po = _po(request.param)
    po.lang = request.param
    return po


def _client(user, lang: str) -> Client:
    client = Client()
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": lang, "next": "/"})
    return client


@pytest.mark.django_db
def test_front_door_pages_are_translated(catalogue, founder, superuser, settings):
    settings.LEAGUE_START = "approval"
    lang = LANGS[catalogue.lang]
    client = _client(founder, lang)
    assert client.post("/leagues/new/", start_data()).status_code == 302
    boss = _client(superuser, lang)
    boss.post("/leagues/requests/", {"action": "approve", "league": "0"})  # an unknown league: words
    from kyoku.models import League

    league = League.objects.get(slug="harbour")
    assert boss.post("/leagues/requests/", {"action": "approve", "league": league.pk}).status_code == 302
    league.refresh_from_db()
    invited = make_user("invited", email="invited@example.org")
    EmailAddress.objects.create(user=invited, email="invited@example.org", verified=True, primary=True)
    _invitation, token = roles.role_invite(league=league, role="director", email="invited@example.org", actor=founder)
    pages = {
        "choose": (client, "/leagues/new/"),
        "form": (client, "/leagues/new/?preset=wrc"),
        "league": (client, "/leagues/harbour/"),
        "roles": (client, "/leagues/harbour/roles/"),
        "settings": (client, "/leagues/harbour/settings/"),
        "requests": (boss, "/leagues/requests/"),
        "accept": (_client(invited, lang), f"/roles/accept/{token}/"),
    }
    user_data = ["Harbour League", "海港聯賽", "founder", "invited", "site", "A Division", "B Division"]
    untranslated = _untranslated(catalogue)
    problems = []
    for name, (who, url) in pages.items():
        response = who.get(url)
        assert response.status_code == 200, (name, response.status_code)
        text = visible_text(response.content.decode())
        shown = sorted(m for m in untranslated if m in text)
        words = english_words(text, user_data) + find_english(text, user_data)
        if shown or words:
            problems.append(f"{name}: untranslated {shown[:5]} words {sorted(set(words))[:12]}")
    # a refusal's words too
    wrong = _client(make_user("wrong", email="wrong@example.org"), lang).post(f"/roles/accept/{token}/")
    assert wrong.status_code == 400
    text = visible_text(wrong.content.decode())
    if english_words(text, user_data):
        problems.append(f"refusal: {english_words(text, user_data)}")
    assert not problems, "\n".join(problems)


@pytest.mark.django_db
def test_the_start_form_has_no_fixed_widths(founder_client, open_start):
    body = founder_client.get("/leagues/new/?preset=wrc").content.decode()
    assert not re.search(r'style="[^"]*width', body)
    assert 'name="viewport"' in body
