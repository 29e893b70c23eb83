"""/leagues/<slug>/settings/: a league admin changes its names, languages, time zone and
promotion count (audited); bad input is refused naming the field; others may not."""

import pytest
from django.test import Client

from kyoku.models import AuditLog, League


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def data(**changes):
    values = {
        "name": "Renamed League",
        "name_zh": "新名聯賽",
        "languages": ["en", "ja"],
        "time_zone": "Asia/Tokyo",
        "promotion_count": "3",
    }
    values.update(changes)
    return values


def test_admin_changes_the_settings(league, admin):
    client = logged_in(admin)
    page = client.get(f"/leagues/{league.slug}/settings/")
    assert page.status_code == 200 and b"Test League" in page.content
    assert client.post(f"/leagues/{league.slug}/settings/", data()).status_code == 302
    league.refresh_from_db()
    assert (league.name, league.name_zh, league.languages, league.time_zone, league.promotion_count) == (
        "Renamed League",
        "新名聯賽",
        ["en", "ja"],
        "Asia/Tokyo",
        3,
    )
    entry = AuditLog.objects.get(action="league.settings", league_id=league.pk)
    assert entry.data["before"]["time_zone"] == "Asia/Hong_Kong" and entry.data["after"]["promotion_count"] == 3


@pytest.mark.parametrize(
    "field,value",
    [("time_zone", "Nowhere/Land"), ("languages", ["fr"]), ("promotion_count", "99"), ("name", "")],
)
def test_bad_settings_name_the_field(league, admin, field, value):
    response = logged_in(admin).post(f"/leagues/{league.slug}/settings/", data(**{field: value}))
    assert response.status_code == 400 and field in response.context["form"].errors
    assert League.objects.get(pk=league.pk).name == "Test League"
    assert not AuditLog.objects.filter(action="league.settings").exists()


def test_only_its_admins(league, referee, outsider):
    for user in (referee, outsider):
        assert logged_in(user).post(f"/leagues/{league.slug}/settings/", data()).status_code == 403
    assert League.objects.get(pk=league.pk).name == "Test League"
