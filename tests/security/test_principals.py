"""Issue 34: every service takes an explicit actor (kyoku.principals), never None.

An audited write refuses None (a programming error) and an anonymous visitor (403); kyoku.authz
lets the system do anything and a table phone only its own table; and no service can be called
without naming its actor (no ``actor`` parameter has a default)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from types import ModuleType

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory

from kyoku import authz
from kyoku.audit import audit_log_write
from kyoku.authz import Need
from kyoku.models import AuditLog
from kyoku.principals import SYSTEM, Actor, System, TablePhone, request_user_actor
from league import services

# ---------------------------------------------------------------- (a) the audit log names its actor


def test_an_audited_write_as_none_is_a_programming_error(game):
    with pytest.raises(TypeError):
        audit_log_write(actor=None, action="test.none", obj=game)
    assert not AuditLog.objects.filter(action="test.none").exists()


def test_an_audited_write_as_an_anonymous_visitor_is_refused(game):
    with pytest.raises(PermissionDenied):
        audit_log_write(actor=AnonymousUser(), action="test.anonymous", obj=game)
    assert not AuditLog.objects.filter(action="test.anonymous").exists()


def test_a_service_called_with_none_writes_nothing(division_a, players):
    with pytest.raises(TypeError):
        services.game_create(division=division_a, match_day=9, table=1, players=players[:4], actor=None)
    assert not division_a.games.filter(match_day=9).exists()


def test_a_service_refuses_an_anonymous_visitor(game):
    with pytest.raises(PermissionDenied):
        services.game_result_record(game=game, scores=[25000, 25000, 25000, 25000], actor=AnonymousUser())
    assert not hasattr(type(game).objects.get(pk=game.pk), "result")


def test_the_system_and_a_user_are_recorded_as_themselves(game, admin):
    audit_log_write(actor=System("task:test"), action="test.system", obj=game)
    audit_log_write(actor=admin, action="test.user", obj=game)
    system_row = AuditLog.objects.get(action="test.system")
    user_row = AuditLog.objects.get(action="test.user")
    assert (system_row.actor_id, system_row.actor_label) == (None, "system: task:test")
    assert (user_row.actor_id, user_row.actor_label) == (admin.pk, "")


# ---------------------------------------------------------------- (b) what each principal may do


def test_the_system_may_do_anything(game):
    for need in Need:
        assert authz.allowed(SYSTEM, game, need), need
    assert authz.allowed(System("command:seed_demo"), game.season.league, Need.ADMIN)


def test_a_table_phone_acts_for_its_own_table_only(game, division_a, players):
    other = services.game_create(division=division_a, match_day=2, table=1, players=players[:4], actor=SYSTEM)
    phone = TablePhone(game_id=game.pk)
    assert authz.allowed(phone, game, Need.TABLE)
    assert authz.allowed(phone, game, Need.VIEW)
    for need in (Need.ADMIN, Need.REFEREE, Need.OWNER, Need.SELF):
        assert not authz.allowed(phone, game, need), need
    assert not authz.allowed(phone, other, Need.TABLE)
    assert not authz.allowed(phone, game.season, Need.ADMIN)
    with pytest.raises(PermissionDenied):
        authz.authorize(phone, game, Need.ADMIN)


def test_none_is_never_authorized(game):
    with pytest.raises(TypeError):
        authz.allowed(None, game, Need.VIEW)


def test_a_view_passes_on_only_a_signed_in_user(admin):
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    with pytest.raises(PermissionDenied):
        request_user_actor(request)
    request.user = admin
    assert request_user_actor(request) is admin


# ---------------------------------------------------------------- (c) no service without its actor

# the service modules (a package: every module in it); the events app's are converted by its owner
SERVICE_MODULES = [
    "league.services",
    "league.office",
    "scoring.services",
    "referee.services",
    "matchdays.services",
    "ratings.services",
    "online.services",
]


def _modules(name: str) -> list[ModuleType]:
    module = importlib.import_module(name)
    found = [module]
    if hasattr(module, "__path__"):  # a package: its modules too
        for info in pkgutil.iter_modules(module.__path__, prefix=f"{name}."):
            found.append(importlib.import_module(info.name))
    return found


def _is_actor(parameter: inspect.Parameter) -> bool:
    """The parameter a service takes its actor in: named ``actor``, or annotated ``Actor`` (a
    referee deciding, a reporter logging)."""
    return parameter.name == "actor" or parameter.annotation in ("Actor", Actor)


def _services_taking_an_actor() -> dict[str, inspect.Signature]:
    found = {}
    for name in SERVICE_MODULES:
        for module in _modules(name):
            for fname, function in inspect.getmembers(module, inspect.isfunction):
                if fname.startswith("_") or not function.__module__.startswith(name):
                    continue  # private helpers, and what a module imports from elsewhere
                signature = inspect.signature(function)
                if any(_is_actor(p) for p in signature.parameters.values()):
                    found[f"{function.__module__}.{fname}"] = signature
    return found


def test_no_service_can_be_called_without_its_actor():
    services_found = _services_taking_an_actor()
    # the walk finds the services (a walk that found nothing would pass for nothing)
    for expected in (
        "league.services.games.game_result_record",
        "league.office.season_close",
        "scoring.services.hands.hand_record_add",
        "referee.services.rulings.ruling_decide",
        "referee.services.incidents.incident_log",
        "matchdays.services.seating_publish",
        "ratings.services.league_ratings_rebuild",
        "online.services.game_import",
    ):
        assert expected in services_found, expected
    defaulted = sorted(
        f"{where}({p.name}={p.default!r})"
        for where, signature in services_found.items()
        for p in signature.parameters.values()
        if _is_actor(p) and p.default is not inspect.Parameter.empty
    )
    assert defaulted == [], "a service's actor has a default: " + ", ".join(defaulted)
