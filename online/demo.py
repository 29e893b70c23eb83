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


# ---------------------------------------------------------------- Mahjong Soul Online League

SOUL_NAMES = [
    ("Winnie Cheung", "張慧妍", "89852"),
    ("Oscar Leung", "梁國豪", "72011596"),
    ("Hana Mori", "森花", "75144431"),
    ("Yuki Aoyama", "青山雪", "75115153"),
    ("Derek Fung", "馮德輝", "12680124"),
    ("Sammi Kwok", "郭心怡", "10580456"),
    ("Tony Siu", "蕭東尼", "14454508"),
    ("Vivian Chow", "周慧雯", "120179643"),
]
# Mahjong Soul records under tests/online/fixtures: the genuine hanchan games in season 1 (their
# players registered by their Mahjong Soul account id, so the import names them itself), the built
# east games in season 2 (their invented accounts are asked for, as an admin maps a new name)
SOUL_HANCHAN = [
    ("mahjongsoul_throne_220602.json", (0, 1, 2, 3)),
    ("mahjongsoul_silver_220419.json", (4, 5, 6, 7)),
]
SOUL_EAST = [
    ("mahjongsoul_built_abortive_double_yakuman.json", (0, 4, 1, 5)),
    ("mahjongsoul_built_friendly_pao_stacked_yakuman.json", (0, 4, 1, 5)),
    ("mahjongsoul_built_tournament_riichi_nagashi_bust.json", (0, 4, 1, 5)),
]


def mahjong_soul_league_seed() -> League:
    """The Mahjong Soul Online League, 2026: season 1 (south games) and season 2 (east games) under
    the Mahjong Soul preset, open, their games waiting for the records named in SOUL_HANCHAN and
    SOUL_EAST (table number order)."""
    league = League.objects.create(
        name="Mahjong Soul Online League", name_zh="雀魂網上聯賽", slug="msol", promotion_count=0
    )
    admin = get_user_model().objects.get(username="admin")
    LeagueRole.objects.get_or_create(league=league, user=admin, role=LeagueRole.Role.ADMIN)
    south = services.rule_set_create(
        name="Mahjong Soul rules (south)", slug="mahjongsoul-south", preset="mahjongsoul", actor=SEED
    )
    east = services.rule_set_create(
        name="Mahjong Soul rules (east)",
        slug="mahjongsoul-east",
        preset="mahjongsoul",
        overrides={"game_length": "tonpuusen"},
        actor=SEED,
    )
    players = [
        Player.objects.create(
            display_name=en, native_name=zh, membership_number=f"MSOL{i + 1:04d}", mahjong_soul_id=account
        )
        for i, (en, zh, account) in enumerate(SOUL_NAMES)
    ]
    for number, rules, games, months in ((1, south, SOUL_HANCHAN, (5, 6)), (2, east, SOUL_EAST, (8, 9))):
        season = services.season_create(
            league=league,
            year=2026,
            number=number,
            rule_set=rules,
            starts_on=date(2026, months[0], 1),
            ends_on=date(2026, months[1], 30),
            divisions=(("A", "A Division", "甲組"),),
            actor=SEED,
        )
        services.season_status_set(season=season, status="open", actor=SEED)
        division = season.divisions.get(code="A")
        for player in players:
            services.entry_create(division=division, player=player, actor=SEED)
        for table, (_record, seats) in enumerate(games, start=1):
            services.game_create(
                division=division, match_day=1, table=table, players=[players[i] for i in seats], actor=SEED
            )
    return league
