"""Issue 34, tried as an attacker and a careless phone would on the tournament floor: what four
players agreed is exactly what is recorded, through the HTTP surface the phones use."""

import pytest
from django.test import Client

from events import services
from events.models import TableReport
from kyoku.desk import desk_calls
from kyoku.models import IdempotencyKey
from league.models import Game, GameResult

from .conftest import SCORES

OTHER = [40000, 40000, 12000, 8000]


def _phone(event, game) -> Client:
    phone = Client()
    assert phone.post(f"/events/{event.pk}/code/", {"code": services.table_code(game)}).status_code == 302
    return phone


def _api(client, game, action, body, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"/api/events/tables/{game.pk}/{action}", body, content_type="application/json", **headers)


@pytest.fixture
def table(in_play):
    return Game.objects.get(season=in_play.season, match_day=1, table=1)


def test_reporting_again_does_not_erase_a_dispute(in_play, table, referee):
    """Item 2: seat 0 reports, seat 1 disputes, seat 0 posts the same report again: the dispute and
    the referee's call stay, and confirming is refused until the desk decides."""
    phone = _phone(in_play, table)
    assert _api(phone, table, "report", {"seat": 0, "scores": SCORES}).status_code == 201
    assert _api(phone, table, "dispute", {"seat": 1, "note": "East's tsumo was 2,000 all"}).status_code == 200
    assert len(desk_calls(referee)) == 1
    again = _api(phone, table, "report", {"seat": 0, "scores": SCORES})
    assert again.status_code == 200 and again.json()["status"] == "disputed"
    assert len(desk_calls(referee)) == 1
    for seat in (1, 2, 3):
        refused = _api(phone, table, "confirm", {"seat": seat, "version": 1})
        assert refused.status_code == 409 and refused.json()["codes"]["report"] == ["report_disputed"]
    assert not GameResult.objects.filter(game=table).exists()


def test_a_different_second_report_is_a_dispute_and_keeps_both_versions(in_play, table, referee):
    """Item 3: seat 0 reports X, seat 1 confirms, seat 1 reports Y: X and its confirmations stay,
    Y is version 2, the table is disputed and a referee is called."""
    phone = _phone(in_play, table)
    _api(phone, table, "report", {"seat": 0, "scores": SCORES})
    _api(phone, table, "confirm", {"seat": 1, "version": 1})
    second = _api(phone, table, "report", {"seat": 1, "scores": OTHER})
    assert second.status_code == 201
    assert second.json()["status"] == "disputed" and second.json()["version"] == 2
    report = TableReport.objects.get(game=table)
    assert [(v.number, v.scores, v.confirmed_seats) for v in report.versions.all()] == [
        (1, SCORES, [0, 1]),
        (2, OTHER, [1]),
    ]
    assert len(desk_calls(referee)) == 1
    # the desk records the version the table agrees on after talking to it
    desk = Client()
    desk.force_login(referee)
    assert desk.post(f"/events/tables/{table.pk}/", {"action": "resolve", "version": "1"}).status_code == 302
    assert GameResult.objects.get(game=table).scores == SCORES
    report.refresh_from_db()
    assert report.status == "resolved" and report.versions.count() == 2 and report.disputed_seat == 1
    assert desk_calls(referee) == []


def test_a_stale_confirmation_is_refused_with_words(in_play, table):
    phone = _phone(in_play, table)
    _api(phone, table, "report", {"seat": 0, "scores": SCORES})
    stale = _api(phone, table, "confirm", {"seat": 2, "version": 7})
    assert stale.status_code == 409 and stale.json()["codes"]["version"] == ["report_stale"]
    assert "version 1" in stale.json()["errors"]["version"][0]
    missing = _api(phone, table, "confirm", {"seat": 2})
    assert missing.status_code == 400 and "version" in missing.json()["errors"]
    assert TableReport.objects.get(game=table).confirmed_seats == [0]


