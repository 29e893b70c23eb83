"""The members page: search (folded names in any script, numbers, online ids, email), pages,
add (a new player, an existing one under the consent rule), edit (audited in every league of the
player), archive and restore."""

import pytest
from django.test import Client

from kyoku.models import AuditLog
from league.models import LeagueInvitation, LeagueMembership, Player
from league.roster_selectors import RosterQuery, roster_page
from league.services import roster


def url(league, rest=""):
    return f"/leagues/{league.slug}/members/{rest}"


def names(response):
    return [m.player.display_name for m in response.context["page"]]


# ---------------------------------------------------------------- search


@pytest.mark.parametrize(
    "q,expected",
    [
        ("player 3", ["Player 3"]),
        ("ＰＬＡＹＥＲ　３", ["Player 3"]),  # full-width letters, digit and ideographic space (NFKC)
        ("選手5", ["Player 5"]),
        ("M007", ["Player 7"]),
        ("ｍ００７", ["Player 7"]),
        ("nobody", []),
    ],
)
def test_search_folds_names_numbers_and_scripts(page, league, q, expected):
    response = page.get(url(league), {"q": q})
    assert response.status_code == 200
    assert names(response) == expected


def test_search_reads_family_given_online_ids_and_email(page, league, players, admin):
    membership = LeagueMembership.objects.get(league=league, player=players[1])
    roster.member_edit(
        membership=membership,
        values={"family_name": "Ōtani", "given_name": "Shōhei", "tenhou_id": "TenhouStar", "email": "Two@Example.org"},
        actor=admin,
    )
    for q in ("ŌTANI", "shōhei", "tenhoustar", "two@example"):
        assert names(page.get(url(league), {"q": q})) == ["Player 2"], q


def test_search_reads_linked_online_accounts(page, league, players, admin):
    from online.services import account_link

    account_link(player=players[2], account_name="雀士さん", actor=admin)
    assert names(page.get(url(league), {"q": "雀士"})) == ["Player 3"]


def test_pages_of_a_large_roster(league, admin, season, django_assert_max_num_queries):
    Player.objects.bulk_create(Player(display_name=f"Bulk {i:04d}", membership_number=f"B{i:04d}") for i in range(1200))
    LeagueMembership.objects.bulk_create(
        LeagueMembership(league=league, player=p, via="admin")
        for p in Player.objects.filter(membership_number__startswith="B")
    )
    first = roster_page(league=league, query=RosterQuery(), page=1)
    assert first.paginator.count == 1208 and len(first.object_list) == 50
    with django_assert_max_num_queries(4):
        found = roster_page(league=league, query=RosterQuery(q="b11"), page=2)
        names = [m.player.display_name for m in found.object_list]
    assert found.paginator.count == 100  # numbers B1100 … B1199
    assert names[0] == "Bulk 1150" and len(names) == 50


def test_archived_members_hidden_unless_asked(page, league, players, admin):
    membership = LeagueMembership.objects.get(league=league, player=players[0])
    response = page.post(url(league), {"action": "archive", "player": players[0].pk})
    assert response.status_code == 302
    membership.refresh_from_db()
    assert membership.archived_at is not None
    assert "Player 1" not in names(page.get(url(league)))
    assert names(page.get(url(league), {"shown": "archived"})) == ["Player 1"]
    assert "Player 1" in names(page.get(url(league), {"shown": "all"}))
    assert AuditLog.objects.filter(action="roster.archive", league_id=league.pk).count() == 1
    page.post(url(league), {"action": "restore", "player": players[0].pk})
    membership.refresh_from_db()
    assert membership.archived_at is None
    assert Player.objects.filter(pk=players[0].pk).exists()  # never deleted
    assert AuditLog.objects.filter(action="roster.restore", league_id=league.pk).count() == 1


def test_archive_of_a_non_member_is_404(page, league, stranger):
    assert page.post(url(league), {"action": "archive", "player": stranger.pk}).status_code == 404
    assert page.post(url(league), {"action": "archive", "player": "x"}).status_code == 400


# ---------------------------------------------------------------- add


def test_add_a_new_player(page, league):
    response = page.post(
        url(league),
        {
            "action": "add",
            "display_name": "  Chan  Tai Man ",
            "native_name": "陳大文",
            "family_name": "Chan",
            "given_name": "Tai Man",
            "name_order": "family_first",
            "membership_number": "N-100",
            "email": "tm@example.org",
            "tenhou_id": "",
            "mahjong_soul_id": "",
        },
    )
    assert response.status_code == 302
    player = Player.objects.get(membership_number="N-100")
    assert player.display_name == "Chan Tai Man"  # the names' normal form
    membership = LeagueMembership.objects.get(league=league, player=player)
    assert membership.via == "admin" and membership.contact_email == "tm@example.org"
    assert AuditLog.objects.filter(action="roster.add", object_id=str(player.pk), league_id=league.pk).exists()


@pytest.mark.parametrize(
    "field,value,words",
    [
        ("display_name", "", "give a name"),
        ("display_name", "Bad\u202eName", "invisible or control character"),
        ("display_name", "x" * 81, "at most 80"),
        ("email", "not-an-email", "not an email address"),
        ("membership_number", "", "required"),
    ],
)
def test_add_refuses_bad_input_with_words(page, league, field, value, words):
    data = {"action": "add", "display_name": "Someone", "membership_number": "N-200", field: value}
    before = Player.objects.count()
    response = page.post(url(league), data)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert Player.objects.count() == before


