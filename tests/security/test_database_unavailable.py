"""A database that cannot be reached for a moment (PostgreSQL restarting, SQLite's write lock held
past its timeout) answers 503 with Retry-After and words, in the page's language or as coded
JSON, never a 500; a fault in the code still answers 500. Opening a PostgreSQL connection is
retried for a few seconds, so a restart is waited out rather than failed. A read whose
connection broke under it is answered once more (kyoku.middleware.ReadRetryMiddleware); a write
is not run twice."""

from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.db.backends.postgresql import base as django_postgresql
from django.db.backends.utils import CursorWrapper

from kyoku.postgresql import base as kyoku_postgresql

UNREACHABLE = {
    # what each backend says when the database is not there for the request
    "postgresql": "connection failed: the database system is shutting down",
    "sqlite": "database is locked",
}


def queries_fail(message: str):
    return mock.patch.object(CursorWrapper, "execute", side_effect=OperationalError(message))


def queries_fail_first(message: str, times: int = 1) -> tuple[dict, object]:
    """The first ``times`` queries fail as an unreachable database does, the rest run."""
    real = CursorWrapper.execute
    seen = {"failed": 0}

    def execute(self, sql, params=None):
        if seen["failed"] < times:
            seen["failed"] += 1
            raise OperationalError(message)
        return real(self, sql, params)

    return seen, mock.patch.object(CursorWrapper, "execute", execute)


@pytest.fixture
def client_500(client):
    client.raise_request_exception = False
    return client


def test_the_api_answers_503_with_a_code_while_the_database_is_unreachable(db, client_500):
    with queries_fail(UNREACHABLE[connection.vendor]):
        response = client_500.get("/api/rulesets/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json()["code"] == "database_unavailable"


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "unavailable for a moment"), ("zh-hant", "暫時無法使用"), ("ja", "一時的に利用できません")],
)
def test_a_page_answers_503_in_its_language_while_the_database_is_unreachable(db, client_500, language, words):
    client_500.cookies["django_language"] = language
    with queries_fail(UNREACHABLE[connection.vendor]):
        response = client_500.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert words in response.content.decode()


def test_a_fault_in_the_code_is_still_a_500(db, client_500):
    # SQLite names its own SQL mistakes OperationalError: those are faults, not an outage
    message = "no such column: x" if connection.vendor == "sqlite" else "boom"
    error = OperationalError(message) if connection.vendor == "sqlite" else RuntimeError(message)
    with mock.patch.object(CursorWrapper, "execute", side_effect=error):
        response = client_500.get("/api/rulesets/")
    assert response.status_code == 500


def test_opening_a_postgresql_connection_waits_out_a_restart(monkeypatch):
    monkeypatch.setenv("DB_CONNECT_RETRY_SECONDS", "5")
    monkeypatch.setattr(kyoku_postgresql.time, "sleep", lambda seconds: None)
    refused = django_postgresql.Database.OperationalError("the database system is shutting down")
    attempts = mock.Mock(side_effect=[refused, refused, "connection"])
    monkeypatch.setattr(django_postgresql.DatabaseWrapper, "get_new_connection", lambda self, params: attempts())
    wrapper = object.__new__(kyoku_postgresql.DatabaseWrapper)
    assert wrapper.get_new_connection({}) == "connection"
    assert attempts.call_count == 3


def test_a_database_that_stays_away_fails_the_connect_after_the_retry_window(monkeypatch):
    monkeypatch.setenv("DB_CONNECT_RETRY_SECONDS", "0")
    refused = django_postgresql.Database.OperationalError("connection refused")
    attempts = mock.Mock(side_effect=refused)
    monkeypatch.setattr(django_postgresql.DatabaseWrapper, "get_new_connection", lambda self, params: attempts())
    wrapper = object.__new__(kyoku_postgresql.DatabaseWrapper)
    with pytest.raises(django_postgresql.Database.OperationalError):
        wrapper.get_new_connection({})
    assert attempts.call_count == 1


@pytest.mark.parametrize("path", ["/", "/api/rulesets/"])
def test_a_read_whose_connection_broke_is_answered_once_more(transactional_db, client_500, path):
    # no test transaction around the request: the broken connection is closed and opened again
    seen, failing = queries_fail_first(UNREACHABLE[connection.vendor])
    with failing:
        response = client_500.get(path)
    assert seen["failed"] == 1
    assert response.status_code == 200


def test_a_read_that_fails_again_answers_503_after_one_more_try(db, client_500):
    seen, failing = queries_fail_first(UNREACHABLE[connection.vendor], times=100)
    with failing:
        response = client_500.get("/api/rulesets/")
    assert response.status_code == 503
    assert seen["failed"] == 2  # the read and its one retry, each stopped at its first query


def test_a_write_is_not_run_twice(db, client_500):
    # its 503 says nothing was saved; the client sends it again with its idempotency key
    seen, failing = queries_fail_first(UNREACHABLE[connection.vendor])
    with failing:
        response = client_500.post("/accounts/login/", {"login": "someone", "password": "wrong"})
    assert response.status_code == 503
    assert seen["failed"] == 1
