"""Referee pages in English and Traditional Chinese, with per-role access."""

import json

import pytest
from django.urls import reverse
from django.utils.html import escape

from league.models import Penalty
from referee import services
from referee.models import Appeal, Incident, Ruling


@pytest.fixture
def logged(game, referee, tl):
    return services.incident_log(
        game=game,
        hand_number=2,
        dealer=0,
        kind="early_play",
        events=tl.harmful(),
        description="South discarded during the deal",
        private_notes="SECRET-NOTE",
        reporter=referee,
    )


@pytest.fixture
def ruled(logged, referee):
    return services.ruling_decide(incident=logged, referee=referee, accept=True)


def zh(client):
    client.post(reverse("set_language"), {"language": "zh-hant", "next": "/"})


@pytest.mark.parametrize("who,status", [("admin", 200), ("referee", 200), ("member", 403), ("outsider", 403)])
def test_dashboard_and_form_are_for_referees(client, game, admin, referee, member, outsider, who, status):
    client.force_login({"admin": admin, "referee": referee, "member": member, "outsider": outsider}[who])
    assert client.get(reverse("referee-dashboard")).status_code == status
    assert client.get(reverse("referee-incident-new") + f"?game={game.pk}").status_code == status


def test_anonymous_goes_to_login(client, game, logged):
    for url in [
        reverse("referee-dashboard"),
        reverse("referee-incident-new") + f"?game={game.pk}",
        reverse("referee-incident", args=[logged.pk]),
        reverse("referee-mine"),
    ]:
        response = client.get(url)
        assert response.status_code == 302 and "login" in response["Location"], url


def test_dashboard_lists_open_incidents(client, referee, logged):
    client.force_login(referee)
    body = client.get(reverse("referee-dashboard")).content.decode()
    assert f'href="/referee/incidents/{logged.pk}/"' in body and "Play during the deal" in body


def test_incident_form_builder_and_save(client, referee, game, tl):
    client.force_login(referee)
    url = reverse("referee-incident-new") + f"?game={game.pk}"
    body = client.get(url).content.decode()
    assert "incident.js" in body and 'id="incident-rules"' in body and 'data-act="touch_wall"' in body
    assert 'data-act="claim_deal_incomplete"' in body and 'data-kind="pon"' in body
    bad = tl.incident_1()
    bad[3]["kind"] = "tiny"
    response = client.post(url, {"dealer": 0, "kind": "deal_error", "events": json.dumps(bad)})
    assert response.status_code == 200 and "events[3].kind" in response.content.decode()
    assert not Incident.objects.exists()
    response = client.post(
        url,
        {
            "dealer": 0,
            "kind": "deal_error",
            "hand_number": 4,
            "description": "North short",
            "private_notes": "",
            "events": json.dumps(tl.incident_1()),
        },
    )
    incident = Incident.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("referee-incident", args=[incident.pk])
    assert incident.events == tl.incident_1() and incident.reporter == referee


def test_incident_page_proposes_and_confirms(client, referee, logged, played):
    client.force_login(referee)
    url = reverse("referee-incident", args=[logged.pk])
    body = client.get(url).content.decode()
    assert 'id="proposed-ruling"' in body and 'id="decide-form"' in body and "SECRET-NOTE" in body
    assert "Early play that harmed another player" in body and "[1.1]" in body
    # override without reason: refused, nothing stored
    response = client.post(
        reverse("referee-ruling-decide", args=[logged.pk]),
        {"decision": "override", "override_drop_penalties": "on", "override_reason": ""},
        follow=True,
    )
    assert "Reason for the override" in response.content.decode() and not Ruling.objects.exists()
    response = client.post(reverse("referee-ruling-decide", args=[logged.pk]), {"decision": "accept"}, follow=True)
    assert response.status_code == 200
    ruling = Ruling.objects.get()
    assert ruling.decision == "accepted"
    assert Penalty.objects.get(ruling=ruling).sanction == "yellow_card"
    body = response.content.decode()
    assert f'id="ruling-{ruling.pk}"' in body and 'id="decide-form"' not in body


