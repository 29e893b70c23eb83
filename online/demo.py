"""The demo's online league: a season played on Tenhou under Tenhou's rules, whose games wait for
their records. Each game seats the players in the order of one of the genuine records under
tests/online/fixtures, so importing that record (its page asks who each Tenhou name is) agrees
hand by hand; the same name (CLS, in three records) sits where one player sits each time."""

from __future__ import annotations

from datetime import date

from django.contrib.auth import get_user_model

from league import services
from kyoku.models import League, LeagueRole
from kyoku.principals import System
from league.models import Player

SEED = System("command:seed_demo")

ONLINE_NAMES = [
    ("Kit Chan", "陳傑"),
    ("Mandy Lau", "劉敏儀"),
    ("Raymond Ho", "何文偉"),
    ("Iris Tse", "謝愛玲"),
    ("Kelvin Wu", "胡家文"),
    ("Stephanie Ng", "吳詩敏"),
    ("Alan Yip", "葉志倫"),
    ("Crystal Lam", "林水晶"),
]
# record (the fixture's file name) → the players' indexes in its seat order; player 7 is CLS
GAMES = [
    ("2010112714gm-00a9-0000-d497e395.mjlog", (0, 1, 2, 3)),
    ("2016052515gm-00a9-0000-c4d72066.mjlog", (4, 5, 7, 6)),
    ("2018040923gm-00a9-0000-1833afca.mjlog", (0, 1, 7, 2)),
    ("2020052221gm-00a9-0000-6f0524c7.mjlog", (3, 7, 4, 5)),
    ("double-ron.mjlog", (6, 0, 1, 2)),
]


def online_league_seed() -> League:
    """The Tenhou Online League's 2026 season 1: open, under the Tenhou preset, five games waiting
    for the records named in each game's table number order (GAMES)."""
    league = League.objects.create(name="Tenhou Online League", name_zh="天鳳網上聯賽", slug="tol", promotion_count=0)
    admin = get_user_model().objects.get(username="admin")
    LeagueRole.objects.get_or_create(league=league, user=admin, role=LeagueRole.Role.ADMIN)
    rules = services.rule_set_create(name="Tenhou rules (online)", slug="tenhou-online", preset="tenhou", actor=SEED)
    players = [
        Player.objects.create(display_name=en, native_name=zh, membership_number=f"TOL{i + 1:04d}")
        for i, (en, zh) in enumerate(ONLINE_NAMES)
    ]
    season = services.season_create(
        league=league,
        year=2026,
        number=1,
        rule_set=rules,
        starts_on=date(2026, 5, 1),
        ends_on=date(2026, 7, 31),
        divisions=(("A", "A Division", "甲組"),),
        actor=SEED,
    )
    services.season_status_set(season=season, status="open", actor=SEED)
    division = season.divisions.get(code="A")
    for player in players:
        services.entry_create(division=division, player=player, actor=SEED)
    for table, (_record, seats) in enumerate(GAMES, start=1):
        services.game_create(
            division=division, match_day=1, table=table, players=[players[i] for i in seats], actor=SEED
        )
    return league
