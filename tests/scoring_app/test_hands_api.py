"""Hand-by-hand API: permissions, idempotency, errors by field."""

import pytest

from kyoku.models import AuditLog
from league.models import GameResult
from scoring.models import HandRecord

from .test_hands_riichi import DELTAS, HANDS, RUNNING

HANDS_URL = "/api/games/{}/hands/"


def post_hand(client, game, record, sequence=None, key=None):
    body = {"record": record} if sequence is None else {"record": record, "sequence": sequence}
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(HANDS_URL.format(game.pk), body, format="json", **headers)


@pytest.mark.parametrize(
    "who, allowed", [("admin", True), ("referee", False), ("member", False), ("outsider", False), (None, False)]
)
def test_permission_matrix(request, as_user, game, admin, who, allowed):
    client = as_user(request.getfixturevalue(who) if who else None)
    expected = (201, 200) if allowed else (401, 403)
    assert post_hand(client, game, HANDS[0]).status_code in expected
    hand_url = HANDS_URL.format(game.pk)
    assert client.post(hand_url + "preview/", {"record": HANDS[0]}, format="json").status_code in (
        (200,) if allowed else (401, 403)
    )
    assert client.put(hand_url + "1/", {"record": HANDS[0]}, format="json").status_code in (
        (200,) if allowed else (401, 403, 404)
    )
    assert client.post(hand_url + "finish/", {}, format="json").status_code in ((201,) if allowed else (401, 403))
    assert HandRecord.objects.count() == (1 if allowed else 0)
    assert client.get(hand_url).status_code == 200  # reading is public


def test_admin_of_another_league_is_refused(as_user, game, django_user_model):
    from kyoku.models import League, LeagueRole

    other = League.objects.create(name="Other", slug="other")
    user = django_user_model.objects.create_user("other-admin", password="x-pw-12345")
    LeagueRole.objects.create(league=other, user=user, role=LeagueRole.Role.ADMIN)
    assert post_hand(as_user(user), game, HANDS[0]).status_code == 403


def test_enter_list_preview_and_finish(as_user, game, admin):
    client = as_user(admin)
    preview = client.post(HANDS_URL.format(game.pk) + "preview/", {"record": HANDS[0]}, format="json")
    assert preview.status_code == 200 and preview.json()["scores_after"] == RUNNING[0]
    for i, record in enumerate(HANDS, start=1):
        response = post_hand(client, game, record, sequence=i, key=f"hand-{i}")
        assert response.status_code == 201, response.json()
        assert response.json()["hand"]["settlement"]["deltas"] == DELTAS[i - 1]
    body = client.get(HANDS_URL.format(game.pk)).json()
    assert [h["scores_after"] for h in body["hands"]] == RUNNING
    assert body["position"]["next_sequence"] == 6 and body["position"]["state"] == {
        "dealer": 3,
        "honba": 1,
        "deposits": 1,
    }
    finish = client.post(HANDS_URL.format(game.pk) + "finish/", {}, format="json", HTTP_IDEMPOTENCY_KEY="fin")
    assert finish.status_code == 201
    assert finish.json()["points"] == [-16.2, 7.8, -41.6, 50.0]
    again = client.post(HANDS_URL.format(game.pk) + "finish/", {}, format="json", HTTP_IDEMPOTENCY_KEY="fin")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"


def test_same_idempotency_key_twice_stores_one_hand(as_user, game, admin):
    client = as_user(admin)
    first = post_hand(client, game, HANDS[0], key="tap-1")
    second = post_hand(client, game, HANDS[0], key="tap-1")
    assert first.status_code == second.status_code == 201
    assert second["Idempotent-Replayed"] == "true"
    assert HandRecord.objects.count() == 1
    assert AuditLog.objects.filter(action="hand.add").count() == 1


def test_same_record_twice_without_key_stores_one_hand(as_user, game, admin):
    client = as_user(admin)
    assert post_hand(client, game, HANDS[0], sequence=1).status_code == 201
    assert post_hand(client, game, HANDS[0], sequence=1).status_code == 200
    assert HandRecord.objects.count() == 1
    conflict = post_hand(client, game, HANDS[1], sequence=1)
    assert conflict.status_code == 409 and "sequence" in conflict.json()["errors"]


def test_bad_record_is_400_naming_the_field_and_nothing_is_stored(as_user, game, admin):
    client = as_user(admin)
    bad = {"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 2, "fu": 35}]}}
    response = post_hand(client, game, bad, key="bad")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["result.winners[0].fu"]
    assert response.json()["field"] == "result.winners[0].fu" and response.json()["detail"]
    assert not HandRecord.objects.exists() and not AuditLog.objects.filter(action="hand.add").exists()
    # the key was not spent on the failure: the corrected record may reuse it
    assert post_hand(client, game, HANDS[0], key="bad").status_code == 201


def test_wrong_honba_is_400_naming_honba(as_user, game, admin):
    client = as_user(admin)
    post_hand(client, game, HANDS[0])
    response = post_hand(client, game, {**HANDS[1], "honba": 0})
    assert response.status_code == 400 and list(response.json()["errors"]) == ["honba"]


def test_correction_through_put(as_user, game, admin):
    client = as_user(admin)
    for record in HANDS:
        post_hand(client, game, record)
    response = client.put(
        HANDS_URL.format(game.pk) + "2/",
        {"record": {"result": {"type": "ron", "from": 2, "winners": [{"seat": 3, "han": 4, "fu": 30}]}}},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["position"]["scores"] == [23800, 27800, 14300, 33100]  # kiriage: 8,000
    assert client.put(HANDS_URL.format(game.pk) + "9/", {"record": HANDS[0]}, format="json").status_code == 404


def test_finish_without_hands_is_400(as_user, game, admin):
    response = as_user(admin).post(HANDS_URL.format(game.pk) + "finish/", {}, format="json")
    assert response.status_code == 400 and "hands" in response.json()["errors"]
    assert not GameResult.objects.exists()
