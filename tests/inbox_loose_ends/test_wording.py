"""Issue 50 loose ends in the wording: no "p.m.." in English, one zh-Hant term for a match day,
"Result recorded." said once on the desk's table page."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.test import Client
from django.utils import translation

from league.models import Game
from notifications.models import Notification
from notifications.rendering import render
from tests.actors import open_season
from tests.events.conftest import SCORES, event, field, in_play, rules, running  # noqa: F401


def test_a_time_ending_in_pm_is_not_followed_by_a_second_full_stop(db):
    when = dt.datetime(2026, 11, 28, 14, 0, tzinfo=ZoneInfo("Asia/Hong_Kong"))
    n = Notification(
        kind="seating_published",
        params={"match_day": 5, "table": 2, "seat": 0, "when": when.isoformat(), "players": "A · B · C · D"},
    )
    _subject, body = render(n, "en")
    assert "Starts: Nov. 28, 2026, 2 p.m." in body
    assert "p.m.." not in body
    _subject, body = render(n, "zh-hant")
    assert body.count("。") >= 2 and "。。" not in body


def test_zh_hant_says_match_day_alike_in_seating_and_ruling_emails(db, league, rules):  # noqa: F811
    from league import services as league_services  # noqa: F401 (the season's helpers)
    from league.models import Player

    players = [Player.objects.create(display_name=f"M{i}", membership_number=f"M{i:03d}") for i in range(4)]
    season = open_season(league, rules, players)
    game = Game.objects.create(season=season, division=season.divisions.first(), match_day=2, table=3)
    with translation.override("zh-hant"):
        assert "第 2 比賽日" in str(game) and "輪" not in str(game)
    seating = Notification(kind="seating_published", params={"match_day": 2, "table": 3, "players": "x"})
    assert "第 2 比賽日" in render(seating, "zh-hant")[0]


def test_result_recorded_is_said_once_on_the_desks_table_page(in_play, admin):  # noqa: F811
    game = Game.objects.filter(season=in_play.season, match_day=1).order_by("table").first()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(admin)
    posted = {"action": "enter", "deposits_left": "0", **{f"score_{i}": str(v) for i, v in enumerate(SCORES)}}
    page = client.post(f"/events/tables/{game.pk}/", posted, follow=True).content.decode()
    assert page.count("Result recorded.") == 1
    game.refresh_from_db()
    assert game.result is not None
