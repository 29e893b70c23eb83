"""Online account links belong to the player: linked by the player or by an admin of a league the
player belongs to; each change audited in every league of the player; a name held by one player
is never moved to another silently; another league's admin cannot touch them."""

import pytest
from rest_framework.test import APIClient

from league import services as league_services
from kyoku.models import AuditLog, League, LeagueRole
from online.models import OnlineAccount
from tests.actors import make_player_user, make_role_user, open_season
from kyoku.principals import SYSTEM


@pytest.fixture
def two_leagues(league, tenhou_rules, players):
    """players[0] is entered in the test league and in league C."""
    open_season(league, tenhou_rules, players[:4])
    league_c = League.objects.create(name="League C", slug="c")
    season_c = league_services.season_create(league=league_c, year=2026, number=1, rule_set=tenhou_rules, actor=SYSTEM)
    league_services.entry_create(division=season_c.divisions.get(code="A"), player=players[0], actor=SYSTEM)
    return league, league_c


def api_as(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_player_links_their_own_name_audited_in_every_league(two_leagues, players):
    owner = make_player_user("owner", players[0])
    r = api_as(owner).post(f"/api/players/{players[0].pk}/accounts/", {"account_name": "MyTenhou"}, format="json")
    assert r.status_code == 201
    rows = AuditLog.objects.filter(action="online_account.link")
    assert {row.league_id for row in rows} == {lg.pk for lg in two_leagues}
    assert api_as(owner).get(f"/api/players/{players[0].pk}/accounts/").json() == [
        {"platform": "tenhou", "account_name": "MyTenhou"}
    ]


def test_league_c_admin_change_shows_in_the_home_leagues_log(two_leagues, players):
    home, league_c = two_leagues
    admin_c = make_role_user("admin-c", league_c, LeagueRole.Role.ADMIN)
    r = api_as(admin_c).post(f"/api/players/{players[0].pk}/accounts/", {"account_name": "FromC"}, format="json")
    assert r.status_code == 201
    assert AuditLog.objects.filter(action="online_account.link", league_id=home.pk).exists()


def test_admin_of_another_league_and_other_players_cannot(two_leagues, players):
    stranger_league = League.objects.create(name="Elsewhere", slug="elsewhere")
    outsider_admin = make_role_user("outsider-admin", stranger_league, LeagueRole.Role.ADMIN)
    other = make_player_user("other", players[5])
    for user in (outsider_admin, other):
        assert (
            api_as(user)
            .post(f"/api/players/{players[0].pk}/accounts/", {"account_name": "Squat"}, format="json")
            .status_code
            == 403
        )
        assert api_as(user).get(f"/api/players/{players[0].pk}/accounts/").status_code == 403
    assert not OnlineAccount.objects.exists()


def test_a_name_held_by_another_player_is_not_moved(two_leagues, players, admin):
    OnlineAccount.objects.create(player=players[1], account_name="Taken")
    r = api_as(admin).post(f"/api/players/{players[0].pk}/accounts/", {"account_name": "Taken"}, format="json")
    assert r.status_code == 400 and "account_name" in r.json()["errors"]
    assert OnlineAccount.objects.get(account_name="Taken").player == players[1]


def test_unlink_is_audited_and_names_the_field(two_leagues, players):
    owner = make_player_user("owner", players[0])
    api = api_as(owner)
    api.post(f"/api/players/{players[0].pk}/accounts/", {"account_name": "Old"}, format="json")
    assert api.delete(f"/api/players/{players[0].pk}/accounts/?account_name=Old").status_code == 204
    assert AuditLog.objects.filter(action="online_account.unlink").count() == 2
    r = api.delete(f"/api/players/{players[0].pk}/accounts/?account_name=Old")
    assert r.status_code == 400 and "account_name" in r.json()["errors"]


@pytest.mark.parametrize("name", ['""', '"' + "x" * 41 + '"', '"bad\\ud800name"', '"nul\\u0000"', '"tab\\tname"'])
def test_bad_names_are_refused(two_leagues, players, admin, name):
    r = api_as(admin).generic(
        "POST",
        f"/api/players/{players[0].pk}/accounts/",
        ('{"account_name": %s}' % name).encode(),
        content_type="application/json",
    )
    assert r.status_code == 400
    assert not OnlineAccount.objects.exists()
