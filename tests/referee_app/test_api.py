"""The referee API: preview, false-win check, incidents, rulings, appeals, and who may do what."""

import json

import pytest

from league.models import Penalty
from referee import services
from referee.models import Appeal, Incident, Ruling

RULES = {"preset": "wrc", "reaction_time_ms": 1500}
ACTORS = ["admin", "referee", "member", "outsider", "anonymous"]


@pytest.fixture
def actors(admin, referee, member, outsider):
    return {"admin": admin, "referee": referee, "member": member, "outsider": outsider, "anonymous": None}


def post(api, url, data, **headers):
    return api.post(url, json.dumps(data), content_type="application/json", **headers)


def incident_payload(game, events, **kw):
    return {
        "game": game.pk,
        "hand_number": 2,
        "dealer": 0,
        "kind": "early_play",
        "events": events,
        "description": "South discarded during the deal",
        "private_notes": "SECRET-NOTE",
        **kw,
    }


# ---------------------------------------------------------------- preview and false-win check


def test_preview_one_and_many(as_user, referee, tl):
    api = as_user(referee)
    r = post(api, "/api/rulings/preview", {"rules": RULES, "dealer": 0, "events": tl.incident_1()})
    assert r.status_code == 200
    assert r.json()["corrections"] == [{"seat": 3, "allowed": True, "clauses": ["1.2", "1.3"]}]
    assert r.json()["explanation_zh"]
    r = post(
        api,
        "/api/rulings/preview/",
        [{"rules": RULES, "dealer": 0, "events": tl.incident_2()}, {"rules": RULES, "dealer": 9, "events": []}],
    )
    assert r.status_code == 200
    good, bad = r.json()
    assert good["invalid_declarations"] == [9] and bad["error"].startswith("dealer: ")
    r = post(api, "/api/rulings/preview", {"rules": RULES, "dealer": 0, "events": [{"t": "x", "seat": 0}]})
    assert r.status_code == 400 and r.json()["error"].startswith("events[0].t: ")
    assert not Ruling.objects.exists() and not Incident.objects.exists()


@pytest.mark.parametrize(
    "who,code", [("admin", 200), ("referee", 200), ("member", 403), ("outsider", 403), ("anonymous", 403)]
)
def test_preview_permissions(as_user, actors, who, code, tl):
    r = post(as_user(actors[who]), "/api/rulings/preview", {"rules": RULES, "dealer": 0, "events": tl.incident_1()})
    assert r.status_code == code


DECLARATION = {
    "seat": 1,
    "type": "ron",
    "from": 0,
    "seat_wind": "2z",
    "round_wind": "1z",
    "hand": {"concealed": "123m456p789s1122z", "melds": [], "tile": "2z"},
}


@pytest.mark.parametrize(
    "who,code", [("admin", 200), ("referee", 200), ("member", 403), ("outsider", 403), ("anonymous", 403)]
)
def test_false_win_check(as_user, actors, game, who, code):
    r = post(as_user(actors[who]), "/api/false-win/check", {"rules": "wrc", "declaration": DECLARATION})
    assert r.status_code == code
    if code == 200:
        assert r.json()["false"] is False and r.json()["reasons"] == []


def test_false_win_check_finds_a_false_win_and_uses_the_games_rules(as_user, referee, game):
    api = as_user(referee)
    incomplete = {**DECLARATION, "hand": {"concealed": "123m456p789s1123z", "melds": [], "tile": "4z"}}
    r = post(api, "/api/false-win/check", {"game": game.pk, "declaration": incomplete})
    assert r.status_code == 200, r.json()
    assert r.json()["false"] is True and r.json()["reasons"][0]["message_zh"]
    r = post(api, "/api/false-win/check", {"rules": "nope", "declaration": DECLARATION})
    assert r.status_code == 400 and "preset" in r.json()["detail"]


# ---------------------------------------------------------------- incidents