def test_a_phones_resend_keeps_the_confirmations(in_play, table):
    """Item 4: the outbox resends the report with the same key after two seats confirmed: the stored
    answer comes back marked as a replay and nothing changes; the same key with other scores is 422."""
    phone = _phone(in_play, table)
    first = _api(phone, table, "report", {"seat": 0, "scores": SCORES}, key="outbox-1")
    assert first.status_code == 201
    _api(phone, table, "confirm", {"seat": 1, "version": 1}, key="outbox-2")
    _api(phone, table, "confirm", {"seat": 2, "version": 1}, key="outbox-3")
    resend = _api(phone, table, "report", {"seat": 0, "scores": SCORES}, key="outbox-1")
    assert resend.status_code == 201 and resend["Idempotent-Replayed"] == "true"
    assert TableReport.objects.get(game=table).confirmed_seats == [0, 1, 2]
    other = _api(phone, table, "report", {"seat": 0, "scores": OTHER}, key="outbox-1")
    assert other.status_code == 422
    report = TableReport.objects.get(game=table)
    assert report.scores == SCORES and report.versions.count() == 1 and report.status == "pending"
    # the key belongs to this table's phones, not to a login it does not have
    assert IdempotencyKey.objects.get(key="outbox-1").scope == f"table:{table.pk}"


def test_keys_are_scoped_to_their_principal(in_play, table):
    """Another table's phone using the same key gets its own answer, not this table's replay."""
    neighbour = Game.objects.get(season=in_play.season, match_day=1, table=2)
    a, b = _phone(in_play, table), _phone(in_play, neighbour)
    assert _api(a, table, "report", {"seat": 0, "scores": SCORES}, key="same-key").status_code == 201
    other = _api(b, neighbour, "report", {"seat": 0, "scores": OTHER}, key="same-key")
    assert other.status_code == 201 and "Idempotent-Replayed" not in other
    assert TableReport.objects.get(game=neighbour).scores == OTHER


def test_a_round_that_has_not_started_takes_no_report(running, admin):
    """Item 5: round 2 is seated and its signs printed, but its clock has not started."""
    services.round_clock_set(round_=running.round_set.get(number=1), action="start", actor=admin)
    later = Game.objects.filter(season=running.season, match_day=2).first()
    api = Client()
    code = services.table_code(later)
    response = _api(api, later, "report", {"seat": 0, "scores": SCORES, "code": code})
    assert response.status_code == 400 and response.json()["codes"]["game"] == ["round_not_started"]
    assert not TableReport.objects.filter(game=later).exists()
    hands = api.post(
        f"/api/events/tables/{later.pk}/hands/",
        {"record": {"result": {"type": "draw", "tenpai": [0]}}, "code": code},
        content_type="application/json",
    )
    assert hands.status_code == 400 and hands.json()["codes"]["game"] == ["round_not_started"]


def test_once_the_next_round_starts_a_late_report_is_the_desks(in_play, admin, referee):
    game = Game.objects.get(season=in_play.season, match_day=1, table=2)
    r1, r2 = in_play.round_set.get(number=1), in_play.round_set.get(number=2)
    for other in Game.objects.filter(season=in_play.season, match_day=1).exclude(pk=game.pk):
        services.table_result_enter(game=other, scores=SCORES, actor=admin)
    services.round_clock_set(round_=r1, action="end", actor=admin)
    services.round_clock_set(round_=r2, action="start", actor=admin)
    late = _api(Client(), game, "report", {"seat": 0, "scores": SCORES, "code": services.table_code(game)})
    assert late.status_code == 400 and late.json()["codes"]["game"] == ["round_closed"]
    services.table_result_enter(game=game, scores=SCORES, actor=referee)
    assert GameResult.objects.get(game=game).scores == SCORES


@pytest.mark.parametrize("code", ["桌子碼一二三", "ÀBCDEF", "\u200bABCDE", "A" * 300, "０１２３４５"])
def test_a_code_in_another_script_is_no_code(in_play, table, code):
    """Item 6: not a 500 on the API (report and confirm) nor on the code page."""
    api = Client()
    for action, body in (
        ("report", {"seat": 0, "scores": SCORES, "code": code}),
        ("confirm", {"seat": 0, "version": 1, "code": code}),
    ):
        response = _api(api, table, action, body)
        assert response.status_code in (400, 401, 403), (action, response.status_code)
    page = Client().post(f"/events/{in_play.pk}/code/", {"code": code})
    assert page.status_code == 400
    assert not TableReport.objects.filter(game=table).exists()