def test_incident_page_in_chinese_shows_chinese_explanation(client, referee, logged):
    client.force_login(referee)
    zh(client)
    body = client.get(reverse("referee-incident", args=[logged.pk])).content.decode()
    assert 'lang="zh-hant"' in body
    proposed = services.ruling_propose(incident=logged)
    assert escape(proposed["explanation_zh"][0]) in body and escape(proposed["explanation"][0]) not in body


def test_incident_page_for_players(client, member, bystander, logged, ruled):
    client.force_login(member)
    body = client.get(reverse("referee-incident", args=[logged.pk])).content.decode()
    assert "SECRET-NOTE" not in body and 'id="appeal-form"' in body and 'id="decide-form"' not in body
    client.force_login(bystander)
    assert client.get(reverse("referee-incident", args=[logged.pk])).status_code == 404


def test_appeal_and_decision_pages(client, member, referee, referee2, logged, ruled):
    client.force_login(member)
    client.post(reverse("referee-appeal-file", args=[ruled.pk]), {"reason": "North had no call to make"})
    appeal = Appeal.objects.get()
    assert Incident.objects.get().status == "appealed"
    client.force_login(referee)
    body = client.get(reverse("referee-incident", args=[logged.pk])).content.decode()
    assert 'id="pending-appeal"' in body and 'id="appeal-decision-form"' not in body
    response = client.post(
        reverse("referee-appeal-decide", args=[appeal.pk]), {"decision": "reverse", "reason": "mine"}, follow=True
    )
    assert "different referee" in response.content.decode()
    client.force_login(referee2)
    body = client.get(reverse("referee-incident", args=[logged.pk])).content.decode()
    assert 'id="appeal-decision-form"' in body
    client.post(reverse("referee-appeal-decide", args=[appeal.pk]), {"decision": "reverse", "reason": "no harm"})
    appeal.refresh_from_db()
    assert appeal.status == "reversed" and not ruled.penalties.get().active


def test_bystander_cannot_appeal(client, bystander, ruled):
    client.force_login(bystander)
    assert client.post(reverse("referee-appeal-file", args=[ruled.pk]), {"reason": "x"}).status_code == 403
    assert not Appeal.objects.exists()


def test_mine(client, member, bystander, outsider, ruled):
    client.force_login(member)
    body = client.get(reverse("referee-mine")).content.decode()
    assert f'id="ruling-{ruled.pk}"' in body and "SECRET-NOTE" not in body
    assert "Early play that harmed another player" in body and "early_play_harm" not in body
    client.force_login(bystander)
    assert f'id="ruling-{ruled.pk}"' not in client.get(reverse("referee-mine")).content.decode()
    client.force_login(outsider)
    assert client.get(reverse("referee-mine")).status_code == 200


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_public_season_log(client, ruled, season, lang):
    if lang != "en":
        zh(client)
    body = client.get(reverse("referee-season-rulings", args=[season.pk])).content.decode()
    assert f'lang="{lang}"' in body
    assert f'id="ruling-{ruled.pk}"' in body and "South discarded during the deal" in body
    assert "SECRET-NOTE" not in body
    line = ruled.final["explanation_zh" if lang != "en" else "explanation"][-1]
    assert escape(line) in body


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_referee_pages_render_in_both_languages(client, referee, game, logged, lang):
    client.force_login(referee)
    if lang != "en":
        zh(client)
    for url in [
        reverse("referee-dashboard"),
        reverse("referee-incident-new") + f"?game={game.pk}",
        reverse("referee-incident", args=[logged.pk]),
        reverse("referee-mine"),
        reverse("referee-season-rulings", args=[game.season_id]),
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert f'lang="{lang}"' in response.content.decode()


def test_unknown_game_is_404(client, referee):
    client.force_login(referee)
    assert client.get(reverse("referee-incident-new") + "?game=abc").status_code == 404
    assert client.get(reverse("referee-incident-new")).status_code == 404
