"""Issue 50 §4: publishing a match day again keeps every game whose table did not change (same
id), replaces only the changed tables and tells only their players; a replaced game's old address
says what replaced it; the Publish button says "Published" once published, "Publish changes" only
when there are changes."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from kyoku.models import LeagueRole
from kyoku.principals import SYSTEM
from league import services as league_services
from league.models import Game, Player
from matchdays import services
from matchdays.models import ReplacedGame
from notifications.models import Notification
from tests.actors import make_player_user, make_role_user, open_season


@pytest.fixture
def twelve(league):
    players = [
        Player.objects.create(display_name=f"Seat {i:02d}", native_name=f"席{i}", membership_number=f"S{i:03d}")
        for i in range(12)
    ]
    for i, p in enumerate(players):
        make_player_user(f"p{i:02d}", p)
    return players


@pytest.fixture
def day(league, twelve):
    rules = league_services.rule_set_create(name="WRC", slug="wrc-r", preset="wrc", is_template=True, actor=SYSTEM)
    season = open_season(league, rules, twelve, per_division=12)
    return services.match_day_create(
        division=season.divisions.get(code="A"),
        number=1,
        date=datetime.date(2026, 12, 5),
        start_time=datetime.time(14, 0),
        actor=SYSTEM,
    )


@pytest.fixture
def admin(league):
    return make_role_user("boss", league, LeagueRole.Role.ADMIN)


def _games(day) -> dict[int, Game]:
    return {g.table: g for g in Game.objects.filter(division=day.division, match_day=day.number)}


def _told(after: int) -> list[str]:
    rows = Notification.objects.filter(kind="seating_published", pk__gt=after)
    return sorted(rows.values_list("recipient__username", flat=True))


def _users(game_or_ids) -> list[str]:
    ids = game_or_ids if isinstance(game_or_ids, list) else [s.player_id for s in game_or_ids.seats.all()]
    return sorted(Player.objects.filter(pk__in=ids).values_list("user__username", flat=True))


def _last() -> int:
    return Notification.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def test_republishing_keeps_unchanged_games_and_tells_only_the_changed_tables(day, admin):
    plan = services.seating_generate(match_day=day, seed=3, actor=admin)
    services.seating_publish(plan=plan, actor=admin)
    first = _games(day)
    assert sorted(first) == [1, 2, 3]
    table1 = [s.player_id for s in first[1].seats.order_by("seat")]
    assert len(_told(0)) == 12  # everyone told once
    # swap one player of table 1 with one of table 2: table 3 is untouched
    a, b = plan.tables[0][1], plan.tables[1][2]
    plan = services.seating_swap(plan=plan, player_a=a, player_b=b, actor=admin)
    mark = _last()
    games = services.seating_publish(plan=plan, actor=admin)
    now = _games(day)
    assert [g.table for g in games] == [1, 2, 3]
    assert now[3].pk == first[3].pk  # the same game, same id
    assert now[1].pk != first[1].pk and now[2].pk != first[2].pk
    for t in (1, 2):
        assert [s.player_id for s in now[t].seats.order_by("seat")] == plan.tables[t - 1]
    # only the players of the changed tables are told, each once, with a link to their new game
    told = Notification.objects.filter(kind="seating_published", pk__gt=mark)
    assert _told(mark) == sorted(_users(now[1]) + _users(now[2]))
    for n in told:
        game = next(g for g in (now[1], now[2]) if n.recipient.player.pk in [s.player_id for s in g.seats.all()])
        assert n.link == f"/games/{game.pk}/" and n.params["table"] == game.table
    # the replaced games are on record, with who sat there
    assert sorted(ReplacedGame.objects.values_list("game_id", flat=True)) == sorted([first[1].pk, first[2].pk])
    record = ReplacedGame.objects.get(game_id=first[1].pk)
    assert record.table == 1 and record.players == table1


def test_publishing_again_unchanged_changes_nothing_and_tells_nobody(day, admin):
    plan = services.seating_generate(match_day=day, seed=3, actor=admin)
    services.seating_publish(plan=plan, actor=admin)
    first = {t: g.pk for t, g in _games(day).items()}
    a, b = plan.tables[0][0], plan.tables[2][3]
    plan = services.seating_swap(plan=plan, player_a=a, player_b=b, actor=admin)
    plan = services.seating_swap(plan=plan, player_a=a, player_b=b, actor=admin)  # and back
    mark = _last()
    services.seating_publish(plan=plan, actor=admin)
    assert {t: g.pk for t, g in _games(day).items()} == first
    assert Notification.objects.filter(pk__gt=mark).count() == 0
    assert ReplacedGame.objects.count() == 0


def test_a_table_with_a_result_is_kept_while_another_changes(day, admin):
    plan = services.seating_generate(match_day=day, seed=3, actor=admin)
    services.seating_publish(plan=plan, actor=admin)
    first = _games(day)
    league_services.game_result_record(game=first[1], scores=[45000, 35000, 25000, 15000], actor=admin)
    # seats swapped within table 2: table 1 (played) is untouched, so publishing goes ahead
    a, b = plan.tables[1][0], plan.tables[1][1]
    plan = services.seating_swap(plan=plan, player_a=a, player_b=b, actor=admin)
    services.seating_publish(plan=plan, actor=admin)
    now = _games(day)
    assert now[1].pk == first[1].pk and now[3].pk == first[3].pk and now[2].pk != first[2].pk
    # but changing the played table is refused, in words, and nothing is stored
    c = plan.tables[2][0]
    plan = services.seating_swap(plan=plan, player_a=plan.tables[0][0], player_b=c, actor=admin)
    with pytest.raises(ValidationError) as refused:
        services.seating_publish(plan=plan, actor=admin)
    assert "Table 1 of this match day has started or has a result" in str(refused.value)
    assert {t: g.pk for t, g in _games(day).items()} == {t: g.pk for t, g in now.items()}
    assert ReplacedGame.objects.count() == 1


def test_a_replaced_games_page_says_what_replaced_it(day, admin, twelve):
    plan = services.seating_generate(match_day=day, seed=3, actor=admin)
    services.seating_publish(plan=plan, actor=admin)
    first = _games(day)
    old_link = Notification.objects.get(recipient=twelve[plan.tables[0][0] - twelve[0].pk].user).link
    a, b = plan.tables[0][0], plan.tables[1][0]
    plan = services.seating_swap(plan=plan, player_a=a, player_b=b, actor=admin)
    services.seating_publish(plan=plan, actor=admin)
    now = _games(day)
    assert old_link == f"/games/{first[1].pk}/"
    for client in (Client(), _logged_in(Player.objects.get(pk=a).user)):
        response = client.get(old_link)
        assert response.status_code == 200
        page = response.content.decode()
        assert "This table was replaced" in page
        assert f'href="/games/{now[1].pk}/" id="replaced-by"' in page
        # the player who moved: where they play now
        assert f'{Player.objects.get(pk=a).display_name}: <a href="/games/{now[2].pk}/">table 2</a>' in page
        assert f'href="/matchdays/{day.pk}/"' in page
    # in the reader's language
    page = Client(HTTP_ACCEPT_LANGUAGE="zh-hant").get(old_link).content.decode()
    assert "This table was replaced" not in page
    # a game that never was is still 404
    assert Client().get(f"/games/{now[3].pk + 1000}/").status_code == 404


def test_a_table_removed_tells_its_players_they_sit_out(league, admin, twelve, day):
    plan = services.seating_generate(match_day=day, seed=3, actor=admin)
    services.seating_publish(plan=plan, actor=admin)
    first = _games(day)
    out = [s.player_id for s in first[3].seats.all()]
    # four players of table 3 withdraw: the new seating has two tables
    for pid in plan.tables[2]:
        services.attendance_mark(match_day=day, player=Player.objects.get(pk=pid), status="absent", actor=admin)
    plan = services.seating_generate(match_day=day, seed=3, actor=admin)
    mark = _last()
    services.seating_publish(plan=plan, actor=admin)
    now = _games(day)
    assert sorted(now) == [1, 2]
    changed = [t for t in (1, 2) if now[t].pk != first[t].pk]
    expected = _users(out) + [u for t in changed for u in _users(now[t])]
    assert _told(mark) == sorted(expected)
    bye = Notification.objects.filter(kind="seating_published", pk__gt=mark, params__bye=True)
    assert sorted(bye.values_list("recipient__username", flat=True)) == _users(out)
    from notifications.rendering import render

    assert render(bye.first(), "en")[0] == "Match day 1: you have no table now"
    assert bye.first().link == f"/matchdays/{day.pk}/"


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_publish_button_says_published_and_offers_changes_only_when_there_are(day, admin):
    client = _logged_in(admin)
    url = f"/matchdays/{day.pk}/"
    plan = services.seating_generate(match_day=day, seed=3, actor=admin)
    page = client.get(url).content.decode()
    assert 'id="publish">Publish</button>' in page
    response = client.post(f"{url}publish/", follow=True)
    page = response.content.decode()
    assert "Published: 3 games created." in page
    assert 'id="publish"' not in page and 'id="published"' in page
    # a swap: the page offers to publish the changes, naming the tables
    plan.refresh_from_db()
    services.seating_swap(plan=plan, player_a=plan.tables[0][0], player_b=plan.tables[2][0], actor=admin)
    page = client.get(url).content.decode()
    assert 'id="publish">Publish changes</button>' in page and "tables 1, 3" in page
    page = client.post(f"{url}publish/", follow=True).content.decode()
    assert "Published again: 1 tables unchanged; tables 1, 3 changed, and only their players are told." in page
    assert 'id="publish"' not in page and 'id="published"' in page
