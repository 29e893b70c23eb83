"""A person downloads all their data (JSON, a zip of CSVs) and closes their account: the account
and the ways to reach them go, the player and its results stay."""

import csv
import io
import json
import zipfile

import pytest
from django.contrib.auth import get_user_model

from kyoku.models import AuditLog, LeagueRole
from kyoku.principals import SYSTEM
from league import services
from league.models import GameSeat, LeagueMembership, Player
from notifications.models import Notification, Preferences, PushSubscription
from people.models import ClaimInvitation
from tests.actors import make_player_user
from tests.people.conftest import login, verified

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(league, admin, players, season):
    """Player 1 (a login, 'member', its address verified) played one recorded game."""
    user = make_player_user("member", players[0])
    user.email = "member@example.org"
    user.save()
    verified(user, "member@example.org")
    division = season.divisions.get(code="A")
    game = services.game_create(division=division, match_day=1, table=1, players=players[:4], actor=SYSTEM)
    services.game_result_record(game=game, scores=[48000, 35800, 21000, 15200], actor=admin)
    services.penalty_assign(season=season, player=players[0], offence="slow_play", sanction="warning", actor=admin)
    Preferences.objects.create(user=user, language="ja")
    PushSubscription.objects.create(user=user, endpoint="https://push.example.org/1", p256dh="k", auth="a")
    LeagueMembership.objects.filter(player=players[0]).update(contact_email="member@example.org")
    return user


def test_the_data_as_json(played, players):
    response = login(played).get("/me/data/?format=json")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert data["account"][0]["username"] == "member"
    assert data["email_addresses"] == [{"email": "member@example.org", "verified": True, "primary": True}]
    assert data["player"][0]["membership_number"] == "M001"
    assert [g["raw_score"] for g in data["games"]] == [48000] and data["games"][0]["place"] == 1
    assert [(r["seat"], r["raw_score"]) for r in data["game_seats"]] == [
        (0, 48000),
        (1, 35800),
        (2, 21000),
        (3, 15200),
    ]
    assert data["penalties"][0]["offence"] == "slow_play"
    assert data["memberships"][0]["league__name"] == "Test League"
    assert data["notification_preferences"][0]["language"] == "ja"
    assert [n["kind"] for n in data["notifications"]] == ["penalty_issued"]  # told of the penalty
    assert len(data["push_subscriptions"]) == 1
    assert set(data) >= {"applications", "entries", "rulings", "appeals", "registrations", "audit_entries"}


def test_the_data_as_csv_files_in_a_zip(played):
    response = login(played).get("/me/data/?format=csv")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert "no-store" in response["Cache-Control"]
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert {"account.csv", "player.csv", "games.csv", "penalties.csv", "audit_entries.csv"} <= set(archive.namelist())
    rows = list(csv.DictReader(io.StringIO(archive.read("games.csv").decode("utf-8-sig"))))
    assert rows[0]["raw_score"] == "48000" and rows[0]["place"] == "1"


def test_a_bad_format_names_the_field_and_anonymous_logs_in(client, played):
    response = login(played).get("/me/data/?format=xml")
    assert response.status_code == 400 and "format" in response.content.decode()
    response = client.get("/me/data/?format=json")
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_closing_needs_the_password_and_the_login_name(played):
    client = login(played)
    assert client.get("/me/close/").status_code == 200
    response = client.post("/me/close/", {"password": "wrong", "confirm": "member"})
    assert response.status_code == 400 and "not your password" in response.content.decode()
    response = client.post("/me/close/", {"password": "member-pw-123", "confirm": "someone"})
    assert response.status_code == 400 and "login name" in response.content.decode()
    played.refresh_from_db()
    assert played.is_active and not AuditLog.objects.filter(action="account.close").exists()


def test_closing_the_account_keeps_the_player_and_its_results(played, players, league):
    from allauth.account.models import EmailAddress

    LeagueRole.objects.create(league=league, user=played, role=LeagueRole.Role.REFEREE)
    ClaimInvitation.objects.create(league=league, player=players[0], email="member@example.org", token_hash="x" * 64)
    client = login(played)
    other_session = login(played)
    response = client.post("/me/close/", {"password": "member-pw-123", "confirm": "member"})
    assert response.status_code == 302 and response["Location"] == "/"
    user = get_user_model().objects.get(pk=played.pk)
    assert not user.is_active and user.username == f"closed-{user.pk}" and user.email == ""
    assert not user.has_usable_password()
    assert not EmailAddress.objects.filter(user=user).exists()
    assert not Preferences.objects.filter(user=user).exists()
    assert not PushSubscription.objects.filter(user=user).exists()
    assert not Notification.objects.filter(recipient=user).exists()
    assert not LeagueRole.objects.filter(user=user).exists()
    player = Player.objects.get(pk=players[0].pk)
    assert player.user is None and player.display_name == "Player 1" and player.membership_number == "M001"
    assert GameSeat.objects.filter(player=player, raw_score=48000).exists()
    assert LeagueMembership.objects.get(player=player).contact_email == ""
    assert ClaimInvitation.objects.get(player=player).email == ""
    entry = AuditLog.objects.get(action="account.close")
    assert entry.actor_id == user.pk and "member@example.org" not in json.dumps(entry.data)
    # every session ended: this one and the other
    for c in (client, other_session):
        assert c.get("/me/").status_code == 302