def test_add_a_number_of_another_leagues_member_reveals_nothing(page, league, stranger):
    response = page.post(url(league), {"action": "add", "display_name": "Whoever", "membership_number": "S-001"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "already used" in body
    assert "Stranger" not in body and "陌生人" not in body and "hidden-id" not in body
    assert not LeagueMembership.objects.filter(league=league, player=stranger).exists()


def test_add_by_number_with_a_division_sends_an_invitation(page, league, stranger, season):
    division = season.divisions.get(code="A")
    response = page.post(
        url(league), {"action": "add", "display_name": "Whoever", "membership_number": "S-001", "division": division.pk}
    )
    assert response.status_code == 302
    invitation = LeagueInvitation.objects.get(player=stranger)
    assert invitation.status == "pending" and invitation.division == division
    assert not LeagueMembership.objects.filter(league=league, player=stranger).exists()  # not until they accept


def test_add_by_number_of_a_player_of_no_league(page, league):
    loner = Player.objects.create(display_name="Loner", membership_number="L-1")
    response = page.post(
        url(league), {"action": "add", "display_name": "", "membership_number": "L-1", "email": "l@example.org"}
    )
    assert response.status_code == 302
    membership = LeagueMembership.objects.get(league=league, player=loner)
    assert membership.via == "admin" and membership.contact_email == "l@example.org"


def test_add_an_existing_member_again(page, league, players):
    response = page.post(url(league), {"action": "add", "display_name": "x", "membership_number": "M001"})
    assert response.status_code == 400 and "already a member" in response.content.decode()


# ---------------------------------------------------------------- edit


def test_edit_a_member_audited_in_each_league(page, league, players, other_league):
    player = players[3]
    LeagueMembership.objects.create(league=other_league, player=player, via="system")
    response = page.post(
        url(league),
        {
            "action": "edit",
            "player": player.pk,
            "display_name": "Player Four",
            "native_name": "選手四",
            "membership_number": "M004-B",
            "email": "four@example.org",
            "tenhou_id": "four",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    player.refresh_from_db()
    assert (player.display_name, player.native_name, player.membership_number, player.tenhou_id) == (
        "Player Four",
        "選手四",
        "M004-B",
        "four",
    )
    assert LeagueMembership.objects.get(league=league, player=player).contact_email == "four@example.org"
    logged = set(
        AuditLog.objects.filter(action="roster.edit", object_id=str(player.pk)).values_list("league_id", flat=True)
    )
    assert logged == {league.pk, other_league.pk}
    change = AuditLog.objects.filter(action="roster.edit", league_id=league.pk).get().data["changes"]
    assert change["membership_number"] == ["M004", "M004-B"]


def test_edit_to_a_number_in_use_says_used_not_whose(page, league, players, stranger):
    response = page.post(
        url(league),
        {"action": "edit", "player": players[0].pk, "membership_number": "S-001", "display_name": "Player 1"},
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "this number is already used" in body and "Stranger" not in body
    players[0].refresh_from_db()
    assert players[0].membership_number == "M001"


def test_edit_of_the_name_parts_confirms_the_split(page, league, players, admin):
    page.post(
        url(league),
        {
            "action": "edit",
            "player": players[0].pk,
            "family_name": "Player",
            "given_name": "One",
            "membership_number": "M001",
            "display_name": "Player 1",
        },
    )
    players[0].refresh_from_db()
    assert players[0].name_confirmed_by == admin


def test_another_leagues_admin_cannot_edit(other_admin, league, players):
    client = Client()
    client.force_login(other_admin)
    response = client.post(
        url(league), {"action": "edit", "player": players[0].pk, "display_name": "Hacked", "membership_number": "M001"}
    )
    assert response.status_code == 403
    players[0].refresh_from_db()
    assert players[0].display_name == "Player 1"


def test_member_page_shows_the_form(page, league, players, stranger):
    response = page.get(url(league, f"{players[0].pk}/"))
    assert response.status_code == 200 and 'value="M001"' in response.content.decode()
    assert page.get(url(league, f"{stranger.pk}/")).status_code == 404


def test_links_from_the_league_pages(page, league, season):
    assert f'href="/leagues/{league.slug}/members/"' in page.get(f"/seasons/{season.pk}/").content.decode()
    assert f'href="/leagues/{league.slug}/members/"' in page.get("/").content.decode()


def test_add_from_east_asian_parts_writes_family_first(page, league):
    response = page.post(
        url(league), {"action": "add", "family_name": "山田", "given_name": "太郎", "membership_number": "J-1"}
    )
    assert response.status_code == 302
    player = Player.objects.get(membership_number="J-1")
    assert (player.display_name, player.name_order) == ("山田太郎", "family_first")


def test_member_page_lists_linked_online_accounts(page, league, players, admin):
    from online.services import account_link

    account_link(player=players[0], account_name="LinkedOne", actor=admin)
    assert "LinkedOne" in page.get(url(league, f"{players[0].pk}/")).content.decode()
