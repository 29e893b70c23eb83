"""A league's season invitations: a player may decline one and block the league ("Decline and block
this league" on their own page); the league's admin asking again is told, in words, that the
player does not accept its invitations, and nothing is sent; the player may lift the block. A
league may send only so many a day (kyoku.throttle ``invitation_league``): 429 in words."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from kyoku.models import AuditLog, League, LeagueRole
from kyoku.principals import SYSTEM
from league import services
from league.models import InvitationBlock, LeagueInvitation, Player
from tests.actors import make_player_user, make_role_user


def _open_season(league, rules, number=1):
    season = services.season_create(league=league, year=2026, number=number, rule_set=rules, actor=SYSTEM)
    services.season_status_set(season=season, status="open", actor=SYSTEM)
    return season


@pytest.fixture
def rules(db):
    return services.rule_set_create(name="WRC", slug="wrc", preset="wrc", is_template=True, actor=SYSTEM)


@pytest.fixture
def home_season(rules):
    return _open_season(League.objects.create(name="Home League", slug="home"), rules)


@pytest.fixture
def b_season(rules):
    return _open_season(League.objects.create(name="Elsewhere League", slug="elsewhere"), rules)


@pytest.fixture
def b_admin(b_season):
    return make_role_user("b-admin", b_season.league, LeagueRole.Role.ADMIN)


def _player(home_season, n: int) -> Player:
    player = Player.objects.create(display_name=f"Pat {n}", membership_number=f"HOME-{n:04d}")
    services.entry_create(division=home_season.divisions.get(code="A"), player=player, actor=SYSTEM)
    make_player_user(f"pat{n}", player)
    return player


@pytest.fixture
def p(home_season):
    return _player(home_season, 1)


def _enter(user, season, player, lang="en"):
    api = APIClient(HTTP_ACCEPT_LANGUAGE=lang)
    api.force_authenticate(user)
    division = season.divisions.get(code="A")
    return api.post(f"/api/seasons/{season.pk}/entries/", {"division": division.pk, "player": player.pk}, format="json")


def test_the_player_declines_and_blocks_the_league_and_is_not_invited_again(client, b_admin, b_season, p):
    first = _enter(b_admin, b_season, p)
    assert first.status_code == 202
    client.force_login(p.user)
    page = client.get(reverse("me")).content.decode()
    assert "Decline and block this league" in page

    answer = client.post(reverse("me"), {"invitation": first.json()["id"], "decision": "block"}, follow=True)

    assert "Elsewhere League cannot invite you again" in answer.content.decode()
    assert LeagueInvitation.objects.get(pk=first.json()["id"]).status == LeagueInvitation.Status.DECLINED
    assert InvitationBlock.objects.filter(player=p, league=b_season.league).exists()
    assert AuditLog.objects.filter(action="invitation.block", actor=p.user).exists()

    again = _enter(b_admin, b_season, p)
    assert again.status_code == 400
    assert again.json()["detail"] == "the player does not accept invitations from this league"
    assert again.json()["field"] == "player" and again.json()["codes"]["player"] == ["invitations_blocked"]
    assert LeagueInvitation.objects.filter(player=p).count() == 1
    said_ja = _enter(b_admin, b_season, p, "ja").json()["detail"]
    assert said_ja != again.json()["detail"] and "招待" in said_ja


def test_the_player_lifts_the_block(client, b_admin, b_season, p):
    invitation = _enter(b_admin, b_season, p).json()["id"]
    client.force_login(p.user)
    client.post(reverse("me"), {"invitation": invitation, "decision": "block"})
    block = InvitationBlock.objects.get(player=p)
    assert "Accept its invitations again" in client.get(reverse("me")).content.decode()

    client.post(reverse("me"), {"unblock": block.pk})

    assert not InvitationBlock.objects.filter(player=p).exists()
    assert _enter(b_admin, b_season, p).status_code == 202


def test_another_player_cannot_lift_a_block(client, b_admin, b_season, p, home_season):
    invitation = _enter(b_admin, b_season, p).json()["id"]
    client.force_login(p.user)
    client.post(reverse("me"), {"invitation": invitation, "decision": "block"})
    block = InvitationBlock.objects.get(player=p)
    other = _player(home_season, 2)
    client.force_login(other.user)
    assert client.post(reverse("me"), {"unblock": block.pk}).status_code in (403, 404)
    assert InvitationBlock.objects.filter(pk=block.pk).exists()


def test_a_plain_decline_does_not_block(client, b_admin, b_season, p):
    invitation = _enter(b_admin, b_season, p).json()["id"]
    client.force_login(p.user)
    client.post(reverse("me"), {"invitation": invitation, "decision": "decline"})
    assert not InvitationBlock.objects.exists()
    assert _enter(b_admin, b_season, p).status_code == 202


def test_a_league_sends_only_so_many_invitations(settings, b_admin, b_season, home_season):
    settings.THROTTLE_LIMITS = {"invitation_league": (2, 86400)}
    players = [_player(home_season, n) for n in range(10, 13)]
    assert [_enter(b_admin, b_season, q).status_code for q in players[:2]] == [202, 202]
    refused = _enter(b_admin, b_season, players[2])
    assert refused.status_code == 429 and refused["Retry-After"]
    assert refused.json()["detail"].startswith("Too many requests")
    assert not LeagueInvitation.objects.filter(player=players[2]).exists()
    # an open invitation asked for again is the same one, not another sent
    assert _enter(b_admin, b_season, players[0]).status_code == 202
