"""A person asks to be linked by membership number: the same answer whether the number is a
member's, another league's or nobody's; asks throttled; the league's admins decide."""

import re

import pytest
from django.core import mail

from kyoku.models import AuditLog
from people.models import LinkRequest
from tests.actors import make_player_user, make_user
from tests.people.conftest import login, verified

pytestmark = pytest.mark.django_db


def _ask(client, league, number):
    return client.post("/me/claim/", {"league": league.pk, "membership_number": number})


def _normal(page: str, username: str, number: str) -> str:
    """The page without what differs by design: the form's token, the script nonces, the login
    name and the number the person typed (listed under "My requests")."""
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)
    page = re.sub(r'nonce="[^"]+"', "", page)
    return page.replace(username, "USER").replace(number, "NUMBER")


def test_the_answer_is_the_same_whatever_the_number(league, roster, elsewhere, players):
    answers = []
    for name, number in (
        ("asker-one", roster[0].membership_number),
        ("asker-two", players[4].membership_number),
        ("asker-three", "NOPE-1"),
    ):
        user = make_user(name)
        client = login(user)
        response = _ask(client, league, number)
        followed = client.get(response["Location"])
        answers.append((response.status_code, response["Location"], _normal(followed.content.decode(), name, number)))
    assert answers[0][0] == 302 and answers[0][1] == "/me/claim/"
    assert "If this number belongs to a member of Test League, its admins will review your request." in answers[0][2]
    assert answers[0] == answers[1] == answers[2]
    rows = {r.user.username: r for r in LinkRequest.objects.all()}
    assert rows["asker-one"].player == roster[0]
    assert (
        rows["asker-two"].player is None and rows["asker-three"].player is None
    )  # another league's member matches nothing here


def test_asks_are_throttled_per_user_and_per_address(league, roster, settings):
    settings.THROTTLE_LIMITS = {"link_request_user": (2, 3600), "link_request_client": (3, 3600)}
    user = make_user("asker")
    client = login(user)
    for _ in range(3):
        assert client.get("/me/claim/").status_code == 200  # reading the page counts nothing
    assert _ask(client, league, "X1").status_code == 302
    assert _ask(client, league, "X2").status_code == 302
    response = _ask(client, league, roster[0].membership_number)
    assert response.status_code == 429 and "Retry-After" in response
    # the address: another account from the same address has one ask left
    other = login(make_user("asker2"))
    assert _ask(other, league, "X3").status_code == 302
    assert _ask(other, league, "X4").status_code == 429
    assert LinkRequest.objects.count() == 3


def test_bad_input_names_the_field_and_stores_nothing(league, roster):
    client = login(make_user("asker"))
    response = client.post("/me/claim/", {"league": 99999, "membership_number": "M001"})
    assert response.status_code == 400 and 'id="id_league"' in response.content.decode()
    response = client.post("/me/claim/", {"league": league.pk, "membership_number": ""})
    assert response.status_code == 400
    assert not LinkRequest.objects.exists()


def test_an_account_with_a_player_cannot_ask(league, roster, players):
    holder = make_player_user("holder", players[7])
    response = _ask(login(holder), league, roster[0].membership_number)
    assert response.status_code == 409 and not LinkRequest.objects.exists()


def test_admins_see_the_match_and_approve_and_the_person_is_told(league, admin, roster):
    person = make_user("asker", email="asker@example.org")
    verified(person, "asker@example.org")
    _ask(login(person), league, roster[1].membership_number)
    _ask(login(person), league, "NOBODY")
    page = login(admin).get(f"/leagues/{league.slug}/claims/").content.decode()
    assert "Player 2" in page and "no member has this number" in page
    matched = LinkRequest.objects.get(player=roster[1])
    unmatched = LinkRequest.objects.get(player__isnull=True)
    client = login(admin)
    response = client.post(f"/leagues/{league.slug}/claims/", {"action": "approve", "request": unmatched.pk})
    assert response.status_code == 400 and "No member has this number" in response.content.decode()
    with pytest.MonkeyPatch.context():
        response = client.post(f"/leagues/{league.slug}/claims/", {"action": "approve", "request": matched.pk})
    assert response.status_code == 302
    roster[1].refresh_from_db()
    assert roster[1].user == person
    matched.refresh_from_db()
    assert matched.status == "approved" and matched.decided_by == admin
    assert AuditLog.objects.filter(action="link_request.approved").count() == 1
    me = login(person).get("/me/").content.decode()
    assert "Approved" in me


def test_reject_needs_a_reason_and_the_person_reads_it(league, admin, roster, django_capture_on_commit_callbacks):
    person = make_user("asker", email="asker@example.org")
    _ask(login(person), league, "NOBODY")
    request = LinkRequest.objects.get()
    client = login(admin)
    response = client.post(f"/leagues/{league.slug}/claims/", {"action": "reject", "request": request.pk})
    assert response.status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/leagues/{league.slug}/claims/",
            {"action": "reject", "request": request.pk, "reason": "No such member in our roster"},
        )
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and "No such member in our roster" in mail.outbox[0].body
    assert mail.outbox[0].to == ["asker@example.org"]
    me = login(person).get("/me/").content.decode()
    assert "Rejected" in me and "No such member in our roster" in me


def test_approve_refused_when_the_player_has_an_account(league, admin, roster):
    person = make_user("asker")
    _ask(login(person), league, roster[2].membership_number)
    make_player_user("first", roster[2])
    request = LinkRequest.objects.get()
    response = login(admin).post(f"/leagues/{league.slug}/claims/", {"action": "approve", "request": request.pk})
    assert response.status_code == 400 and "already linked" in response.content.decode()
    request.refresh_from_db()
    assert request.status == "pending"


def test_another_leagues_admin_cannot_decide(league, roster, elsewhere):
    person = make_user("asker")
    _ask(login(person), league, roster[0].membership_number)
    request = LinkRequest.objects.get()
    response = login(elsewhere.admin).post(
        f"/leagues/{league.slug}/claims/", {"action": "approve", "request": request.pk}
    )
    assert response.status_code == 403
    response = login(elsewhere.admin).post(
        f"/leagues/{elsewhere.slug}/claims/", {"action": "approve", "request": request.pk}
    )
    assert response.status_code == 400  # not a request of their league
    request.refresh_from_db()
    assert request.status == "pending"
