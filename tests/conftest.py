"""Shared test fixtures: named actors as in healthchecks' tests.

admin (league admin), referee, member (a player with a login), outsider (a login with no role),
and the league and players they belong to. Each test folder adds its own season; ``game`` is played in its division A.
"""

import os
import uuid

import pytest
from django.core.management import call_command
from django.test import override_settings
from rest_framework.test import APIClient

from kyoku.models import League, LeagueRole
from league.models import Player
from tests.actors import make_player_user, make_role_user, make_user
from tests.demo_snapshot import Demo, demo_seed
from kyoku.principals import SYSTEM

# PBKDF2's deliberate slowness costs seconds per test with several named users.
FAST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def caches_of_their_own(caches: dict) -> dict:
    # Cached renderings are keyed on ids and standings versions, which repeat from test to test
    # (rolled back) and from run to run (Redis outlives the test database): a prefix per test.
    return {name: {**conf, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"} for name, conf in caches.items()}


# What reaches the database or the broker (pytest-django's fixtures, directly or through others;
# not django_db_blocker: its own autouse fixtures take that one for every test).
SERVICE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_setup",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}
SERVICE_MARKERS = ("django_db", "redis", "postgres", "skipif", "skip")


def touches_services(item: pytest.Item) -> bool:
    """Whether a test can answer differently on another database or with a broker: it uses the
    database (a fixture or a marker), or is marked for a service or skipped by a condition (such
    a test may run in one pass only)."""
    names = set(getattr(item, "fixturenames", ()))
    return bool(names & SERVICE_FIXTURES) or any(item.get_closest_marker(m) for m in SERVICE_MARKERS)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``KYOKU_TESTS_SERVICES_ONLY=1`` (CI's second pass, on PostgreSQL and Redis): only the tests
    that touch the database or the broker. The others (engines, gates, catalogues, commands run
    on a database of their own) gave their answer in the first pass and would give it again."""
    if os.environ.get("KYOKU_TESTS_SERVICES_ONLY") != "1":
        return
    keep = [item for item in items if touches_services(item)]
    if len(keep) != len(items):
        kept = set(map(id, keep))
        config.hook.pytest_deselected(items=[item for item in items if id(item) not in kept])
        items[:] = keep


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = FAST_PASSWORD_HASHERS


@pytest.fixture(autouse=True)
def _the_default_language():
    """Each test starts in the site's default language: a request in another language (the test
    client runs LocaleMiddleware in this thread) leaves that language active after it, and words a
    service raises later in another test would come out in it."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _cache_of_its_own(settings):
    settings.CACHES = caches_of_their_own(settings.CACHES)


@pytest.fixture(scope="session")
def demo_rows(django_db_setup, django_db_blocker, tmp_path_factory) -> Demo:
    """``seed_demo`` run once per session and its rows kept in memory (tests/demo_snapshot.py),
    under the settings every test gets and with files of its own."""
    from django.conf import settings

    files = tmp_path_factory.mktemp("demo-files")
    with (
        django_db_blocker.unblock(),
        override_settings(
            PASSWORD_HASHERS=FAST_PASSWORD_HASHERS,
            CACHES=caches_of_their_own(settings.CACHES),
            PRIVATE_MEDIA_ROOT=files / "private",
            MEDIA_ROOT=files / "media",
        ),
    ):
        return demo_seed()


@pytest.fixture
def demo(db, demo_rows):
    """The demo as ``call_command("seed_demo")`` leaves it in the test's transaction: the work it
    queues for the commit (ratings, deliveries) not done, as in a test rolled back."""
    demo_rows.pending.write()


@pytest.fixture
def demo_committed(db, demo_rows):
    """The demo as ``seed_demo`` leaves it once committed, the work queued for the commit done: for
    a test whose transactions commit (``transactional_db``, a live server), or that runs that work
    (``django_capture_on_commit_callbacks(execute=True)``) around the command."""
    demo_rows.committed.write()


@pytest.fixture(scope="module")
def demo_module(django_db_setup, django_db_blocker, demo_rows):
    """The committed demo for a whole module's tests, emptied at the module's end."""
    with django_db_blocker.unblock():
        demo_rows.committed.write()
    yield
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def league(db):
    return League.objects.create(name="Test League", name_zh="測試聯賽", slug="test", promotion_count=2)


@pytest.fixture
def admin(league):
    return make_role_user("admin", league, LeagueRole.Role.ADMIN)


@pytest.fixture
def referee(league):
    return make_role_user("referee", league, LeagueRole.Role.REFEREE)


@pytest.fixture
def players(db):
    return [
        Player.objects.create(display_name=f"Player {i}", native_name=f"選手{i}", membership_number=f"M{i:03d}")
        for i in range(1, 9)
    ]


@pytest.fixture
def member(players):
    return make_player_user("member", players[0])


@pytest.fixture
def outsider(db):
    return make_user("outsider")


@pytest.fixture
def division_a(season):
    """Division A of the ``season`` each test folder defines."""
    return season.divisions.get(code="A")


@pytest.fixture
def game(division_a, players):
    """Match day 1, table 1: players 1-4 in seat order."""
    from league import services

    return services.game_create(division=division_a, match_day=1, table=1, players=players[:4], actor=SYSTEM)


@pytest.fixture
def chombo_game(game, admin):
    """``game`` entered hand by hand and finished: hand 1 a chombo by seat 2, hand 2 a draw with
    everyone ready (tests/riichi_game.py CHOMBO, ALL_READY)."""
    from scoring import services
    from tests.riichi_game import ALL_READY, CHOMBO

    for record in (CHOMBO, ALL_READY):
        services.hand_record_add(game=game, record=record, actor=admin)
    services.game_hands_finish(game=game, actor=admin)
    return game


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def as_user(api):
    def login(user):
        if user is not None:
            api.force_authenticate(user)
        return api

    return login