def test_create_incident_idempotent_and_validated(as_user, referee, game, tl):
    api = as_user(referee)
    bad = tl.incident_1()
    bad[1]["seat"] = 7
    r = post(api, "/api/incidents/", incident_payload(game, bad))
    assert r.status_code == 400 and r.json()["field"] == "events[1].seat" and r.json()["detail"]
    assert not Incident.objects.exists()
    payload = incident_payload(game, tl.harmful())
    r1 = post(api, "/api/incidents/", payload, HTTP_IDEMPOTENCY_KEY="inc-1")
    r2 = post(api, "/api/incidents/", payload, HTTP_IDEMPOTENCY_KEY="inc-1")
    assert r1.status_code == 201 and r2.status_code == 201 and r2["Idempotent-Replayed"] == "true"
    assert r1.json()["id"] == r2.json()["id"] and Incident.objects.count() == 1
    assert r1.json()["private_notes"] == "SECRET-NOTE"
    minimal = post(api, "/api/incidents/", {"game": game.pk, "kind": "other", "events": tl.incident_1()})
    assert minimal.status_code == 201 and minimal.json()["hand_number"] is None and minimal.json()["dealer"] == 0


@pytest.mark.parametrize(
    "who,code", [("admin", 201), ("referee", 201), ("member", 403), ("outsider", 403), ("anonymous", 403)]
)
def test_create_incident_permissions(as_user, actors, game, who, code, tl):
    r = post(as_user(actors[who]), "/api/incidents/", incident_payload(game, tl.incident_1()))
    assert r.status_code == code


def test_referee_of_another_league_cannot_log(as_user, game, tl, django_user_model):
    from kyoku.models import League, LeagueRole

    other = League.objects.create(name="Other", slug="other")
    user = django_user_model.objects.create_user("ref-other", password="x-pw-12345")
    LeagueRole.objects.create(league=other, user=user, role="referee")
    r = post(as_user(user), "/api/incidents/", incident_payload(game, tl.incident_1()))
    assert r.status_code == 403


@pytest.fixture
def logged(game, referee, tl):
    return services.incident_log(
        game=game,
        hand_number=2,
        dealer=0,
        kind="early_play",
        events=tl.harmful(),
        description="South discarded during the deal",
        private_notes="SECRET-NOTE",
        reporter=referee,
    )


@pytest.mark.parametrize(
    "who,count,private", [("admin", 1, True), ("referee", 1, True), ("member", 1, False), ("outsider", 0, False)]
)
def test_list_incidents(as_user, actors, logged, who, count, private):
    r = as_user(actors[who]).get("/api/incidents/")
    assert r.status_code == 200
    assert len(r.json()) == count
    assert ("SECRET-NOTE" in r.content.decode()) is private
    if count:
        assert ("private_notes" in r.json()[0]) is private


def test_list_incidents_anonymous_and_bystander(api, as_user, logged, bystander):
    assert api.get("/api/incidents/").status_code == 403
    r = as_user(bystander).get("/api/incidents/")
    assert r.status_code == 200 and r.json() == []
    assert as_user(bystander).get(f"/api/incidents/{logged.pk}/").status_code == 404


def test_incident_detail_for_player_has_no_private_notes(as_user, member, logged):
    r = as_user(member).get(f"/api/incidents/{logged.pk}/")
    assert r.status_code == 200 and "private_notes" not in r.json() and r.json()["events"]


# ---------------------------------------------------------------- ruling, log, appeal


def test_decide_via_api(as_user, referee, logged):
    api = as_user(referee)
    proposed = api.get(f"/api/incidents/{logged.pk}/ruling/").json()
    assert proposed["penalties"] == [{"seat": 1, "offence": "early_play_harm", "clauses": ["1.1"]}]
    r = post(api, f"/api/incidents/{logged.pk}/ruling/", {"accept": False, "override": {"penalties": []}})
    assert r.status_code == 400 and "override_reason" in r.json()["errors"]
    r = post(api, f"/api/incidents/{logged.pk}/ruling/", {"accept": True}, HTTP_IDEMPOTENCY_KEY="d-1")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["decision"] == "accepted" and body["penalties"][0]["sanction"] == "yellow_card"
    assert "SECRET-NOTE" not in r.content.decode()
    again = post(api, f"/api/incidents/{logged.pk}/ruling/", {"accept": True}, HTTP_IDEMPOTENCY_KEY="d-1")
    assert again.status_code == 201 and Ruling.objects.count() == 1 and Penalty.objects.count() == 1
    r = post(api, f"/api/incidents/{logged.pk}/ruling/", {"accept": True})
    assert r.status_code == 400 and r.json()["field"] == "status" and r.json()["detail"]


@pytest.mark.parametrize(
    "who,code", [("admin", 201), ("referee", 201), ("member", 403), ("outsider", 403), ("anonymous", 403)]
)
def test_decide_permissions(as_user, actors, logged, who, code):
    r = post(as_user(actors[who]), f"/api/incidents/{logged.pk}/ruling/", {"accept": True})
    assert r.status_code == code
    assert Ruling.objects.count() == (1 if code == 201 else 0)


