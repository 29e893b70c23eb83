"""Two factors with real TOTP codes (pyotp, from the secret allauth keeps while one is set up),
and a league that requires one of its staff: they read, but writes wait for the factor."""

import pyotp
import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from django.test import Client

from kyoku.models import AuditLog, LeagueRole
from kyoku.second_factor import league_second_factor_set, leagues_missing_second_factor, second_factor_missing
from tests.accounts.conftest import sign_in
from tests.actors import make_role_user, make_user

RESULT = {"scores": [43000, 30800, 16000, 10200], "deposits_left": 0}


def totp_activate(client: Client, password: str) -> str:
    """Set up TOTP through the real pages: reauthenticate if asked, open the activate page, read
    the secret it shows, post a code from it. Returns the secret."""
    page = client.get("/accounts/2fa/totp/activate/")
    if page.status_code == 302 and "/reauthenticate/" in page["Location"]:
        assert client.post(page["Location"], {"password": password}).status_code == 302
        page = client.get("/accounts/2fa/totp/activate/")
    assert page.status_code == 200
    secret = page.context["form"].secret
    assert secret and secret in page.content.decode()
    response = client.post("/accounts/2fa/totp/activate/", {"code": pyotp.TOTP(secret).now()})
    assert response.status_code == 302, response.content.decode()[:2000]
    return secret


@pytest.fixture
def strict_league(league):
    league.requires_second_factor = True
    league.save()
    return league


def _logged_in(user, password=None) -> Client:
    client = Client()
    assert sign_in(client, user.username, password or f"{user.username}-pw-123").status_code == 302
    return client


def test_totp_set_up_then_required_at_sign_in(db):
    user = make_user("keeper")
    client = _logged_in(user, "keeper-pw-123")
    secret = totp_activate(client, "keeper-pw-123")
    assert Authenticator.objects.filter(user=user, type="totp").count() == 1

    fresh = Client()
    step = sign_in(fresh, "keeper", "keeper-pw-123")
    assert step.status_code == 302 and step["Location"].startswith("/accounts/2fa/authenticate/")
    assert "_auth_user_id" not in fresh.session  # the password alone does not sign in
    now = pyotp.TOTP(secret).now()
    wrong = fresh.post("/accounts/2fa/authenticate/", {"code": f"{(int(now) + 1) % 1000000:06d}"})
    assert wrong.status_code == 200 and "_auth_user_id" not in fresh.session
    assert "code" in wrong.context["form"].errors
    ok = fresh.post("/accounts/2fa/authenticate/", {"code": pyotp.TOTP(secret).now()})
    assert ok.status_code == 302 and fresh.session["_auth_user_id"] == str(user.pk)


def test_a_recovery_code_signs_in_once(db):
    user = make_user("forgetful")
    client = _logged_in(user, "forgetful-pw-123")
    totp_activate(client, "forgetful-pw-123")
    codes = RecoveryCodes(Authenticator.objects.get(user=user, type="recovery_codes")).get_unused_codes()
    assert len(codes) == 10

    first = Client()
    sign_in(first, "forgetful", "forgetful-pw-123")
    assert first.post("/accounts/2fa/authenticate/", {"code": codes[0]}).status_code == 302
    assert first.session["_auth_user_id"] == str(user.pk)
    again = Client()
    sign_in(again, "forgetful", "forgetful-pw-123")
    refused = again.post("/accounts/2fa/authenticate/", {"code": codes[0]})
    assert refused.status_code == 200 and "_auth_user_id" not in again.session


