"""REST API: the role × endpoint permission matrix, field errors, idempotent writes."""

import pytest

from kyoku.models import AuditLog
from league.models import GameResult, QualificationTier

RESULT = {"scores": [43000, 30800, 16000, 10200], "deposits_left": 0}


@pytest.fixture
def tier(league):
    return QualificationTier.objects.create(
        league=league,
        code="1",
        description="1",
        validity="yearly",
        effective_year=2023,
        effective_number=3,
        requirements={},
    )


@pytest.fixture
def actors(admin, referee, member, outsider):
    return {"admin": admin, "referee": referee, "member": member, "outsider": outsider, "anonymous": None}


READS = [
    "/api/seasons/",
    "/api/players/",
    "/api/divisions/",
    "/api/games/",
    "/api/rulesets/",
    "/api/tiers/",
    "/api/penalties/",
    "/api/schema/",
]


@pytest.mark.parametrize("who", ["admin", "referee", "member", "outsider", "anonymous"])
def test_everyone_reads_public_endpoints(api, as_user, actors, game, who):
    client = as_user(actors[who])
    for url in READS + [
        f"/api/divisions/{game.division_id}/standings/",
        f"/api/games/{game.pk}/",
        f"/api/players/{game.seats.first().player_id}/history/",
    ]:
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize(
    "who,expected", [("admin", 201), ("referee", 403), ("member", 403), ("outsider", 403), ("anonymous", 403)]
)
def test_only_admin_records_results(api, as_user, actors, game, who, expected):
    response = as_user(actors[who]).post(f"/api/games/{game.pk}/result/", RESULT, format="json")
    assert response.status_code in ((401, 403) if expected == 403 else (expected,))
    assert GameResult.objects.exists() == (expected == 201)


@pytest.mark.parametrize("who,expected", [("admin", 200), ("referee", 403), ("member", 403), ("outsider", 403)])
def test_only_admin_decides_applications(api, as_user, actors, season, tier, players, who, expected):
    member_player = players[0]
    app = as_user(actors["member"]).post("/api/applications/", {"season": season.pk, "tier": tier.pk}, format="json")
    assert app.status_code == 201, app.json()
    assert app.json()["player"]["id"] == member_player.pk
    response = as_user(actors[who]).post(
        f"/api/applications/{app.json()['id']}/decide/", {"approve": True}, format="json"
    )
    assert response.status_code == expected


def test_applications_list_is_private(api, as_user, actors, season, tier):
    as_user(actors["member"]).post("/api/applications/", {"season": season.pk, "tier": tier.pk}, format="json")
    assert len(as_user(actors["admin"]).get("/api/applications/").json()["results"]) == 1
    assert len(as_user(actors["outsider"]).get("/api/applications/").json()["results"]) == 0
    api.force_authenticate(None)
    assert api.get("/api/applications/").status_code in (401, 403)


def test_outsider_without_player_cannot_apply(api, as_user, actors, season, tier):
    response = as_user(actors["outsider"]).post(
        "/api/applications/", {"season": season.pk, "tier": tier.pk}, format="json"
    )
    assert response.status_code == 403


def test_member_cannot_apply_for_someone_else(api, as_user, actors, season, tier, players):
    response = as_user(actors["member"]).post(
        "/api/applications/", {"season": season.pk, "tier": tier.pk, "player": players[3].pk}, format="json"
    )
    assert response.status_code == 403


def test_bad_result_names_the_field_and_stores_nothing(api, as_user, admin, game):
    response = as_user(admin).post(
        f"/api/games/{game.pk}/result/", {"scores": [43000, 30800, 16000, 10000]}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert "scores" in body["errors"] and body["field"] == "scores" and body["detail"] == body["errors"]["scores"][0]
    assert not GameResult.objects.exists()
    response = as_user(admin).post(f"/api/games/{game.pk}/result/", {"scores": [1, 2, 3]}, format="json")
    assert response.status_code == 400 and "scores" in response.json()["errors"]


def test_idempotency_key_replays_the_first_response(api, as_user, admin, game):
    client = as_user(admin)
    first = client.post(f"/api/games/{game.pk}/result/", RESULT, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    second = client.post(f"/api/games/{game.pk}/result/", RESULT, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"
    assert AuditLog.objects.filter(action="game_result.create").count() == 1


def test_idempotency_key_reused_for_another_request_is_refused(api, as_user, admin, game):
    client = as_user(admin)
    client.post(f"/api/games/{game.pk}/result/", RESULT, format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    other = {"scores": [30800, 43000, 16000, 10200], "replace": True}
    response = client.post(f"/api/games/{game.pk}/result/", other, format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    assert response.status_code == 422
    assert GameResult.objects.get().scores == RESULT["scores"]


def test_failed_request_does_not_burn_the_key(api, as_user, admin, game):
    client = as_user(admin)
    bad = client.post(
        f"/api/games/{game.pk}/result/", {"scores": [1, 1, 1, 1]}, format="json", HTTP_IDEMPOTENCY_KEY="k-3"
    )
    assert bad.status_code == 400
    good = client.post(f"/api/games/{game.pk}/result/", RESULT, format="json", HTTP_IDEMPOTENCY_KEY="k-3")
    assert good.status_code == 422 or good.status_code == 201
    # The body differs, so reusing the key is either refused or (since the failure was not stored) accepted.
    assert good.status_code == 201


def test_conflicting_result_is_409(api, as_user, admin, game):
    client = as_user(admin)
    client.post(f"/api/games/{game.pk}/result/", RESULT, format="json")
    response = client.post(f"/api/games/{game.pk}/result/", {"scores": [30800, 43000, 16000, 10200]}, format="json")
    assert response.status_code == 409


def test_token_auth(api, admin, game):
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=admin)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.post(f"/api/games/{game.pk}/result/", RESULT, format="json").status_code == 201


def test_api_docs_page(client, db):
    assert client.get("/api/docs/").status_code == 200
