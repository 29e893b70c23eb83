"""Opening a draft season's registration from the season office (page and API): the league's
current members with a login are told once; an open or closed season is refused in words."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from kyoku.models import AuditLog
from kyoku.principals import SYSTEM
from league import office, services
from league.models import LeagueMembership, Season
from league.services import roster
from notifications.models import Delivery, Notification
from tests.actors import make_player_user


@pytest.fixture
def logins(players):
    """Players 1-3 have a login (players 4-8 none); player 3 has left the league (archived)."""
    users = [make_player_user(f"p{i}", p) for i, p in enumerate(players[:3], start=1)]
    for user in users:
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    membership = LeagueMembership.objects.get(league__slug="test", player=players[2])
    roster.member_archive(membership=membership, actor=SYSTEM)
    return users


def _told(season):
    return Notification.objects.filter(
        kind="registration_open", key=f"season-open:{season.pk}", recipient__isnull=False
    )


def _page(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_office_page_says_the_status_and_who_will_be_told(draft, admin, logins):
    body = _page(admin).get(f"/office/seasons/{draft.pk}/").content.decode()
    assert 'id="office-open"' in body and f"/office/seasons/{draft.pk}/open/" in body
    assert "Draft: registration is not open yet" in body
    assert "Who will be told: 2 members of this league with a login" in body  # p1, p2 (p3 archived)


def test_opening_a_draft_season_tells_the_current_members_once(
    draft, admin, logins, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = _page(admin).post(f"/office/seasons/{draft.pk}/open/")
    assert sorted(m.to[0] for m in mailoutbox) == ["p1@example.org", "p2@example.org"]
    assert response.status_code == 302 and response["Location"] == f"/office/seasons/{draft.pk}/"
    draft.refresh_from_db()
    assert draft.status == Season.Status.OPEN
    assert sorted(n.recipient.username for n in _told(draft)) == ["p1", "p2"]
    # each told in their inbox and by email (the kind's default channel), once
    deliveries = Delivery.objects.filter(notification__in=_told(draft))
    assert sorted(deliveries.values_list("notification__recipient__username", "channel")) == [
        ("p1", "email"),
        ("p2", "email"),
    ]
    assert AuditLog.objects.filter(action="season.open", object_id=str(draft.pk)).count() == 1
    assert AuditLog.objects.filter(action="season.status", object_id=str(draft.pk), data__to="open").count() == 1
    # the office no longer offers it, and says the season is open
    body = _page(admin).get(f"/office/seasons/{draft.pk}/").content.decode()
    assert 'id="office-open"' not in body and "Open: registration is open" in body
    # asked again: refused in words, nobody told twice
    with django_capture_on_commit_callbacks(execute=True):
        response = _page(admin).post(f"/office/seasons/{draft.pk}/open/", follow=True)
    assert len(mailoutbox) == 2
    assert "Registration for this season is already open." in response.content.decode()
    assert _told(draft).count() == 2 and deliveries.count() == 2
    assert AuditLog.objects.filter(action="season.open", object_id=str(draft.pk)).count() == 1


def test_an_open_or_closed_season_is_refused_with_a_conflict(season, draft, admin):
    with pytest.raises(Exception) as refused:
        office.season_open(season=season, actor=admin)
    assert getattr(refused.value, "http_status", None) == 409
    assert refused.value.message_dict == {"status": ["Registration for this season is already open."]}
    services.season_status_set(season=season, status=Season.Status.CLOSED, actor=SYSTEM)
    with pytest.raises(Exception) as refused:
        office.season_open(season=season, actor=admin)
    assert "reopen it instead" in refused.value.message_dict["status"][0]
    season.refresh_from_db()
    assert season.status == Season.Status.CLOSED
    assert not AuditLog.objects.filter(action="season.open").exists()


def test_only_the_leagues_admin_opens_it(draft, referee, logins):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        office.season_open(season=draft, actor=referee)
    assert _page(referee).post(f"/office/seasons/{draft.pk}/open/").status_code == 403
    draft.refresh_from_db()
    assert draft.status == Season.Status.DRAFT and not _told(draft).exists()


def test_the_api_twin(draft, season, admin, referee, logins):
    api = APIClient()
    api.force_authenticate(referee)
    assert api.post(f"/api/seasons/{draft.pk}/open/", {}, format="json").status_code == 403
    api.force_authenticate(admin)
    response = api.post(f"/api/seasons/{draft.pk}/open/", {}, format="json")
    assert response.status_code == 200
    assert response.json() == {"id": draft.pk, "year": 2026, "number": 2, "status": "open"}
    assert _told(draft).count() == 2
    again = api.post(f"/api/seasons/{draft.pk}/open/", {}, format="json")
    assert again.status_code == 409
    assert again.json()["errors"]["status"] == ["Registration for this season is already open."]
    assert _told(draft).count() == 2
    assert api.post(f"/api/seasons/{season.pk}/open/", {}, format="json").status_code == 409


def test_in_chinese_and_japanese(draft, admin):
    client = _page(admin)
    zh = client.get(f"/office/seasons/{draft.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    ja = client.get(f"/office/seasons/{draft.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "Open registration" not in zh and "Open registration" not in ja
    assert "Who will be told" not in zh and "Who will be told" not in ja
    assert "草稿：尚未開放報名" in zh and "下書き：登録はまだ開いていません" in ja
    assert "Draft" not in zh and "Draft" not in ja


def test_the_tiers_page_in_chinese_and_japanese(season, admin):
    client = _page(admin)
    zh = client.get("/leagues/test/tiers/", HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    ja = client.get("/leagues/test/tiers/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "資格類別" in zh and "資格区分" in ja
    for english in (
        "Add the tier",
        "Online accounts",
        "Lowest rank",
        "In force from year",
        "Phoenix room",
        "Celestial",
    ):
        assert english not in zh and english not in ja
