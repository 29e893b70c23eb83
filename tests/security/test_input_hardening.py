"""Input that cannot poison storage or crash a request: each bad input gets a 4xx naming the
field and stores nothing; reads and backups keep working afterwards."""

import io
import json

import pytest
from django.core.management import call_command

from kyoku.models import AuditLog
from league.models import GameResult, QualificationApplication
from referee.models import Incident
from scoring.models import HandRecord
from kyoku.principals import SYSTEM

SURROGATE = '"\\udfff"'  # a lone surrogate, as a JSON escape (valid JSON, not storable text)


def _post_raw(api, url, text):
    return api.generic("POST", url, text.encode(), content_type="application/json")


@pytest.fixture
def game(division_a, players):
    from league import services

    return services.game_create(division=division_a, match_day=1, table=1, players=players[:4], actor=SYSTEM)


def _timeline(extra=""):
    return (
        '[{"t": 0, "seat": 0, "act": "discard", "settled_t": 300}, {"t": 1000, "seat": 1, "act": "draw"%s},'
        ' {"t": 2000, "seat": 1, "act": "discard", "settled_t": 2200},'
        ' {"t": 3000, "seat": 3, "act": "claim_deal_incomplete", "kind": "short"}]'
    ) % extra


def test_a_lone_surrogate_in_an_incident_is_refused_and_reads_keep_working(as_user, referee, game, api):
    body = '{"game": %d, "kind": "deal_error", "events": %s}' % (game.pk, _timeline(', "note": ' + SURROGATE))
    response = _post_raw(as_user(referee), "/api/incidents/", body)
    assert response.status_code == 400
    assert "surrogate" in response.json()["detail"]
    assert Incident.objects.count() == 0
    assert api.get("/api/incidents/").status_code == 200
    out = io.StringIO()
    call_command("dumpdata", "referee", "league", stdout=out)
    json.loads(out.getvalue())


def test_a_nul_in_a_hand_record_is_refused(as_user, admin, game):
    body = '{"record": {"result": {"type": "draw", "tenpai": [0], "nagashi": "\\u0000"}}}'
    response = _post_raw(as_user(admin), f"/api/games/{game.pk}/hands/", body)
    assert response.status_code == 400
    assert "NUL" in response.json()["detail"]
    assert HandRecord.objects.count() == 0


def test_a_lone_surrogate_in_a_hand_record_is_refused(as_user, admin, game):
    body = '{"record": {"result": {"type": "chombo", "seat": 2}, "x": %s}}' % SURROGATE
    response = _post_raw(as_user(admin), f"/api/games/{game.pk}/hands/", body)
    assert response.status_code == 400
    assert HandRecord.objects.count() == 0
    assert as_user(admin).get(f"/api/games/{game.pk}/hands/").status_code == 200