def test_table_codes_cannot_be_guessed_without_limit(in_play, table, settings, monkeypatch):
    """Item 7: wrong codes are counted per client; past the limit even the right code is refused
    with 429, a Retry-After and words in the page's language."""
    import time

    from events.services import code_guesses

    # the guesser's waits (2, 4, 8 s …) on a clock that stands still: on a busy machine forty
    # posts took longer than the first wait, and the right code after them was let through
    frozen = time.time()
    monkeypatch.setattr(code_guesses, "_now", lambda: frozen)
    statuses = [
        Client(HTTP_ACCEPT_LANGUAGE="zh-hant")
        .post(f"/events/{in_play.pk}/code/", {"code": f"ZZZZ{i:02d}"}, REMOTE_ADDR="203.0.113.5")
        .status_code
        for i in range(40)
    ]
    assert statuses[0] == 400 and statuses[-1] == 429
    refused = Client(HTTP_ACCEPT_LANGUAGE="zh-hant").post(
        f"/events/{in_play.pk}/code/", {"code": services.table_code(table)}, REMOTE_ADDR="203.0.113.5"
    )
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    body = refused.content.decode()
    assert "Too many requests" not in body and ("分鐘" in body or "秒" in body)
    # another client is not locked out by a stranger's guesses
    other = Client().post(
        f"/events/{in_play.pk}/code/", {"code": services.table_code(table)}, REMOTE_ADDR="198.51.100.7"
    )
    assert other.status_code == 302


def test_wrong_codes_in_the_api_body_are_counted_too(in_play, table):
    api = Client()
    answers = [
        _api(api, table, "report", {"seat": 0, "scores": SCORES, "code": f"QQQQ{i:02d}"}, key=None).status_code
        for i in range(40)
    ]
    assert answers[-1] == 429


@pytest.mark.parametrize("team", ["Wan\u202eChai", "Kow\u200bloon", "Sha\x07Tin"])
def test_team_names_with_invisible_or_control_characters_are_refused(event, field, admin, team):
    """Item 10: a bidi override, a zero-width character or a control character in a team name is
    refused naming the field; nothing is stored."""
    from django.core.exceptions import ValidationError

    from events.models import Registration

    with pytest.raises(ValidationError) as err:
        services.registration_add(event=event, player=field[0], team=team, actor=admin)
    assert "team" in err.value.message_dict
    assert not Registration.objects.filter(event=event).exists()


def test_team_names_are_stored_in_their_normal_form(event, field, admin):
    import unicodedata

    decomposed = unicodedata.normalize("NFD", "Café  Tiles")
    reg = services.registration_add(event=event, player=field[0], team=decomposed, actor=admin)
    assert reg.team == "Café Tiles"


def test_the_director_settles_a_disputed_table_from_the_desk(in_play, table, league):
    """The desk lists a disputed table and links to it; the event's director (not a referee) may
    record a version there, as the referees and the league's admins may. A player may not."""
    from kyoku.models import LeagueRole
    from tests.actors import make_role_user

    director = make_role_user("director", league, LeagueRole.Role.DIRECTOR)
    phone = _phone(in_play, table)
    _api(phone, table, "report", {"seat": 0, "scores": SCORES})
    _api(phone, table, "report", {"seat": 1, "scores": OTHER})
    desk = Client()
    desk.force_login(director)
    page = desk.get(f"/events/{in_play.pk}/desk/").content.decode()
    assert f'href="/events/tables/{table.pk}/"' in page
    assert 'value="resolve"' in desk.get(f"/events/tables/{table.pk}/").content.decode()
    assert phone.post(f"/events/tables/{table.pk}/", {"action": "resolve", "version": "2"}).status_code == 403
    assert desk.post(f"/events/tables/{table.pk}/", {"action": "resolve", "version": "2"}).status_code == 302
    assert GameResult.objects.get(game=table).scores == OTHER
    assert TableReport.objects.get(game=table).status == "resolved"