def test_staff_without_a_factor_read_but_do_not_write_a_page(strict_league, season, admin):
    client = _logged_in(admin)
    assert second_factor_missing(admin, strict_league)
    office = client.get(f"/office/seasons/{season.pk}/")
    assert office.status_code == 200
    html = office.content.decode()
    assert "Test League requires a second factor" in html and "/accounts/2fa/" in html  # the banner
    audits = AuditLog.objects.count()
    refused = client.post(f"/office/seasons/{season.pk}/close/", {"confirm": "1"})
    assert refused.status_code == 403
    words = refused.content.decode()
    assert "Test League requires a second factor" in words and 'id="second-factor-needed"' in words
    season.refresh_from_db()
    assert season.status == "open" and AuditLog.objects.count() == audits

    totp_activate(client, "admin-pw-123")
    assert not second_factor_missing(admin, strict_league)
    assert "requires a second factor" not in client.get(f"/office/seasons/{season.pk}/").content.decode()
    done = client.post(f"/office/seasons/{season.pk}/close/", {"confirm": "1"})
    assert done.status_code == 302
    season.refresh_from_db()
    assert season.status == "closed"


def test_staff_without_a_factor_read_but_do_not_write_the_api(strict_league, game, admin):
    client = _logged_in(admin)
    assert client.get(f"/api/games/{game.pk}/").status_code == 200
    refused = client.post(f"/api/games/{game.pk}/result/", RESULT, content_type="application/json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "second_factor_required"
    assert "Test League requires a second factor" in refused.json()["detail"]
    assert not hasattr(type(game).objects.get(pk=game.pk), "result")

    totp_activate(client, "admin-pw-123")
    done = client.post(f"/api/games/{game.pk}/result/", RESULT, content_type="application/json")
    assert done.status_code == 201, done.content


def test_the_refusal_is_in_the_readers_language(strict_league, game):
    admin = make_role_user("jadmin", strict_league, LeagueRole.Role.ADMIN)
    client = _logged_in(admin)
    client.cookies["django_language"] = "ja"
    refused = client.post(f"/office/seasons/{game.season_id}/close/", {"confirm": "1"})
    assert refused.status_code == 403
    html = refused.content.decode()
    assert "Test League" in html and "requires a second factor" not in html and "二段階" in html


def test_a_league_that_does_not_require_one_lets_staff_write(league, game, admin):
    client = _logged_in(admin)
    assert client.post(f"/api/games/{game.pk}/result/", RESULT, content_type="application/json").status_code == 201


def test_a_player_write_is_not_affected(strict_league, member):
    assert not second_factor_missing(member, strict_league)


def test_superuser_counts_as_admin(strict_league):
    boss = make_user("boss", is_superuser=True, is_staff=True)
    assert second_factor_missing(boss, strict_league)
    # stopped at a write there, but not told on every page about a league they hold no role in
    assert not leagues_missing_second_factor(boss).exists()
    LeagueRole.objects.create(league=strict_league, user=boss, role=LeagueRole.Role.REFEREE)
    assert list(leagues_missing_second_factor(boss)) == [strict_league]


def test_switching_on_needs_the_admins_own_factor(league, admin):
    client = _logged_in(admin)
    page = client.get(f"/leagues/{league.slug}/security/")
    assert page.status_code == 200 and "You have no second factor yet" in page.content.decode()
    refused = client.post(f"/leagues/{league.slug}/security/", {"requires_second_factor": "on"})
    assert refused.status_code == 403 and "Set up your own second factor first" in refused.content.decode()
    league.refresh_from_db()
    assert not league.requires_second_factor
    assert client.post(f"/leagues/{league.slug}/security/", {"requires_second_factor": "maybe"}).status_code == 400

    totp_activate(client, "admin-pw-123")
    done = client.post(f"/leagues/{league.slug}/security/", {"requires_second_factor": "on"})
    assert done.status_code == 302
    league.refresh_from_db()
    assert league.requires_second_factor
    entry = AuditLog.objects.filter(action="league.second_factor_set").latest("pk")
    assert entry.actor_id == admin.pk and entry.data["after"] == {"requires_second_factor": True}


def test_switching_off_is_a_write_that_needs_the_factor_too(strict_league, admin):
    client = _logged_in(admin)
    refused = client.post(f"/leagues/{strict_league.slug}/security/", {"requires_second_factor": "off"})
    assert refused.status_code == 403
    strict_league.refresh_from_db()
    assert strict_league.requires_second_factor


def test_the_service_refuses_switching_on_without_a_factor(league, admin):
    from kyoku.second_factor import SecondFactorRequired

    with pytest.raises(SecondFactorRequired):
        league_second_factor_set(league, True, actor=admin)


def test_the_banner_costs_one_query_per_request(strict_league, admin, django_assert_num_queries, rf):
    from accounts.context_processors import second_factor

    other = type(strict_league).objects.create(name="Calm League", slug="calm")
    LeagueRole.objects.create(league=other, user=admin, role=LeagueRole.Role.ADMIN)
    request = rf.get("/")
    request.user = admin
    leagues = second_factor(request)["second_factor_leagues"]
    with django_assert_num_queries(1):
        assert [lg.name for lg in leagues()] == ["Test League"]
        assert [lg.name for lg in leagues()] == ["Test League"]  # cached for the request


def test_an_event_director_waits_for_the_factor_too(strict_league, players):
    """The director's desk (a DIRECTOR-level write, page and API) in a league that requires a factor."""
    import datetime as dt

    from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret

    from events import services as events
    from kyoku.principals import SYSTEM
    from league import services as league_services

    director = make_role_user("director", strict_league, LeagueRole.Role.DIRECTOR)
    rules = league_services.rule_set_create(name="WRC", slug="wrc-2f", preset="wrc", is_template=True, actor=SYSTEM)
    event = events.event_create(
        league=strict_league,
        name="Factor Cup",
        slug="factor-cup",
        starts_on=dt.date(2026, 12, 5),
        ends_on=dt.date(2026, 12, 5),
        rule_set=rules,
        capacity=8,
        rounds=1,
        actor=SYSTEM,
    )
    round1 = event.round_set.get(number=1)
    client = _logged_in(director)
    assert client.get(f"/events/{event.pk}/desk/").status_code == 200
    page = client.post(f"/events/rounds/{round1.pk}/clock/", {"action": "start"})
    assert page.status_code == 403 and "Test League requires a second factor" in page.content.decode()
    api = client.post(f"/api/events/rounds/{round1.pk}/clock", {"action": "start"}, content_type="application/json")
    assert api.status_code == 403 and api.json()["code"] == "second_factor_required"
    round1.refresh_from_db()
    assert round1.started_at is None

    TOTP.activate(director, generate_totp_secret())
    # past the factor: the desk's own rules answer now (a round with no seating does not start)
    after = client.post(f"/events/rounds/{round1.pk}/clock/", {"action": "start"}, follow=True)
    assert after.status_code == 200 and "requires a second factor" not in after.content.decode()
    api = client.post(f"/api/events/rounds/{round1.pk}/clock", {"action": "start"}, content_type="application/json")
    assert api.status_code != 403 and api.json().get("code") != "second_factor_required"


def test_a_staff_member_writing_as_the_player_is_not_affected(strict_league, season, players):
    """An entry (OWNER: the player, or the league's staff): its own player writes freely even when
    that player is also the league's referee; another referee's write on it waits for the factor."""
    from kyoku.authz import Need
    from kyoku.second_factor import SecondFactorRequired, second_factor_write_check
    from league.models import Entry
    from tests.actors import make_player_user

    entry = Entry.objects.get(season=season, player=players[0])
    playing_referee = make_player_user("playing-referee", players[0])
    LeagueRole.objects.create(league=strict_league, user=playing_referee, role=LeagueRole.Role.REFEREE)
    second_factor_write_check("POST", playing_referee, entry, Need.OWNER)  # as the player: passes
    second_factor_write_check("GET", make_role_user("r2", strict_league, "referee"), entry, Need.OWNER)  # a read
    with pytest.raises(SecondFactorRequired):
        second_factor_write_check("POST", make_role_user("r3", strict_league, "referee"), entry, Need.OWNER)
    with pytest.raises(SecondFactorRequired):
        second_factor_write_check("PATCH", playing_referee, entry, Need.REFEREE)  # as the referee
