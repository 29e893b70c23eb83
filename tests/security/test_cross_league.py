"""Another league's admin or referee sees and touches nothing of this league: lists are scoped,
writes refused, private notes and proposals withheld."""

import pytest
from django.urls import reverse

from league import services
from league.models import GameResult, QualificationApplication
from referee import services as referee_services
from kyoku.principals import SYSTEM


@pytest.fixture
def game(division_a, players):
    return services.game_create(division=division_a, match_day=1, table=1, players=players[:4], actor=SYSTEM)


@pytest.fixture
def application(season, players, tier):
    return services.application_submit(player=players[0], season=season, tier=tier, evidence={}, actor=SYSTEM)


@pytest.fixture
def incident(game, referee):
    events = [
        {"t": 0, "seat": 0, "act": "discard", "settled_t": 300},
        {"t": 1000, "seat": 1, "act": "draw"},
        {"t": 2000, "seat": 1, "act": "discard", "settled_t": 2200},
        {"t": 3000, "seat": 3, "act": "claim_deal_incomplete", "kind": "short"},
    ]
    return referee_services.incident_log(
        game=game,
        hand_number=1,
        dealer=0,
        kind="deal_error",
        events=events,
        private_notes="only for our referees",
        reporter=referee,
    )


def test_another_leagues_admin_cannot_post_a_result(as_user, other_admin, game):
    response = as_user(other_admin).post(
        f"/api/games/{game.pk}/result/", {"scores": [48000, 35800, 21000, 15200]}, format="json"
    )
    assert response.status_code == 403
    assert not GameResult.objects.exists()


def test_another_leagues_admin_sees_no_application(as_user, other_admin, admin, application):
    assert as_user(other_admin).get("/api/applications/").json()["count"] == 0
    assert as_user(other_admin).get(f"/api/applications/{application.pk}/").status_code == 404
    assert as_user(admin).get("/api/applications/").json()["count"] == 1


def test_another_leagues_admin_cannot_decide(client, as_user, other_admin, application):
    api = as_user(other_admin)
    assert api.post(f"/api/applications/{application.pk}/decide/", {"approve": True}, format="json").status_code == 403
    client.force_login(other_admin)
    client.post(reverse("review-decide", args=[application.pk]), {"decision": "approve"})
    application.refresh_from_db()
    assert application.status == QualificationApplication.Status.PENDING
    assert b"Player 1" not in client.get(reverse("review")).content


def test_another_leagues_referee_reads_no_incident_or_proposal(as_user, other_referee, incident):
    api = as_user(other_referee)
    assert api.get("/api/incidents/").json() == []
    assert api.get(f"/api/incidents/{incident.pk}/").status_code == 404
    assert api.get(f"/api/incidents/{incident.pk}/ruling/").status_code == 403


def test_a_player_of_the_game_sees_the_incident_without_private_notes(as_user, member, incident):
    rows = as_user(member).get("/api/incidents/").json()
    assert [r["id"] for r in rows] == [incident.pk]
    assert "private_notes" not in rows[0]
