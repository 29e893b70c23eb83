"""CI's second pass (PostgreSQL and Redis) runs only the tests that touch a service: which those are."""

from types import SimpleNamespace

from tests.conftest import touches_services


def item(fixtures: list[str], markers: tuple[str, ...] = ()) -> SimpleNamespace:
    return SimpleNamespace(fixturenames=fixtures, get_closest_marker=lambda name: name if name in markers else None)


def test_a_test_with_the_database_runs_again_on_the_second_database():
    assert touches_services(item(["settings", "db"]))
    assert touches_services(item(["live_server"]))
    assert touches_services(item(["django_db_setup", "django_db_blocker"]))  # a module's data
    assert touches_services(item([], ("django_db",)))


def test_a_test_of_one_pass_only_is_kept_and_a_pure_one_is_not():
    assert touches_services(item([], ("skipif",)))  # e.g. runs only with REDIS_URL
    assert touches_services(item([], ("redis",)))
    # every test has django_db_blocker (pytest-django's autouse fixtures take it)
    assert not touches_services(item(["settings", "django_db_blocker", "monkeypatch"]))
