"""A person on no roster creates their own player, then applies for a qualification and registers
for an event."""

import re

import pytest

from events.models import Registration
from kyoku.models import AuditLog
from league.models import LeagueMembership, Player, QualificationApplication, QualificationTier
from notifications.models import Preferences
from people.services import membership_number_new
from tests.actors import make_player_user, make_user
from tests.people.conftest import login

pytestmark = pytest.mark.django_db

FORM = {
    "family_name": "陳",
    "given_name": "大文",
    "native_name": "陳大文",
    "name_order": "family_first",
    "language": "zh-hant",
}


def test_a_person_creates_their_player(db):
    user = make_user("newcomer")
    client = login(user)
    assert client.get("/me/player/new/").status_code == 200
    response = client.post("/me/player/new/", FORM)
    assert response.status_code == 302 and response["Location"] == "/me/"
    player = Player.objects.get(user=user)
    assert player.display_name == "陳大文" and player.family_name == "陳" and player.given_name == "大文"
    assert re.fullmatch(r"K-\d{8}", player.membership_number)
    assert Preferences.objects.get(user=user).language == "zh-hant"
    assert AuditLog.objects.filter(action="player.self_create", actor=user).count() == 1
    me = client.get("/me/").content.decode()
    assert "陳大文" in me
    # once is enough: one account is one player
    response = client.post("/me/player/new/", FORM)
    assert response.status_code == 409 and Player.objects.filter(user=user).count() == 1


def test_given_first_names_make_the_display_name(db):
    user = make_user("ana")
    login(user).post(
        "/me/player/new/",
        {"family_name": "García López", "given_name": "Ana", "name_order": "given_first", "language": "en"},
    )
    assert Player.objects.get(user=user).display_name == "Ana García López"


@pytest.mark.parametrize(
    "form,field",
    [
        ({"family_name": "", "given_name": ""}, "given_name"),
        ({"family_name": "Chan\u202e", "given_name": "Tai Man"}, "family_name"),
        ({"family_name": "Chan", "given_name": "Tai Man", "language": "xx"}, "language"),
    ],
)
def test_bad_names_are_refused_naming_the_field(db, form, field):
    user = make_user("bad")
    data = {"name_order": "given_first", "language": "en", **form}
    response = login(user).post("/me/player/new/", data)
    assert response.status_code == 400
    assert f'id="id_{field}"' in response.content.decode()
    assert "errorlist" in response.content.decode()
    assert not Player.objects.filter(user=user).exists()


def test_the_number_never_takes_a_held_one(db, monkeypatch):
    Player.objects.create(display_name="Held", membership_number="K-00000000")
    draws = iter("0" * 8 + "12345678")
    monkeypatch.setattr("people.services.own_player.secrets.choice", lambda digits: next(draws))
    assert membership_number_new() == "K-12345678"


def test_the_new_player_applies_and_registers(league, admin, rules, season, event_of):
    user = make_user("newcomer")
    client = login(user)
    client.post("/me/player/new/", FORM)
    player = Player.objects.get(user=user)
    tier = QualificationTier.objects.create(
        league=league, code="9", description="Open", division_code="A", effective_year=2020, requirements={}
    )
    response = client.post("/me/", {"season": season.pk, "tier": tier.pk, "evidence_year": 2026, "note": "new here"})
    assert response.status_code == 302, response.content.decode()[-2000:]
    application = QualificationApplication.objects.get(player=player)
    assert application.status == "pending"
    assert LeagueMembership.objects.get(player=player, league=league).via == "application"
    event = event_of(league, admin)
    response = client.post(f"/events/{event.pk}/register/", {})
    assert response.status_code == 302
    assert Registration.objects.get(event=event, player=player).status == Registration.Status.CONFIRMED


def test_a_player_account_is_sent_back(players):
    holder = make_player_user("holder", players[0])
    page = login(holder).get("/me/player/new/").content.decode()
    assert "already linked to a player" in page
