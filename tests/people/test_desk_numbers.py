"""The event desk adds by membership number only a member of the event's league or a player
registered for the event; any other number gets one answer that names nobody, throttled."""

import re

import pytest

from events.models import Registration
from tests.actors import make_player_user
from tests.people.conftest import login

pytestmark = pytest.mark.django_db


def _register(client, event, number):
    return client.post(f"/events/{event.pk}/desk/", {"action": "register", "membership_number": number}, follow=True)


def _said(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_another_leagues_admin_cannot_learn_a_name_from_a_number(league, roster, elsewhere, event_of):
    """The hole: a director of another league typed numbers into the desk and read the names."""
    event = event_of(elsewhere, elsewhere.admin)
    client = login(elsewhere.admin)
    foreign = _register(client, event, roster[0].membership_number)  # a member of Test League
    unknown = _register(client, event, "NOBODY-999")
    assert foreign.status_code == unknown.status_code == 200
    assert _said(foreign) == _said(unknown)
    assert "has this membership number" in _said(foreign)[0]
    page = re.sub(r'nonce="[^"]+"|name="csrfmiddlewaretoken" value="[^"]+"', "", foreign.content.decode())
    assert "Player 1" not in page and "選手1" not in page
    assert not Registration.objects.filter(event=event).exists()


def test_the_leagues_own_member_and_a_self_registered_player_are_added(
    league, admin, roster, elsewhere, players, event_of
):
    event = event_of(league, admin)
    client = login(admin)
    response = _register(client, event, roster[1].membership_number)
    assert any("Player 2 (選手2) registered" in m for m in _said(response))
    # a player of another league who registered themselves, then withdrew: the desk may register them again
    guest = players[4]
    user = make_player_user("guest", guest)
    assert login(user).post(f"/events/{event.pk}/register/").status_code == 302
    login(user).post(f"/events/{event.pk}/withdraw/")
    assert Registration.objects.get(event=event, player=guest).status == Registration.Status.WITHDRAWN
    response = _register(client, event, guest.membership_number)
    assert Registration.objects.get(event=event, player=guest).status == Registration.Status.CONFIRMED


def test_unknown_numbers_are_throttled(league, admin, roster, event_of, settings):
    settings.THROTTLE_LIMITS = {"desk_number_user": (3, 600)}
    event = event_of(league, admin)
    client = login(admin)
    for i in range(3):
        assert _register(client, event, f"GUESS{i}").status_code == 200
    response = client.post(f"/events/{event.pk}/desk/", {"action": "register", "membership_number": "GUESS9"})
    assert response.status_code == 429
    # the count is of the unknown numbers only: a member's number still answers … once the window allows
    assert not Registration.objects.filter(event=event).exists()
