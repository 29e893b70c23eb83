"""Issue 34, item 8: entering a player is not the player's consent. An admin of league B who enters
a player of league A in B's season (player ids are public) sends an invitation: until the player
accepts it on their own page, B sees the public columns only and cannot touch their online
accounts (docs/privacy.md). Every actor here is explicit (a user or SYSTEM)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from rest_framework.test import APIClient

from kyoku.authz import player_leagues, player_private_visible
from kyoku.models import AuditLog, League, LeagueRole
from kyoku.principals import SYSTEM
from league import services
from league.models import Entry, LeagueInvitation, LeagueMembership, Player, QualificationTier
from tests.actors import make_player_user, make_role_user

PRIVATE = ("membership_number", "tenhou_id", "mahjong_soul_id")


@pytest.fixture
def rules(db):
    return services.rule_set_create(name="WRC", slug="wrc", preset="wrc", is_template=True, actor=SYSTEM)


def _open_season(league, rules, number=1):
    season = services.season_create(league=league, year=2026, number=number, rule_set=rules, actor=SYSTEM)
    services.season_status_set(season=season, status="open", actor=SYSTEM)
    return season


@pytest.fixture
def home(db):
    return League.objects.create(name="Home League", name_zh="主場聯賽", slug="home")


@pytest.fixture
def elsewhere(db):
    return League.objects.create(name="Elsewhere League", name_zh="他處聯賽", slug="elsewhere")


@pytest.fixture
def home_season(home, rules):
    return _open_season(home, rules)


@pytest.fixture
def b_season(elsewhere, rules):
    return _open_season(elsewhere, rules)


@pytest.fixture
def b_admin(elsewhere):
    return make_role_user("b-admin", elsewhere, LeagueRole.Role.ADMIN)


@pytest.fixture
def home_admin(home):
    return make_role_user("home-admin", home, LeagueRole.Role.ADMIN)


@pytest.fixture
def p(home_season):
    """Player P: a member of the home league only (entered there by the system), with a login and
    online names."""
    player = Player.objects.create(
        display_name="Pat Lee",
        native_name="李柏",
        membership_number="HOME-0042",
        tenhou_id="PatTenhou",
        mahjong_soul_id="Soul-4242",
    )
    services.entry_create(division=home_season.divisions.get(code="A"), player=player, actor=SYSTEM)
    make_player_user("pat", player)
    return player


def _api(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def _enter(api, season, player):
    division = season.divisions.get(code="A")
    return api.post(f"/api/seasons/{season.pk}/entries/", {"division": division.pk, "player": player.pk}, format="json")


def _sees_private(api, player) -> bool:
    data = api.get(f"/api/players/{player.pk}/").json()
    return all(data[field] is not None for field in PRIVATE)


def _invite(b_admin, b_season, p) -> LeagueInvitation:
    response = _enter(_api(b_admin), b_season, p)
    assert response.status_code == 202, response.content
    return LeagueInvitation.objects.get(pk=response.json()["id"])


# ---------------------------------------------------------------- the attack


def test_entering_another_leagues_player_is_an_invitation(client, b_admin, b_season, p):
    api = _api(b_admin)
    assert not _sees_private(api, p)  # before: the public columns only

    response = _enter(api, b_season, p)

    assert response.status_code == 202, response.content
    body = response.json()
    assert body["status"] == "pending" and body["season"] == b_season.pk
    assert all(body["player"][field] is None for field in PRIVATE)  # the answer leaks nothing either
    assert not Entry.objects.filter(season=b_season, player=p).exists()
    assert b_season.league_id not in player_leagues(p)
    assert AuditLog.objects.filter(action="invitation.create", object_id=str(body["id"]), actor=b_admin).exists()

    # after: still the public columns only, everywhere
    assert not _sees_private(api, p)
    client.force_login(b_admin)
    page = client.get(reverse("player", args=[p.pk])).content.decode()
    assert "Pat Lee" in page and "HOME-0042" not in page and "PatTenhou" not in page
    assert api.get(f"/api/players/{p.pk}/accounts/").status_code == 403
    link = api.post(f"/api/players/{p.pk}/accounts/", {"account_name": "Hijacked"}, format="json")
    assert link.status_code == 403
    assert not p.online_accounts.exists()


def test_asking_twice_returns_the_open_invitation(b_admin, b_season, p):
    first = _invite(b_admin, b_season, p)
    again = _invite(b_admin, b_season, p)
    assert again.pk == first.pk
    assert LeagueInvitation.objects.filter(player=p).count() == 1


def test_the_player_accepts_on_their_page(client, b_admin, b_season, p):
    invitation = _invite(b_admin, b_season, p)
    client.force_login(p.user)

    response = client.post(reverse("me"), {"invitation": invitation.pk, "decision": "accept"})

    assert response.status_code == 302
    invitation.refresh_from_db()
    assert invitation.status == LeagueInvitation.Status.ACCEPTED and invitation.decided_at
    entry = Entry.objects.get(season=b_season, player=p)
    assert invitation.entry_id == entry.pk and entry.division.code == "A"
    assert LeagueMembership.objects.get(league=b_season.league, player=p).via == "invitation"
    assert AuditLog.objects.filter(action="invitation.accept", actor=p.user).exists()
    assert AuditLog.objects.filter(action="membership.grant", actor=p.user).exists()
    # now B holds the player legitimately: its admin reads and links their accounts
    api = _api(b_admin)
    assert _sees_private(api, p)
    assert api.get(f"/api/players/{p.pk}/accounts/").status_code == 200


def test_the_player_declines(client, b_admin, b_season, p):
    invitation = _invite(b_admin, b_season, p)
    client.force_login(p.user)

    client.post(reverse("me"), {"invitation": invitation.pk, "decision": "decline"})

    invitation.refresh_from_db()
    assert invitation.status == LeagueInvitation.Status.DECLINED and invitation.decided_at
    assert not Entry.objects.filter(season=b_season, player=p).exists()
    assert not LeagueMembership.objects.filter(league=b_season.league, player=p).exists()
    assert AuditLog.objects.filter(action="invitation.decline", actor=p.user).exists()
    assert not _sees_private(_api(b_admin), p)
    # the answer stands: a second answer changes nothing
    client.post(reverse("me"), {"invitation": invitation.pk, "decision": "accept"})
    assert not Entry.objects.filter(season=b_season, player=p).exists()


def test_only_the_player_answers(client, b_admin, b_season, p, players):
    invitation = _invite(b_admin, b_season, p)
    stranger = make_player_user("stranger", players[0])
    client.force_login(stranger)
    assert client.post(reverse("me"), {"invitation": invitation.pk, "decision": "accept"}).status_code == 403
    client.force_login(b_admin)  # a login with no player: the page has nothing to answer with
    client.post(reverse("me"), {"invitation": invitation.pk, "decision": "accept"})
    with pytest.raises(PermissionDenied):
        services.invitation_accept(invitation=invitation, actor=b_admin)
    invitation.refresh_from_db()
    assert invitation.status == LeagueInvitation.Status.PENDING


# ---------------------------------------------------------------- entries that stay entries


def test_a_player_already_in_the_league_is_entered(b_admin, b_season, elsewhere, rules):
    player = Player.objects.create(display_name="B Regular", membership_number="B-0001")
    earlier = _open_season(elsewhere, rules, number=2)
    services.entry_create(division=earlier.divisions.get(code="A"), player=player, actor=SYSTEM)

    api = _api(b_admin)
    response = _enter(api, b_season, player)

    assert response.status_code == 201, response.content
    assert Entry.objects.filter(season=b_season, player=player).exists()
    assert _sees_private(api, player)


def test_a_player_new_to_every_league_becomes_the_leagues_own(b_admin, b_season):
    newcomer = Player.objects.create(display_name="New Face", membership_number="NEW-0001")

    response = _enter(_api(b_admin), b_season, newcomer)

    assert response.status_code == 201, response.content
    membership = LeagueMembership.objects.get(player=newcomer)
    assert (membership.league_id, membership.via, membership.created_by) == (b_season.league_id, "admin", b_admin)
    assert AuditLog.objects.filter(action="membership.grant", object_id=str(membership.pk), actor=b_admin).exists()


def test_the_home_leagues_admin_enters_their_player(home_admin, home, rules, p):
    later = _open_season(home, rules, number=2)
    assert _enter(_api(home_admin), later, p).status_code == 201


def test_the_office_page_invites_too(client, b_admin, b_season, p):
    client.force_login(b_admin)
    division = b_season.divisions.get(code="A")
    response = client.post(
        reverse("office-entries", args=[b_season.pk]), {"division": division.pk, "player": p.pk}, follow=True
    )
    page = response.content.decode()
    assert "invited" in page and 'id="invitations"' in page
    assert not Entry.objects.filter(season=b_season, player=p).exists()
    assert LeagueInvitation.objects.filter(season=b_season, player=p, status="pending").exists()


# ---------------------------------------------------------------- other ways in


def test_no_service_enters_an_outside_player_for_another_leagues_admin(b_admin, b_season, p):
    with pytest.raises(PermissionDenied):
        services.entry_create(division=b_season.divisions.get(code="A"), player=p, actor=b_admin)
    assert not Entry.objects.filter(season=b_season, player=p).exists()
    assert not player_private_visible(b_admin, p)


def test_an_application_filed_by_another_leagues_admin_is_refused(b_admin, b_season, p, elsewhere):
    tier = QualificationTier.objects.create(
        league=elsewhere, code="1", description="Open", division_code="A", effective_year=2020, validity="yearly"
    )
    with pytest.raises(PermissionDenied):
        services.application_submit(
            player=p, season=b_season, tier=tier, evidence={"platform": "league"}, actor=b_admin
        )
    assert not player_private_visible(b_admin, p)


def test_the_players_own_application_makes_them_a_member(b_admin, b_season, p, elsewhere):
    tier = QualificationTier.objects.create(
        league=elsewhere, code="1", description="Open", division_code="A", effective_year=2020, validity="yearly"
    )
    services.application_submit(player=p, season=b_season, tier=tier, evidence={"platform": "league"}, actor=p.user)
    assert LeagueMembership.objects.get(league=elsewhere, player=p).via == "application"
    assert player_private_visible(b_admin, p)


@pytest.fixture
def b_event(b_admin, b_season, elsewhere):
    from events import services as events

    return events.event_create(
        league=elsewhere,
        name="Elsewhere Open",
        slug="elsewhere-open",
        starts_on=dt.date(2026, 12, 1),
        ends_on=dt.date(2026, 12, 1),
        rule_set=b_season.rule_set,
        capacity=8,
        rounds=2,
        cut=0,
        actor=b_admin,
    )


def test_a_director_cannot_register_an_outside_player_into_membership(b_admin, b_event, p):
    """A director's registration of another league's player is refused before anything is stored
    (a waiting-list registration included), with words on the field, and nothing widens the
    privacy check (a registration is not a membership)."""
    from django.core.exceptions import ValidationError

    from events import services as events

    with pytest.raises(ValidationError) as err:
        events.registration_add(event=b_event, player=p, actor=b_admin)
    assert err.value.error_dict["player"][0].code == "invitation_required"
    assert not Entry.objects.filter(season=b_event.season, player=p).exists()
    assert not player_private_visible(b_admin, p)


def test_the_players_own_registration_makes_them_a_member(b_admin, b_event, p):
    from events import services as events

    events.registration_add(event=b_event, player=p, actor=p.user)
    assert LeagueMembership.objects.get(league=b_event.league, player=p).via == "registration"
    assert player_private_visible(b_admin, p)


def test_only_the_membership_model_counts_for_privacy():
    """Entries, applications, seats (a substitute's too) and registrations can be made by another
    league's admin or director: none of them declares membership."""
    from django.apps import apps

    declaring = [m.__name__ for m in apps.get_models() if getattr(m, "MEMBERSHIP_LEAGUE_PATH", None)]
    assert declaring == ["LeagueMembership"]


# ---------------------------------------------------------------- the player's page


def test_my_page_shows_the_invitation_in_traditional_chinese(client, b_admin, b_season, p):
    _invite(b_admin, b_season, p)
    client.force_login(p.user)
    client.post(reverse("set_language"), {"language": "zh-hant", "next": "/"})

    page = client.get(reverse("me")).content.decode()

    assert 'id="invitations"' in page
    assert "邀請" in page  # the heading and the sentence
    assert "他處聯賽" in page  # the league by its Chinese name
    assert "接受" in page and "拒絕" in page
    assert "Accept" not in page and "invites you" not in page


def test_another_leagues_admin_cannot_look_a_number_up(b_admin, home_admin, p):
    """The lookup by membership number finds the admin's own members only: it must not tell
    another league's admin whose number a string is."""
    found = _api(b_admin).get("/api/players/", {"membership_number": "HOME-0042"}).json()["results"]
    assert found == []
    found = _api(home_admin).get("/api/players/", {"membership_number": "HOME-0042"}).json()["results"]
    assert [row["id"] for row in found] == [p.pk]
