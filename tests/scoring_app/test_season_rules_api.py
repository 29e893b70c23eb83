"""Season rules and re-settle over the API: permissions, idempotency, errors by field."""

import pytest

from kyoku.models import AuditLog
from scoring.models import HandRecord

from .test_season_resettle import REVISED_RUNNING

RULES_URL = "/api/seasons/{}/rules/"
RESETTLE_URL = "/api/seasons/{}/resettle/"
REVISION = {"overrides": {"honba_points": 1500, "uma": [20, 10, -10, -20]}, "notes": "AGM"}


@pytest.mark.parametrize(
    "who, allowed", [("admin", True), ("referee", False), ("member", False), ("outsider", False), (None, False)]
)
def test_permission_matrix(request, as_user, finished, season, who, allowed):
    client = as_user(request.getfixturevalue(who) if who else None)
    revised = client.post(RULES_URL.format(season.pk), REVISION, format="json")
    resettled = client.post(RESETTLE_URL.format(season.pk), format="json")
    assert (revised.status_code, resettled.status_code) in ([(200, 200)] if allowed else [(401, 401), (403, 403)])
    season.refresh_from_db()
    assert season.rule_set.version == (2 if allowed else 1)


def test_revision_answers_with_the_summary_and_a_repeat_changes_nothing(as_user, finished, season, admin):
    client = as_user(admin)
    first = client.post(RULES_URL.format(season.pk), REVISION, format="json", HTTP_IDEMPOTENCY_KEY="agm-1")
    assert first.json() == {
        "rule_set": {"slug": season.rule_set.slug, "version": 2},
        "hands": 5,
        "hands_changed": 4,
        "hands_resettled": True,
        "games_finished_from_hands": 1,
        "results_changed": 1,
    }
    again = client.post(RULES_URL.format(season.pk), REVISION, format="json", HTTP_IDEMPOTENCY_KEY="agm-1")
    assert again.json() == first.json()
    season.refresh_from_db()
    assert season.rule_set.version == 2
    assert AuditLog.objects.filter(action="season.rules_revise").count() == 1
    assert [h.scores_after for h in HandRecord.objects.order_by("sequence")] == REVISED_RUNNING
    assert client.post(RESETTLE_URL.format(season.pk), format="json").json()["hands_changed"] == 0


def test_a_bad_option_is_named(as_user, finished, season, admin):
    response = as_user(admin).post(RULES_URL.format(season.pk), {"overrides": {"kiriage": "yes"}}, format="json")
    assert response.status_code == 400
    assert "overrides.kiriage" in response.json()["errors"]
    season.refresh_from_db()
    assert season.rule_set.version == 1