@pytest.mark.parametrize(
    "record,field",
    [
        ({"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 10**20, "fu": 30}]}}, "han"),
        ({"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 10**12, "fu": 30}]}}, "han"),
        ({"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "yakuman": 10**9}]}}, "yakuman"),
        ({"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 1e20, "fu": 30}]}}, "han"),
        ({"result": {"type": "chombo", "seat": 2}, "colour": "red"}, "colour"),
        ({"result": {"type": "chombo", "seat": 2, "favourite": 1}}, "result.favourite"),
    ],
)
def test_hand_records_out_of_range_or_with_unknown_keys_are_refused(as_user, admin, game, record, field):
    response = as_user(admin).post(f"/api/games/{game.pk}/hands/", {"record": record}, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["field"], response.json()
    assert HandRecord.objects.count() == 0


def test_the_stateless_settle_refuses_a_huge_han_without_computing_it(api):
    record = {
        "rules": "wrc",
        "dealer": 0,
        "result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 10**15, "fu": 30}]},
    }
    response = api.post("/api/settle", record, format="json")
    assert response.status_code == 400
    assert "han" in response.json()["error"]


def test_json_nested_five_thousand_deep_is_a_400(api):
    body = "[" * 5000 + "]" * 5000
    response = _post_raw(api, "/api/settle", body)
    assert response.status_code == 400
    assert "nested" in response.json()["detail"]


@pytest.mark.parametrize(
    "url",
    [
        "/api/games/?limit=47973239239910973440",
        "/api/players/?limit=abc",
        "/api/penalties/?offset=-1",
        "/api/rulings/?season=47973239239910973440",
        "/api/incidents/?game=47973239239910973440",
        "/api/games/?season=99999999999999999999",
    ],
)
def test_huge_or_malformed_query_numbers_are_a_400(as_user, referee, season, url):
    response = as_user(referee).get(url)
    assert response.status_code == 400, (url, response.status_code)


def test_a_huge_id_in_the_path_is_a_404(api):
    answer = api.get("/api/games/47973239239910973440/")
    assert answer.status_code == 404 and answer["Content-Type"] == "application/json"
    assert "Not found" in answer.json()["detail"]
    page = api.get("/games/47973239239910973440/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


def test_an_unknown_api_path_is_a_json_404(api):
    answer = api.get("/api/no-such-endpoint/")
    assert answer.status_code == 404 and answer.json()["detail"].startswith("Not found")


def test_a_non_numeric_application_id_is_a_404(as_user, admin):
    assert as_user(admin).post("/api/applications/abc/decide/", {"approve": True}, format="json").status_code == 404


@pytest.mark.parametrize(
    "scores,field",
    [
        ([1e20, 30000, 30000, -1e20], "scores"),
        ([10**20, 30000, 30000, 30000], "scores"),
        ([30050, 30000, 30000, 29950], "scores"),  # not a multiple of 100
    ],
)
def test_result_scores_out_of_range_or_off_the_unit_are_refused(as_user, admin, game, scores, field):
    response = as_user(admin).post(f"/api/games/{game.pk}/result/", {"scores": scores}, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["field"], response.json()
    assert GameResult.objects.count() == 0


def test_scores_off_the_unit_are_refused_by_the_service(admin, game):
    from django.core.exceptions import ValidationError

    from league import services

    with pytest.raises(ValidationError) as caught:
        services.game_result_record(game=game, scores=[30050, 30000, 30000, 29950], actor=admin)
    assert "scores[0]" in caught.value.message_dict


def test_forty_sticks_left_on_the_table_is_refused(as_user, admin, game):
    response = as_user(admin).post(
        f"/api/games/{game.pk}/result/", {"scores": [10000, 10000, 10000, 10000], "deposits_left": 40}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "deposits_left" and response.json()["detail"]


@pytest.fixture
def tier(league):
    from league.models import QualificationTier

    return QualificationTier.objects.create(
        league=league,
        code="1",
        description="Open",
        division_code="A",
        effective_year=2020,
        validity="yearly",
        requirements={},
    )


@pytest.mark.parametrize(
    "field,value",
    [
        ("account_id", "x" * 10_000),
        ("rating", 2**70),
        ("rating", -1),
        ("games_in_year", 10**12),
        ("rank", "r" * 100),
        ("platform", "icq"),
    ],
)
def test_application_fields_are_bounded(as_user, member, season, tier, field, value):
    response = as_user(member).post(
        "/api/applications/", {"season": season.pk, "tier": tier.pk, field: value}, format="json"
    )
    assert response.status_code == 400, response.content
    assert field in response.json()["field"], response.json()
    assert QualificationApplication.objects.count() == 0


def test_refused_writes_leave_no_audit_row(as_user, admin, game):
    before = AuditLog.objects.count()
    as_user(admin).post(f"/api/games/{game.pk}/result/", {"scores": [10**20, 0, 0, 0]}, format="json")
    assert AuditLog.objects.count() == before


def test_rule_overrides_must_be_storable(as_user, admin, season):
    body = '{"overrides": {"kiriage": true, "notes": %s}}' % SURROGATE
    response = _post_raw(as_user(admin), f"/api/seasons/{season.pk}/rules/", body)
    assert response.status_code == 400


def test_the_penalty_catalogue_must_be_storable(league):
    from django.core.exceptions import ValidationError

    from referee import services

    with pytest.raises(ValidationError):
        services.penalty_catalogue_revise(league=league, data={"version": "x\x00"}, actor=SYSTEM)


def test_a_failing_standings_refresh_never_fails_a_stored_result(
    as_user, admin, game, monkeypatch, django_capture_on_commit_callbacks
):
    from django.db import OperationalError

    from league import tasks

    def locked(*args, **kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(tasks.standings_recompute, "delay", locked)
    with django_capture_on_commit_callbacks(execute=True):
        response = as_user(admin).post(
            f"/api/games/{game.pk}/result/", {"scores": [48000, 35800, 21000, 15200]}, format="json"
        )
    assert response.status_code == 201
    assert GameResult.objects.filter(game=game).exists()
    # the standings never depended on that task: they are written in the result's transaction
    from league.models import Standing
    from league.standings import standings_rows

    stored = {s.player_id: s.total_points for s in Standing.objects.filter(division=game.division)}
    assert stored == {r["player_id"]: r["total_points"] for r in standings_rows(division=game.division)}
    assert stored[game.seats.get(seat=0).player_id] != 0


def test_unknown_keys_in_a_timeline_event_are_refused(as_user, referee, game):
    body = '{"game": %d, "kind": "deal_error", "events": %s}' % (game.pk, _timeline(', "setled_t": 1200'))
    response = _post_raw(as_user(referee), "/api/incidents/", body)
    assert response.status_code == 400
    assert response.json()["field"].startswith("events[1].setled_t") and response.json()["detail"]
    assert Incident.objects.count() == 0
