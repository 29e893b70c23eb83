"""The review queue keeps decided applications: a filterable history beside the pending queue."""

import pytest
from django.urls import reverse

from league import services
from kyoku.models import League
from league.models import QualificationTier
from tests.actors import make_role_user
from kyoku.principals import SYSTEM


@pytest.fixture
def decided(season, players, admin, league):
    tier = QualificationTier.objects.create(
        league=league, code="1", description="1", validity="yearly", effective_year=2023, effective_number=3
    )
    tier2 = QualificationTier.objects.create(
        league=league, code="2", description="2", validity="yearly", effective_year=2023, effective_number=3
    )
    kept = services.application_submit(player=players[5], season=season, tier=tier, evidence={}, actor=SYSTEM)
    refused = services.application_submit(player=players[6], season=season, tier=tier2, evidence={}, actor=SYSTEM)
    waiting = services.application_submit(player=players[7], season=season, tier=tier, evidence={}, actor=SYSTEM)
    services.application_decide(application=kept, approve=True, actor=admin)
    services.application_decide(application=refused, approve=False, reason="no proof of rank", actor=admin)
    return kept, refused, waiting


def _history(body):
    return body[body.index('id="history"') :]


def test_history_lists_decided_beside_pending(client, decided, admin):
    client.force_login(admin)
    body = client.get(reverse("review")).content.decode()
    queue, history = body[: body.index('id="history"')], _history(body)
    assert "Player 8" in queue and "Player 6" not in queue
    assert "Player 6" in history and "Player 7" in history and "no proof of rank" in history
    assert "Player 8" not in history


def test_history_filters_by_status_and_tier(client, decided, admin):
    client.force_login(admin)
    rejected = _history(client.get(reverse("review") + "?status=rejected").content.decode())
    assert "Player 7" in rejected and "Player 6" not in rejected
    tier1 = _history(client.get(reverse("review") + "?tier=1").content.decode())
    assert "Player 6" in tier1 and "Player 7" not in tier1
    future = _history(client.get(reverse("review") + "?since=2999-01-01").content.decode())
    assert "Player 6" not in future and "No decided applications." in future


def test_bad_filter_is_ignored_not_500(client, decided, admin):
    client.force_login(admin)
    response = client.get(reverse("review") + "?status=maybe&since=notadate")
    assert response.status_code == 200


def test_it_validates_ownership(client, decided):
    other = League.objects.create(name="Other league", slug="other")
    client.force_login(make_role_user("other-admin", other, "admin"))
    body = client.get(reverse("review")).content.decode()
    assert "Player 6" not in body and "Player 7" not in body


def test_history_in_traditional_chinese(client, decided, admin):
    client.force_login(admin)
    client.post(reverse("set_language"), {"language": "zh-hant", "next": "/"})
    assert client.get(reverse("review")).status_code == 200
