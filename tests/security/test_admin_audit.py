"""A change made in Django admin writes an audit row with who, when, before and after; derived
rows are read-only there; a game with a result cannot be deleted there; a season's admins read
its audit log, filterable."""

import pytest
from django.urls import reverse

from league import services
from kyoku.models import AuditLog
from league.models import Game, GameResult, Standing
from tests.actors import make_user
from kyoku.principals import SYSTEM


@pytest.fixture
def staff(db):
    return make_user("staff", is_staff=True, is_superuser=True)


@pytest.fixture
def game(division_a, players):
    return services.game_create(division=division_a, match_day=1, table=1, players=players[:4], actor=SYSTEM)


@pytest.fixture
def played(game, admin):
    services.game_result_record(game=game, scores=[48000, 35800, 21000, 15200], actor=admin)
    services.standings_recompute(division=game.division)
    return game


def _change_form(client, url):
    """The admin change form's current values, as a POST would send them back."""
    response = client.get(url)
    form = response.context["adminform"].form
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is not None:
            data[name] = value
    for formset in response.context["inline_admin_formsets"]:
        management = formset.formset.management_form
        for name in management.fields:
            data[f"{management.prefix}-{name}"] = management.initial.get(name, management[name].value())
        for i, inline_form in enumerate(formset.formset.forms):
            for name in inline_form.fields:
                value = inline_form[name].value()
                if value is not None:
                    data[f"{inline_form.prefix}-{name}"] = value
    return data


def test_changing_a_games_status_in_admin_is_audited(client, staff, game):
    client.force_login(staff)
    url = reverse("admin:league_game_change", args=[game.pk])
    data = _change_form(client, url)
    data["status"] = Game.Status.VOID
    response = client.post(url, data)
    assert response.status_code == 302, (
        [(f.formset.errors, f.formset.non_form_errors()) for f in response.context["inline_admin_formsets"]]
        if response.context
        else ""
    )
    row = AuditLog.objects.filter(action="admin.game.change").get()
    assert row.actor == staff
    assert row.data["before"]["status"] == "scheduled" and row.data["after"]["status"] == "void"
    assert "status" in row.data["changed"]
    assert row.season_id == game.season_id and row.league_id == game.season.league_id


def test_derived_rows_are_read_only_in_admin(client, staff, played):
    client.force_login(staff)
    standing = Standing.objects.first()
    result = GameResult.objects.get()
    for url in (
        reverse("admin:league_standing_change", args=[standing.pk]),
        reverse("admin:league_gameresult_change", args=[result.pk]),
    ):
        page = client.get(url)
        assert page.status_code == 200
        assert b'name="_save"' not in page.content  # view only
        client.post(url, {"total_points": "999"})
    standing.refresh_from_db()
    assert standing.total_points != 999
    assert client.get(reverse("admin:scoring_handrecord_add")).status_code == 403


def test_a_game_with_a_result_cannot_be_deleted_in_admin(client, staff, played):
    client.force_login(staff)
    response = client.post(reverse("admin:league_game_delete", args=[played.pk]), {"post": "yes"})
    assert response.status_code == 403
    assert Game.objects.filter(pk=played.pk).exists() and GameResult.objects.filter(game=played).exists()
    changelist = reverse("admin:league_game_changelist")
    client.post(changelist, {"action": "delete_selected", "_selected_action": [played.pk], "post": "yes"})
    assert Game.objects.filter(pk=played.pk).exists()


def test_deleting_a_game_without_result_is_audited(client, staff, game):
    client.force_login(staff)
    client.post(reverse("admin:league_game_delete", args=[game.pk]), {"post": "yes"})
    assert not Game.objects.filter(pk=game.pk).exists()
    row = AuditLog.objects.get(action="admin.game.delete")
    assert row.data["before"]["match_day"] == 1 and row.actor == staff


def test_the_season_audit_log_page(client, admin, other_admin_user, played):
    url = reverse("season-audit", args=[played.season_id])
    client.force_login(other_admin_user)
    assert client.get(url).status_code == 403
    client.force_login(admin)
    page = client.get(url)
    assert page.status_code == 200
    assert b"Result entered" in page.content  # game_result.create, in words
    filtered = client.get(url, {"action": "entry"})
    assert b"Result entered" not in filtered.content and b"Player entered" in filtered.content


@pytest.fixture
def other_admin_user(db):
    from kyoku.models import League, LeagueRole
    from tests.actors import make_role_user

    other = League.objects.create(name="Other", slug="other-audit")
    return make_role_user("other-audit-admin", other, LeagueRole.Role.ADMIN)
