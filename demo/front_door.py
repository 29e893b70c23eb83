"""The demo's front door (issue 46): what waits for someone when a visitor signs in.

- a claim invitation emailed to the person behind a Hong Kong Riichi League member (HK0002) and a
  referee invited by email, both waiting;
- ``newmember``: signed up, email verified, no player; their link request by membership number
  (HK0005) waits for the HKRL admin, and the Sai Kung Riichi Club they started waits for a site
  admin (as with ``LEAGUE_START=approval``);
- ``director``: the HKRL's event director (an accepted role invitation) and the admin of the
  Sha Tin Riichi Club, which a site admin approved and which requires a second factor: the
  director signs in with a TOTP code from :data:`DIRECTOR_TOTP_SECRET` (printed in the README).

Everything goes through the services, as the person who would do it in the app.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.totp.internal.auth import TOTP
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test.utils import override_settings

from kyoku.models import League, LeagueRole
from kyoku.roles import role_invitation_accept, role_invitation_mail, role_invite
from kyoku.second_factor import league_second_factor_set
from league.models import Player
from league.services.leagues import league_approve, league_start
from people.services.claims import claim_invitation_send
from people.services.links import link_request_create

# base32, 32 characters: any authenticator app takes it (README: "Demo logins")
DIRECTOR_TOTP_SECRET = "KYOKUDEMODIRECTORTOTPSECRET23456"
DIVISIONS = [("A", "Division A", "A組")]


def _login(username: str, password: str, email: str) -> Any:
    """A signed-up account whose email is verified (as after the emailed link)."""
    users = get_user_model().objects
    user = users.filter(username=username).first() or users.create_user(username, email, password)
    EmailAddress.objects.get_or_create(user=user, email=email, defaults={"verified": True, "primary": True})
    return user


def _start(*, actor: Any, name: str, name_zh: str, slug: str) -> League:
    """``actor`` starts a league as a site with ``LEAGUE_START=approval`` has it: it waits for a
    site admin (whatever the demo's own setting: DEBUG runs open)."""
    with override_settings(LEAGUE_START="approval"):
        return league_start(
            name=name,
            name_zh=name_zh,
            slug=slug,
            languages=["en", "zh-hant"],
            time_zone="Asia/Hong_Kong",
            preset="wrc",
            season_year=2026,
            season_number=1,
            starts_on=date(2026, 9, 5),
            ends_on=date(2026, 11, 28),
            divisions=DIVISIONS,
            actor=actor,
        )


def invitations_seed(*, league: League, admin: Any) -> None:
    """The HKRL admin invites HK0002's person to claim their player, and a new referee."""
    player = Player.objects.get(membership_number="HK0002")
    claim_invitation_send(
        league=league, player=player, email="wong.siuming@example.org", base_url=settings.SITE_URL, actor=admin
    )
    invitation, token = role_invite(
        league=league, role=LeagueRole.Role.REFEREE, email="referee2@example.org", actor=admin
    )
    role_invitation_mail(invitation=invitation, token=token)


def newmember_seed(*, league: League) -> Any:
    """A person who signed up, has no player, asked HKRL to link HK0005 and started a league."""
    newmember = _login("newmember", "kyoku-newmember", "newmember@example.org")
    link_request_create(league=league, user=newmember, membership_number="HK0005", actor=newmember)
    _start(actor=newmember, name="Sai Kung Riichi Club", name_zh="西貢立直麻雀會", slug="skrc")
    return newmember


def director_seed(*, league: League, admin: Any) -> Any:
    """The event director: HKRL's director by invitation, admin of a league requiring two factors."""
    director = _login("director", "kyoku-director", "director@example.org")
    TOTP.activate(director, DIRECTOR_TOTP_SECRET)
    invitation, _token = role_invite(
        league=league, role=LeagueRole.Role.DIRECTOR, email="director@example.org", actor=admin
    )
    role_invitation_accept(invitation=invitation, actor=director)
    club = _start(actor=director, name="Sha Tin Riichi Club", name_zh="沙田立直麻雀會", slug="strc")
    club = league_approve(league=club, actor=admin)
    league_second_factor_set(club, True, director)
    return director


def front_door_seed(*, league: League, admin: Any) -> None:
    invitations_seed(league=league, admin=admin)
    newmember_seed(league=league)
    director_seed(league=league, admin=admin)
