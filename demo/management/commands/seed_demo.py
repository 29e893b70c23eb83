"""A believable demo: the Hong Kong Riichi League (32 players, two seasons with A/B divisions,
~60 games, promotion between the seasons, qualification tiers and applications, five logins) and
the Kowloon Riichi Club, whose finished season waits for its promotion to be confirmed; the front
door's invitations, requests and a league requiring two factors (demo/front_door.py)."""

import random
from datetime import date, datetime, time, timedelta

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from league import services
from kyoku.models import League, LeagueRole
from kyoku.principals import System
from league.models import Player, QualificationTier

# who loads the demo: the command itself (what a user does in the demo is done as that user)
SEED = System("command:seed_demo")

NAMES = [
    ("Chan Tai Man", "陳大文"),
    ("Wong Siu Ming", "黃小明"),
    ("Lee Ka Yan", "李嘉欣"),
    ("Cheung Wing Hei", "張永曦"),
    ("Lau Chi Keung", "劉志強"),
    ("Ng Mei Ling", "吳美玲"),
    ("Ho Pak Lam", "何柏霖"),
    ("Leung Hoi Ching", "梁凱晴"),
    ("Tsang Kwok Wai", "曾國偉"),
    ("Yip Sze Wan", "葉詩韻"),
    ("Kwok Tsz Hin", "郭梓軒"),
    ("Lam Wai Kit", "林偉傑"),
    ("Mak Hiu Tung", "麥曉彤"),
    ("Fung Chun Yin", "馮俊賢"),
    ("Tang Lok Yi", "鄧樂怡"),
    ("Chow Ho Yin", "周浩然"),
    ("Yuen Ka Ho", "袁家豪"),
    ("So Wing Sze", "蘇詠詩"),
    ("Cheng Man Kit", "鄭文傑"),
    ("Kwan Yat Long", "關一朗"),
    ("Poon Hei Tung", "潘希彤"),
    ("Tam Chun Hei", "譚俊希"),
    ("Siu Ka Wai", "蕭家慧"),
    ("Au Yeung Ming", "歐陽明"),
    ("Ma Tsz Ching", "馬芷晴"),
    ("Chu Kin Wah", "朱健華"),
    ("Hui Wing Yan", "許詠欣"),
    ("Luk Ho Fai", "陸浩輝"),
    ("Sato Haruki", "佐藤春樹"),
    ("Tanaka Yui", "田中結衣"),
    ("Kim Min Jun", "金敏俊"),
    ("Alex Fontaine", "方亞歷"),
]
# The Kowloon club's members: a league of its own, so nobody here plays in both.
KOWLOON_NAMES = [
    ("Wan Chi Ho", "溫志豪"),
    ("Yeung Ka Lok", "楊家樂"),
    ("Lo Wing Sum", "盧穎心"),
    ("Chiu Tsz Kin", "趙子健"),
    ("Choi Man Yee", "蔡敏儀"),
    ("Pang Ho Ting", "彭浩霆"),
    ("Law Hiu Yan", "羅曉欣"),
    ("Sze Kwun Lok", "施冠樂"),
    ("Tse Yan Ting", "謝欣婷"),
    ("Man Chun Kit", "文俊傑"),
    ("Ko Sin Yi", "高倩儀"),
    ("Lui Ka Chun", "呂家俊"),
    ("Hung Pui Shan", "洪佩珊"),
    ("Tong Wai Lun", "唐偉倫"),
    ("Yau Hoi Yan", "邱凱欣"),
    ("Suzuki Ren", "鈴木蓮"),
]


def realistic_scores(rng: random.Random, total: int) -> list[int]:
    """Final scores of a hanchan: spread like real games, multiples of 100, adding up to ``total``."""
    while True:
        raw = [rng.gauss(25000, 11000) for _ in range(4)]
        shift = (total - sum(raw)) / 4
        scores = [int(round((s + shift) / 100.0)) * 100 for s in raw]
        scores[rng.randrange(4)] += total - sum(scores)
        if min(scores) >= -15000 and len(set(scores)) == 4:
            return scores


