"""Issue 50 §4: every notification links to a page its recipient may open. Every kind of the
catalogue (notifications.kinds.KINDS) is triggered through the app's own services and pages (a
match day published, then published again with a table changed; a tournament's tables reporting,
confirming, disputing, running out of time; a round and a match day about to start; the referee
desk's rulings and appeals; a penalty; an application decided; the season office opening
registration; a promotion), then each inbox entry's and each email's link is opened as its
recipient (a public announcement's by an anonymous visitor): 200, after redirects within the site.
A kind no case triggers fails the test."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.utils import timezone

from events import services as events
from kyoku.principals import SYSTEM, TablePhone
from league import services as league_services
from league.models import Game, Season
from matchdays import services as matchdays
from notifications import services as notify
from notifications.kinds import EMAIL, KINDS, PERSONAL_KINDS, PUBLIC_KINDS
from notifications.models import Delivery, LeagueChannel, Notification, Preferences
from notifications.reminders import reminders_scan
from referee import services as referee
from tests import actors
from tests.actors import make_player_user, open_season
from tests.events.conftest import SCORES, event, field, in_play, rules, running  # noqa: F401
from tests.security.world import world_build

DAY_START = dt.datetime(2026, 12, 5, 14, 0)


@pytest.fixture(autouse=True)
def everyone_reads_email(monkeypatch, settings):
    """Every login made here has an address and wants every kind by email too (so each kind's
    email is sent and its link checked); sends are not rate-limited; mail stays in memory."""
    made = actors.make_user

    def make_user(name: str, **extra):
        user = made(name, email=f"{name}@example.org", **extra)
        Preferences.objects.create(user=user, language="en", choices={k: {EMAIL: True} for k in PERSONAL_KINDS})
        return user

    monkeypatch.setattr(actors, "make_user", make_user)
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.NOTIFY_RATE_EMAIL = 100_000


def _match_day_published_twice(league, admin, rules):  # noqa: F811
    """Eight members with logins in one division; match day 1 published, a table changed and
    published again (the first links now lead to the replaced games' pages); the start reminder."""
    from league.models import Player

    players = [Player.objects.create(display_name=f"Member {i}", membership_number=f"LM{i:03d}") for i in range(8)]
    for i, p in enumerate(players):
        make_player_user(f"lm{i}", p)
    season = open_season(league, rules, players, per_division=8)
    day = matchdays.match_day_create(
        division=season.divisions.get(code="A"),
        number=1,
        date=DAY_START.date(),
        start_time=DAY_START.time(),
        actor=admin,
    )
    plan = matchdays.seating_generate(match_day=day, seed=2, actor=admin)
    matchdays.seating_publish(plan=plan, actor=admin)
    plan = matchdays.seating_swap(plan=plan, player_a=plan.tables[0][0], player_b=plan.tables[1][1], actor=admin)
    matchdays.seating_publish(plan=plan, actor=admin)
    reminders_scan(actor=SYSTEM, now=timezone.make_aware(DAY_START) - dt.timedelta(minutes=5))
    return season


def _tournament_tables(event, admin):  # noqa: F811
    """Round 1 in play, every seat with a login: a table reports and confirms, one disputes, the
    others run out of time; round 2 about to start."""
    games = list(Game.objects.filter(season=event.season, match_day=1).order_by("table"))
    for game in games:
        for seat in game.seats.select_related("player").order_by("seat"):
            if getattr(seat.player, "user", None) is None:
                make_player_user(f"t{game.table}-{seat.seat}", seat.player)
    confirmed, disputed = games[0], games[1]
    phone = TablePhone(confirmed.pk)
    report, _changed = events.table_report_submit(game=confirmed, scores=SCORES, seat=0, actor=phone)
    for seat in (1, 2, 3):
        events.table_report_confirm(game=confirmed, seat=seat, version=report.version, actor=phone)
    phone = TablePhone(disputed.pk)
    events.table_report_submit(game=disputed, scores=SCORES, seat=0, actor=phone)
    events.table_report_submit(game=disputed, scores=[40000, 40000, 12000, 8000], seat=1, actor=phone)
    round1 = event.round_set.get(number=1)
    events.round_time_up_record(round_=round1, actor=SYSTEM, now=timezone.now() + dt.timedelta(hours=3))
    starts = timezone.make_aware(dt.datetime(2026, 11, 29, 10, 0))
    events.round_schedule(round_=event.round_set.get(number=2), starts_at=starts, actor=admin)
    reminders_scan(actor=SYSTEM, now=starts - dt.timedelta(minutes=5))


def _referee_desk_and_league_office():
    """The matrix world's league: a penalty, rulings, an appeal filed (world_build) and decided;
    an application decided."""
    w = world_build()
    second = actors.make_role_user("m-referee-2", w.league, "referee")
    referee.appeal_decide(appeal=w.appeal, referee=second, uphold=True, reason="the timeline stands")
    league_services.application_decide(application=w.application, approve=True, actor=w.admin)
    return w


def _registration_and_promotion(league, admin, season):
    """The season office opens the next season's registration (its button, as the admin), then the
    promotion enters this season's players in it."""
    nxt = league_services.season_create(league=league, year=2026, number=2, rule_set=season.rule_set, actor=SYSTEM)
    assert nxt.status == Season.Status.DRAFT
    office = Client()
    office.force_login(admin)
    response = office.post(f"/office/seasons/{nxt.pk}/open/", follow=True)
    assert response.status_code == 200 and "Registration is open" in response.content.decode()
    league_services.season_promote(season=season, next_season=nxt, actor=admin)


def _visit(client: Client, link: str) -> tuple[int, list]:
    response = client.get(link, follow=True)
    return response.status_code, response.redirect_chain


def _site_path(url: str) -> str:
    assert url.startswith(settings.SITE_URL.rstrip("/") + "/"), url
    return url[len(settings.SITE_URL.rstrip("/")) :]


def test_every_kind_links_to_a_page_its_recipient_may_open(
    league,
    admin,
    referee,  # a referee of the tournament's league: called to a disputed table
    rules,  # noqa: F811
    in_play,  # noqa: F811
):
    LeagueChannel.objects.create(league=league, name="Club chat", url="json://chat.example.org/hook")
    season = _match_day_published_twice(league, admin, rules)
    _tournament_tables(in_play, admin)
    _referee_desk_and_league_office()
    _registration_and_promotion(league, admin, season)

    # every kind of the catalogue was triggered, to people or (public ones) to the league's channel
    kinds = set(Notification.objects.values_list("kind", flat=True))
    assert kinds == set(KINDS), f"no case triggers {sorted(set(KINDS) - kinds)}"
    for code in PERSONAL_KINDS:
        assert Notification.objects.filter(kind=code, recipient__isnull=False).exists(), code
    for code in PUBLIC_KINDS:
        assert Notification.objects.filter(kind=code, recipient__isnull=True).exists(), code

    # the emails: every delivery sent, each carrying its notification's link
    for pk in Delivery.objects.filter(channel=EMAIL).values_list("pk", flat=True):
        assert notify.delivery_attempt(pk)[0] == "sent"
    emailed: dict[str, set[str]] = defaultdict(set)  # address → the site paths its emails link to
    for message in mail.outbox:
        delivery = Delivery.objects.get(idempotency_key=message.extra_headers["Message-ID"][1:37])
        n = delivery.notification
        links = [u for u in re.findall(r"https?://\S+", message.body) if "/unsubscribe/" not in u]
        assert [_site_path(u) for u in links] == [n.link], (n.kind, message.body)
        emailed[message.to[0]].add(n.link)
    assert {n.kind for n in Notification.objects.filter(deliveries__channel=EMAIL)} == set(PERSONAL_KINDS)

    # every inbox entry's and every email's link, opened as its recipient
    failures = []
    checked: dict[str, int] = defaultdict(int)
    by_user = defaultdict(set)
    for n in Notification.objects.filter(recipient__isnull=False).select_related("recipient"):
        assert n.link, f"{n.kind} to {n.recipient} links nowhere"
        by_user[n.recipient].add((n.kind, n.link))
    for user, links in by_user.items():
        assert {link for _kind, link in links} >= emailed.get(user.email, set())
        client = Client()
        client.force_login(user)
        for kind, link in sorted(links):
            status, chain = _visit(client, link)
            off_site = [url for url, _code in chain if not url.startswith(("/", settings.SITE_URL))]
            if status != 200 or off_site:
                failures.append(f"{kind} → {user.username}: {link} answers {status} {chain}")
            checked[kind] += 1
    # a public announcement's link, by anyone
    for n in Notification.objects.filter(recipient__isnull=True):
        status, _chain = _visit(Client(), n.link)
        if status != 200:
            failures.append(f"{n.kind} (announced): {n.link} answers {status}")
        checked[n.kind] += 1
    assert failures == []
    assert set(checked) == set(KINDS)

    # the case: the referee called to the disputed table may not open the desk, and was
    # not sent there
    call = Notification.objects.get(kind="referee_call", recipient=referee)
    disputed = Game.objects.get(season=in_play.season, match_day=1, table=2)
    assert call.link == f"/events/tables/{disputed.pk}/"
    desk = Client()
    desk.force_login(referee)
    assert desk.get(f"/events/{in_play.pk}/desk/").status_code == 403

    # the first seating's links lead to the replaced games' pages, which say what replaced them
    replaced = [
        n
        for n in Notification.objects.filter(
            kind="seating_published", params__match_day=1, params__division__en="A Division"
        )
        if not Game.objects.filter(pk=int(n.link.strip("/").split("/")[-1])).exists()
    ]
    assert len(replaced) == 8  # the first publishing's, to the two changed tables' eight players
    client = Client()
    client.force_login(replaced[0].recipient)
    assert "This table was replaced" in client.get(replaced[0].link).content.decode()
