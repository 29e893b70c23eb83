"""The demo shows the office something real: an approvable pending application, decided ones,
and a closed season whose promotion page previews the moves into the next season."""

from django.db import transaction

from league import office, services
from league.models import QualificationApplication, Season
from kyoku.principals import SYSTEM


class _Rollback(Exception):
    pass


def test_demo_has_approvable_pending_and_decided_applications_and_a_promotion(demo):
    decided = set(QualificationApplication.objects.exclude(status="pending").values_list("status", flat=True))
    assert decided == {"approved", "rejected"}
    approvable = 0
    for application in QualificationApplication.objects.filter(status="pending"):
        try:
            with transaction.atomic():
                services.application_decide(application=application, approve=True, actor=SYSTEM)
                approvable += 1
                raise _Rollback
        except _Rollback:
            pass
        except Exception:  # an application the rules refuse: the demo needs at least one that passes
            continue
    assert approvable >= 1
    closed = Season.objects.get(league__slug="hkrl", status="closed", kind=Season.Kind.LEAGUE)  # the cup finished too
    rows = office.promotion_preview(season=closed)
    assert sum(r["basis"] == "promoted" for r in rows) == 2 and sum(r["basis"] == "relegated" for r in rows) == 2
    assert office.season_next_find(season=closed) is not None