@pytest.fixture
def ruled(logged, referee):
    return services.ruling_decide(incident=logged, referee=referee, accept=True)


@pytest.mark.parametrize("who", ACTORS)
def test_public_log_hides_private_notes(as_user, actors, ruled, season, who):
    r = as_user(actors[who]).get(f"/api/rulings/?season={season.pk}")
    assert r.status_code == 200
    assert [x["id"] for x in r.json()] == [ruled.pk]
    assert "SECRET-NOTE" not in r.content.decode() and "private_notes" not in r.json()[0]
    assert r.json()[0]["final"]["penalties"][0]["offence"] == "early_play_harm"
    assert as_user(actors[who]).get("/api/rulings/?season=99999").json() == []


@pytest.mark.parametrize(
    "who,code",
    [("admin", 403), ("referee", 403), ("member", 201), ("outsider", 403), ("anonymous", 403), ("bystander", 403)],
)
def test_appeal_permissions(as_user, actors, bystander, ruled, who, code):
    user = bystander if who == "bystander" else actors[who]
    r = post(as_user(user), f"/api/rulings/{ruled.pk}/appeal/", {"reason": "It was not harmful"})
    assert r.status_code == code


def test_appeal_decided_by_a_different_referee(as_user, api, referee, referee2, member, ruled):
    r = post(
        as_user(member),
        f"/api/rulings/{ruled.pk}/appeal/",
        {"reason": "North had no call"},
        HTTP_IDEMPOTENCY_KEY="ap-1",
    )
    assert r.status_code == 201
    appeal_id = r.json()["id"]
    assert Incident.objects.get().status == "appealed"
    api.force_authenticate(referee)
    r = post(api, f"/api/appeals/{appeal_id}/decide/", {"uphold": False, "reason": "mine"})
    assert r.status_code == 400 and r.json()["field"] == "referee" and r.json()["detail"]
    api.force_authenticate(member)
    assert post(api, f"/api/appeals/{appeal_id}/decide/", {"uphold": False, "reason": "x"}).status_code == 403
    api.force_authenticate(referee2)
    r = post(api, f"/api/appeals/{appeal_id}/decide/", {"uphold": False, "reason": "North had no pon to call"})
    assert r.status_code == 200 and r.json()["status"] == "reversed"
    assert not Penalty.objects.filter(cancelled_at__isnull=True).exists()
    assert Ruling.objects.filter(appeal_of_id=appeal_id).exists()
    assert Appeal.objects.get().decided_by == referee2


def test_openapi_schema_lists_referee_endpoints(api):
    r = api.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert r.status_code == 200
    text = r.content.decode()
    for path in (
        "/api/rulings/preview",
        "/api/false-win/check",
        "/api/incidents/",
        "/api/incidents/{id}/ruling/",
        "/api/rulings/",
        "/api/rulings/{id}/appeal/",
        "/api/appeals/{id}/decide/",
    ):
        assert path in text, path


@pytest.mark.parametrize(
    "lang, words",
    [("en", "The tiles are not a complete hand."), ("zh-hant", "牌張未成和牌型。"), ("ja", "和了形になっていません。")],
)
def test_false_win_reasons_in_the_readers_language(as_user, referee, game, lang, words):
    incomplete = {**DECLARATION, "hand": {"concealed": "123m456p789s1123z", "melds": [], "tile": "4z"}}
    r = post(
        as_user(referee), "/api/false-win/check", {"rules": "wrc", "declaration": incomplete}, HTTP_ACCEPT_LANGUAGE=lang
    )
    reason = r.json()["reasons"][0]
    assert reason["code"] == "incomplete" and reason["words"] == words


def test_every_false_win_reason_an_engine_can_give_has_words():
    import re
    from pathlib import Path

    from kyoku.labels import LABELS

    root = Path(__file__).resolve().parents[2] / "scoring" / "engine"
    codes = set()
    for path in ("riichi/win_check.py", "zung_jung/__init__.py", "beijing/wincheck.py"):
        text = (root / path).read_text()
        codes |= set(re.findall(r'_reason\(\s*"([a-z_]+)"', text)) | set(re.findall(r'add\("([a-z_]+)"', text))
        codes |= set(re.findall(r'^    "([a-z_]+)": \(', text, re.M))
    assert len(codes) > 20
    assert sorted(codes - set(LABELS["false_win_reason"])) == []
