"""Seating published: each seated player is told their table, wind and time, in their own
language, by email (a local SMTP server receives it) and in their inbox; the league's public
channel (Apprise posting JSON to a local HTTP server) gets the announcement, with no private
detail; republishing the same revision tells nobody twice."""

from __future__ import annotations

import datetime

import pytest

from kyoku.principals import SYSTEM
from league import services as league_services
from matchdays import services as matchdays
from notifications import services
from notifications.models import Delivery, Notification, Preferences
from tests.actors import make_player_user, open_season


@pytest.fixture
def season(league, players):
    rules = league_services.rule_set_create(
        name="M-League", slug="mleague", preset="mleague", is_template=True, actor=SYSTEM
    )
    return open_season(league, rules, players[:4], per_division=4)


@pytest.fixture
def seated(players, season):
    """The four players of division A with logins: in English, Traditional Chinese, Japanese, and
    one with no email address (inbox only)."""
    users = []
    for i, (language, email) in enumerate(
        [("en", "p1@example.org"), ("zh-hant", "p2@example.org"), ("ja", "p3@example.org"), ("en", "")]
    ):
        user = make_player_user(f"seat{i}", players[i])
        user.email = email
        user.save()
        Preferences.objects.create(user=user, language=language)
        users.append(user)
    return users


def test_seating_published_tells_each_player_in_their_language(
    smtp, http_receiver, league, season, seated, players, django_capture_on_commit_callbacks
):
    services.league_channel_add(
        league=league,
        name="Club chat",
        url=f"json://127.0.0.1:{http_receiver.url.rsplit(':', 1)[1]}/hook",
        actor=SYSTEM,
    )
    day = matchdays.match_day_create(
        division=season.divisions.get(code="A"),
        number=1,
        date=datetime.date(2026, 12, 5),
        start_time=datetime.time(14, 0),
        venue="Wan Chai hall",
        actor=SYSTEM,
    )
    plan = matchdays.seating_generate(match_day=day, seed=1, actor=SYSTEM)
    with django_capture_on_commit_callbacks(execute=True):
        [game] = matchdays.seating_publish(plan=plan, actor=SYSTEM)
    seats = {s.player_id: s.seat for s in game.seats.all()}
    # the table mates as the reader's pages name them (league.names): Latin in English, native script
    # in Chinese and Japanese
    from league.names import player_display_name

    mates = [s.player for s in game.seats.order_by("seat")]
    by_address = {to[0]: message for to, message in smtp.messages}
    assert sorted(by_address) == ["p1@example.org", "p2@example.org", "p3@example.org"]
    wind = {
        "en": ["East", "South", "West", "North"],
        "zh-hant": ["東", "南", "西", "北"],
        "ja": ["東", "南", "西", "北"],
    }
    expected = [
        ("p1@example.org", "en", "Match day 1: you play at table 1", "Your seat: {}."),
        ("p2@example.org", "zh-hant", "第 1 比賽日：你在第 1 桌", "你的座位：{}。"),
        ("p3@example.org", "ja", "第1節：あなたは1卓です", "あなたの席：{}。"),
    ]
    for (address, language, subject, seat_line), player in zip(expected, players):
        message = by_address[address]
        assert str(message["Subject"]).strip() == subject
        text = message.get_content()
        assert seat_line.format(wind[language][seats[player.pk]]) in text
        assert " · ".join(player_display_name(p, language) for p in mates) in text
        assert f"/games/{game.pk}/" in text
    assert "Test League · A Division" in by_address["p1@example.org"].get_content()
    assert "測試聯賽" in by_address["p2@example.org"].get_content()  # the league's Chinese name
    # every player has it in the inbox, the one without an email address too
    assert Notification.objects.filter(kind="seating_published", recipient__in=seated).count() == 4
    # the public channel: one post, the announcement only
    [(path, _headers, _body)] = http_receiver.requests
    post = http_receiver.json()
    assert path == "/hook"
    assert post["title"] == "A Division, match day 1: the seating is published"
    assert "Tables: 1." in post["message"]
    for player in players[:4]:
        assert player.membership_number not in post["message"]
    assert Delivery.objects.filter(status="sent").count() == 4  # three emails, one post
    # publishing the same revision again (nothing changed) tells nobody twice
    with django_capture_on_commit_callbacks(execute=True):
        matchdays.seating_publish(plan=plan, actor=SYSTEM)
    assert len(smtp.messages) == 3 and len(http_receiver.requests) == 1
