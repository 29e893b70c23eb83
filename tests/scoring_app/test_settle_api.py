"""POST /api/settle: anyone, nothing stored, errors in place."""

from kyoku.models import AuditLog

from .test_settle_command import BAD_FU, MLEAGUE_END, WRC_DOUBLE_RON


def test_one_record_anonymous(api, db):
    response = api.post("/api/settle", WRC_DOUBLE_RON, format="json")
    assert response.status_code == 200
    assert response.json()["deltas"] == [0, 7500, -1000, -5500]
    assert not AuditLog.objects.exists()


def test_list_all_valid(api, db):
    response = api.post("/api/settle", [WRC_DOUBLE_RON, MLEAGUE_END], format="json")
    assert response.status_code == 200
    assert response.json()[1]["points"] == [63.0, 10.8, -24.0, -49.8]


def test_list_with_invalid_record_is_400_with_the_list(api, db):
    response = api.post("/api/settle", [WRC_DOUBLE_RON, BAD_FU], format="json")
    assert response.status_code == 400
    body = response.json()
    assert body[0]["deltas"] == [0, 7500, -1000, -5500]
    assert body[1]["error"].startswith("result.winners[0].fu:")


def test_single_invalid_record_is_400(api, db):
    response = api.post("/api/settle", {"rules": "nope", "result": {}}, format="json")
    assert response.status_code == 400
    assert response.json()["error"].startswith("rules.preset:")


def test_logged_in_user_needs_no_csrf_token(db, outsider):
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    client.force_login(outsider)
    assert client.post("/api/settle", MLEAGUE_END, format="json").status_code == 200


def test_documented_in_openapi_schema(api, db):
    schema = api.get("/api/schema/", {"format": "json"}).json()
    post = schema["paths"]["/api/settle"]["post"]
    assert {"200", "400"} <= set(post["responses"])
    assert "/api/games/{id}/hands/" in schema["paths"]
    assert "/api/games/{id}/hands/finish/" in schema["paths"]
