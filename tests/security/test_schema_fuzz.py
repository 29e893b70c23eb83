"""Schema fuzzing (schemathesis) of every API operation, for every role: anonymous, a player,
a referee and a league admin of the league the data belongs to. No request may get a 5xx, and
every answer must match the OpenAPI schema the API publishes (status codes it documents aside:
a 403 or 404 for a random id is an answer, not a fault).

Bounded so CI stays fast: FUZZ_EXAMPLES examples per operation and role (env, default 8)."""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from rest_framework.authtoken.models import Token

from config.wsgi import application
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)
from schemathesis.checks import not_a_server_error

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
ROLES = ("anonymous", "owner", "referee", "admin")

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


@pytest.fixture(scope="module")
def tokens(django_db_setup, django_db_blocker, tmp_path_factory):
    """One world for the module (built once, not for each of the 700 operation-role tests; each
    test's requests are rolled back with its own transaction), emptied at the end."""
    from django.core.management import call_command
    from django.test import override_settings

    from tests.security.world import world_build

    with django_db_blocker.unblock(), override_settings(PRIVATE_MEDIA_ROOT=tmp_path_factory.mktemp("private")):
        world = world_build()
        keys = {role: Token.objects.create(user=getattr(world, role)).key for role in ROLES if role != "anonymous"}
    yield keys
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """The WSGI app closes the database connection after each request (request_finished); inside
    a test transaction that would drop it, so keep it open, as Django's own test client does."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def settings_overrides(settings, tmp_path):
    settings.PRIVATE_MEDIA_ROOT = tmp_path / "private"
    settings.AXES_ENABLED = False  # fuzzed logins would otherwise lock each other out


@pytest.mark.parametrize("role", ROLES)
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_api_answers_within_its_schema(case, role, tokens, db, settings_overrides):
    headers = {"Authorization": f"Token {tokens[role]}"} if role != "anonymous" else {}
    response = case.call(headers=headers)
    case.validate_response(response, checks=[not_a_server_error, response_schema_conformance, content_type_conformance])