class Command(BaseCommand):
    help = "Load a demo league (idempotent: does nothing if the demo league exists)."

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=2026)

    @transaction.atomic
    def handle(self, *args, seed, **options):
        if League.objects.filter(slug="hkrl").exists():
            self.stdout.write("Demo league already loaded.")
            return
        rng = random.Random(seed)
        league = League.objects.create(
            name="Hong Kong Riichi League", name_zh="香港立直麻雀聯賽", slug="hkrl", promotion_count=2
        )
        self._logins(league)
        template = services.rule_set_create(
            name="WRC (template)", slug="wrc", preset="wrc", is_template=True, actor=SEED
        )
        for preset in ("ema", "mleague", "tenhou"):
            services.rule_set_create(
                name=f"{preset.upper()} (template)", slug=preset, preset=preset, is_template=True, actor=SEED
            )
        league_rules = services.rule_set_revise(
            rule_set=template, overrides={"reaction_time_ms": 1500}, notes="HKRL house rules", actor=SEED
        )
        players = [
            Player.objects.create(
                display_name=en,
                native_name=zh,
                membership_number=f"HK{i + 1:04d}",
                tenhou_id=f"tenhou_{i + 1:02d}" if i % 3 == 0 else "",
                mahjong_soul_id=f"{100000 + i * 7919}" if i % 4 == 1 else "",
            )
            for i, (en, zh) in enumerate(NAMES)
        ]
        Player.objects.filter(pk=players[0].pk).update(user=get_user_model().objects.get(username="player"))
        s1 = services.season_create(
            league=league,
            year=2026,
            number=1,
            rule_set=league_rules,
            starts_on=date(2026, 1, 10),
            ends_on=date(2026, 3, 28),
            actor=SEED,
        )
        for i, player in enumerate(players):
            services.entry_create(division=s1.divisions.get(code="A" if i < 16 else "B"), player=player, actor=SEED)
        self._play(s1, rng, match_days=4, start=date(2026, 1, 10))
        services.season_status_set(season=s1, status="closed", actor=SEED)
        s2 = services.season_create(
            league=league,
            year=2026,
            number=2,
            rule_set=league_rules,
            starts_on=date(2026, 4, 11),
            ends_on=date(2026, 6, 27),
            actor=SEED,
        )
        from league.tasks import season_promote

        season_promote.delay(s1.pk, s2.pk)
        services.season_status_set(season=s2, status="open", actor=SEED)
        self._tiers_and_applications(league, s2, players)
        self._play(s2, rng, match_days=3, start=date(2026, 4, 11), unplayed_days=1)
        # match days app: the next two match days, the first with a drafted seating to publish
        from matchdays.demo import seed_match_days

        seed_match_days(s2, first_number=5, start=date(2026, 4, 11) + timedelta(weeks=8))
        self._table_and_desk(s2, players[0])
        from events.demo import cup_seed, event_seed

        cup_seed(
            league=league,
            rules=league_rules,
            players=players[20:32],
            admin=get_user_model().objects.get(username="admin"),
            scores=realistic_scores,
            rng=rng,
        )
        event_seed(
            league=league,
            rules=league_rules,
            players=players,
            demo_player=players[0],
            admin=get_user_model().objects.get(username="admin"),
            scores=realistic_scores,
            rng=rng,
        )
        self._kowloon(rng, template)
        from online.demo import mahjong_soul_league_seed, online_league_seed

        online_league_seed()
        mahjong_soul_league_seed()
        from notifications.demo import notifications_seed

        notifications_seed(league=league)
        from demo.front_door import front_door_seed

        front_door_seed(league=league, admin=get_user_model().objects.get(username="admin"))
        self.stdout.write(
            self.style.SUCCESS(
                "Demo loaded: Hong Kong Riichi League (32 players, 2 seasons) and Kowloon Riichi Club (2026 S1 "
                "waiting for promotion), Tenhou Online League (games waiting for their Tenhou records), Mahjong Soul Online League (games waiting for their Mahjong Soul records), HKRL Winter Open 2026 (40 players, round 5 on the clock), HKRL Autumn Cup 2026 (finished: a semi-final and a final). Front door: a claim and a referee invited, a link request and the Sai Kung Riichi Club waiting for approval, the Sha Tin Riichi Club requiring two factors. "
                "Logins: admin/kyoku-admin, referee/kyoku-referee, player/kyoku-player, director/kyoku-director "
                "(TOTP secret in the README), newmember/kyoku-newmember"
            )
        )

    def _table_and_desk(self, season, player):
        """A game entered hand by hand and finished from its hands, and the referee desk's
        incidents (ruled, appealed and upheld, waiting) on a game the player login sat at."""
        from referee.demo import incidents_seed
        from scoring.demo import hand_by_hand_game_seed

        users = get_user_model().objects
        admin, referee = users.get(username="admin"), users.get(username="referee")
        hand_by_hand_game_seed(season=season, actor=admin)
        incidents_seed(player=player, referee=referee, second_referee=admin)

    def _kowloon(self, rng, template):
        """A second league whose 2026 S1 is played out and closed and whose 2026 S2 exists without
        entries: the promotion page previews real moves and Confirm enters them (issue 11)."""
        league = League.objects.create(
            name="Kowloon Riichi Club", name_zh="九龍立直麻雀會", slug="krc", promotion_count=2
        )
        admin = get_user_model().objects.get(username="admin")
        LeagueRole.objects.get_or_create(league=league, user=admin, role=LeagueRole.Role.ADMIN)
        players = [
            Player.objects.create(display_name=en, native_name=zh, membership_number=f"KRC{i + 1:04d}")
            for i, (en, zh) in enumerate(KOWLOON_NAMES)
        ]
        season = services.season_create(
            league=league,
            year=2026,
            number=1,
            rule_set=template,
            starts_on=date(2026, 1, 17),
            ends_on=date(2026, 3, 21),
            actor=SEED,
        )
        services.season_status_set(season=season, status="open", actor=SEED)
        for i, player in enumerate(players):
            services.entry_create(division=season.divisions.get(code="A" if i < 8 else "B"), player=player, actor=SEED)
        # played hand by hand (a season with enough hands for the statistics: stats.demo)
        self._play(season, rng, match_days=4, start=date(2026, 1, 17), by_hand=True)
        services.season_status_set(season=season, status="closed", actor=SEED)
        services.season_create(
            league=league,
            year=2026,
            number=2,
            rule_set=template,
            starts_on=date(2026, 4, 18),
            ends_on=date(2026, 6, 20),
            actor=SEED,
        )

    def _logins(self, league):
        users = get_user_model().objects
        admin = users.filter(username="admin").first() or users.create_superuser(
            "admin", "admin@example.org", "kyoku-admin"
        )
        referee = users.filter(username="referee").first() or users.create_user("referee", password="kyoku-referee")
        users.filter(username="player").first() or users.create_user("player", password="kyoku-player")
        # the admin's email is verified (django-allauth): it signs in by username or by email; the
        # other two have no email and sign in by username (accounts.adapter.EmailVerificationStage)
        EmailAddress.objects.get_or_create(
            user=admin, email="admin@example.org", defaults={"verified": True, "primary": True}
        )
        LeagueRole.objects.get_or_create(league=league, user=admin, role=LeagueRole.Role.ADMIN)
        LeagueRole.objects.get_or_create(league=league, user=referee, role=LeagueRole.Role.REFEREE)

    def _play(self, season, rng, match_days, start, unplayed_days=0, by_hand=False):
        options = season.rule_set.options
        for division in season.divisions.all():
            players = [e.player for e in division.entries.select_related("player")]
            for day in range(1, match_days + unplayed_days + 1):
                rng.shuffle(players)
                when = timezone.make_aware(datetime.combine(start + timedelta(weeks=2 * (day - 1)), time(14, 0)))
                for table in range(len(players) // 4):
                    game = services.game_create(
                        division=division,
                        match_day=day,
                        table=table + 1,
                        players=players[table * 4 : table * 4 + 4],
                        scheduled_at=when,
                        actor=SEED,
                    )
                    if day > match_days:
                        continue
                    if by_hand:
                        from stats.demo import game_by_hand_play

                        game_by_hand_play(game=game, rng=rng, actor=SEED, hands=rng.randint(8, 14))
                        continue
                    sticks = 1 if rng.random() < 0.15 else 0
                    total = 4 * options["start_points"] - 1000 * sticks
                    services.game_result_record(
                        game=game, scores=realistic_scores(rng, total), deposits_left=sticks, actor=SEED
                    )

    def _tiers_and_applications(self, league, season, players):
        cat1 = QualificationTier.objects.create(
            league=league,
            code="1",
            description="Category 1: earned by league results, valid for the year",
            description_zh="第一類資格:以年為單位,有效期至該年度第四賽季末",
            effective_year=2023,
            effective_number=3,
            validity="yearly",
            requirements={"proof_required": False},
        )
        cat1a = QualificationTier.objects.create(
            league=league,
            code="1A",
            description="Category 1A: Tenhou 7-dan R2000 or Mahjong Soul Celestial, "
            "plus 40 games this year in the Phoenix room (or Throne) or above",
            description_zh="第一A類資格:擁有天鳳七段R2000/雀魂魂天帳號,並在年內有40場鳳以上對局",
            effective_year=2023,
            effective_number=3,
            validity="season",
            requirements={
                "accounts": [
                    {
                        "platform": "tenhou",
                        "min_rank": "7-dan",
                        "min_rating": 2000,
                        "min_games_in_year": 40,
                        "min_room": "phoenix",
                    },
                    {"platform": "mahjongsoul", "min_rank": "celestial", "min_games_in_year": 40, "min_room": "throne"},
                ],
                "proof_required": False,
            },
        )
        b_players = [e.player for e in season.entries.filter(division__code="B").select_related("player")]
        good = services.application_submit(
            player=b_players[0],
            season=season,
            tier=cat1a,
            evidence={
                "platform": "tenhou",
                "account_id": "tenhou_ace",
                "rank": "7-dan",
                "rating": 2043,
                "games_in_year": 57,
                "room": "phoenix",
            },
            actor=SEED,
        )
        services.application_submit(
            player=b_players[1],
            season=season,
            tier=cat1a,
            evidence={
                "platform": "mahjongsoul",
                "account_id": "88231907",
                "rank": "celestial",
                "games_in_year": 41,
                "room": "throne",
            },
            actor=SEED,
        )
        services.application_submit(
            player=b_players[2],
            season=season,
            tier=cat1,
            evidence={"platform": "league", "note": "3rd in B division 2025 S4"},
            actor=SEED,
        )
        admin = get_user_model().objects.get(username="admin")
        services.application_decide(application=good, approve=True, actor=admin)
        # a newcomer with no entry and no games yet: the admin can approve this one from the queue
        newcomer = Player.objects.create(
            display_name="Kelvin Yip", native_name="葉家樂", membership_number="HK0099", tenhou_id="tenhou_kyip"
        )
        services.application_submit(
            player=newcomer,
            season=season,
            tier=cat1a,
            evidence={
                "platform": "tenhou",
                "account_id": "tenhou_kyip",
                "rank": "7-dan",
                "rating": 2051,
                "games_in_year": 63,
                "room": "phoenix",
            },
            actor=SEED,
        )
        # a refused one too, so the review history shows both decisions (issue 11)
        refused = services.application_submit(
            player=b_players[3],
            season=season,
            tier=cat1a,
            evidence={
                "platform": "tenhou",
                "account_id": "tenhou_b4",
                "rank": "7-dan",
                "rating": 2010,
                "games_in_year": 45,
                "room": "phoenix",
            },
            actor=SEED,
        )
        services.application_decide(
            application=refused,
            approve=False,
            actor=admin,
            reason="the game log shows a shared account; send a screenshot from your own login",
        )
