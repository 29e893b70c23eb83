"""The scorekeeper and the rules tables render (English and Traditional Chinese)."""

import json

import pytest
from django.test import Client

from scoring.models import HandRecord

from .test_hands_riichi import HANDS

LANGS = ["en", "zh-hant"]


@pytest.fixture
def client_for():
    def make(user=None, lang="en"):
        client = Client(HTTP_ACCEPT_LANGUAGE=lang)
        if user is not None:
            client.force_login(user)
        return client

    return make


@pytest.mark.parametrize("lang", LANGS)
def test_rules_tables_render_from_engine_data(client_for, db, lang):
    response = client_for(lang=lang).get("/scoring/rules/")
    assert response.status_code == 200
    page = response.content.decode()
    assert f'lang="{lang}"' in page
    from scoring.engine.beijing import FACTORS
    from scoring.engine.riichi import OPTION_DOCS, PRESETS
    from scoring.engine.zung_jung import PATTERNS

    assert all(p["zh"] in page for p in PATTERNS) and "清一色" in page
    assert all(f["zh"] in page for f in FACTORS)
    from django.utils import translation

    from kyoku.labels import label

    with translation.override(lang):  # the presets by name (WRC, M.League), not by code
        assert all(
            label(name, "preset") in page for name in ("wrc", "ema", "mleague", "tenhou", "jpml") if name in PRESETS
        )
    assert "kiriage" in page and OPTION_DOCS["kiriage"].split()[0] in page


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("fixture", ["game", "zj_game", "beijing_game"])
def test_scorekeeper_renders_for_admin(request, client_for, admin, lang, fixture):
    game = request.getfixturevalue(fixture)
    response = client_for(admin, lang).get(f"/scoring/games/{game.pk}/scorekeeper/")
    assert response.status_code == 200
    page = response.content.decode()
    assert f'lang="{lang}"' in page and "scorekeeper.js" in page
    assert 'data-key="' in page and "sk-save" in page


def test_scorekeeper_after_hands_lists_them_and_offers_finish(client_for, admin, game):
    from scoring import services

    for record in HANDS[:2]:
        services.hand_record_add(game=game, record=record, actor=admin)
    page = client_for(admin).get(f"/scoring/games/{game.pk}/scorekeeper/").content.decode()
    assert "sk-finish" in page and "-4200" in page and 'data-sequence="3"' in page
    # a fresh idempotency key per load
    key = page.split('data-key="')[1].split('"')[0]
    page2 = client_for(admin).get(f"/scoring/games/{game.pk}/scorekeeper/").content.decode()
    assert key != page2.split('data-key="')[1].split('"')[0]


@pytest.mark.parametrize("who", ["referee", "member", "outsider"])
def test_scorekeeper_refused_to_non_admins(request, client_for, game, who):
    assert client_for(request.getfixturevalue(who)).get(f"/scoring/games/{game.pk}/scorekeeper/").status_code == 403


def test_scorekeeper_anonymous_goes_to_login(client_for, game):
    response = client_for().get(f"/scoring/games/{game.pk}/scorekeeper/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_json_fallback_form_saves_a_hand(client_for, admin, game):
    client = client_for(admin)
    url = f"/scoring/games/{game.pk}/scorekeeper/"
    response = client.post(url, {"record": json.dumps(HANDS[0]), "sequence": 1})
    assert response.status_code == 302 and HandRecord.objects.count() == 1
    bad = client.post(
        url,
        {"record": json.dumps({"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 2, "fu": 35}]}})},
    )
    assert bad.status_code == 200 and "result.winners[0].fu" in bad.content.decode()
    assert HandRecord.objects.count() == 1


def test_game_page_links_admins_to_the_scorekeeper(client_for, admin, game, outsider):
    assert f"/scoring/games/{game.pk}/scorekeeper/" in client_for(admin).get(f"/games/{game.pk}/").content.decode()
    assert "scorekeeper" not in client_for(outsider).get(f"/games/{game.pk}/").content.decode()
