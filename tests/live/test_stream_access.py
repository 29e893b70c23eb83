"""Each stream is authorised like its page, and tells its client what changed on its topics only
(through the test client, which is WSGI: a stream answers what there is and ends)."""

import json

import pytest
from django.test import Client

from events import services
from events.models import Registration
from league.models import Game
from live import board_topic
from notifications.services import notification_send
from tests.actors import make_user

from .conftest import SCORES


def _phone(event, game) -> Client:
    phone = Client()
    assert phone.post(f"/events/{event.pk}/code/", {"code": services.table_code(game)}).status_code == 302
    return phone


def _messages(response) -> list[dict]:
    body = b"".join(response.streaming_content).decode()
    found = []
    for block in body.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "data" in lines and lines.get("event", "message") == "message":
            found.append({**json.loads(lines["data"]), "id": int(lines["id"])})
    return found


def _hello_id(response) -> int:
    body = b"".join(response.streaming_content).decode()
    return int(body.split("id: ", 1)[1].split("\n", 1)[0])


@pytest.fixture
def tables(in_play):
    return list(Game.objects.filter(season=in_play.season, match_day=1).order_by("table")[:2])


def test_a_table_stream_is_its_phones_and_nobody_elses(
    in_play, tables, admin, django_capture_on_commit_callbacks, memory_broker
):
    here, there = tables
    phone = _phone(in_play, here)
    opened = phone.get(f"/live/tables/{here.pk}")
    assert opened.status_code == 200 and opened["Content-Type"].startswith("text/event-stream")
    assert opened["Cache-Control"] == "no-store" and opened["X-Accel-Buffering"] == "no"
    start = _hello_id(opened)
    # another table's phone, an anonymous visitor, the league's admin (the desk has its own stream)
    assert phone.get(f"/live/tables/{there.pk}").status_code in (403, 404)
    assert Client().get(f"/live/tables/{here.pk}").status_code in (403, 404)
    with django_capture_on_commit_callbacks(execute=True):
        r = phone.post(
            f"/api/events/tables/{here.pk}/report", {"seat": 0, "scores": SCORES}, content_type="application/json"
        )
        assert r.status_code == 201
    with django_capture_on_commit_callbacks(execute=True):
        r = phone.post(
            f"/api/events/tables/{here.pk}/confirm", {"seat": 1, "version": 1}, content_type="application/json"
        )
        assert r.status_code == 200
    got = _messages(phone.get(f"/live/tables/{here.pk}?last={start}"))
    # coalesced: the table's latest (seat 1's confirmation of version 1) and the board's latest
    assert [(m["topic"], m["kind"]) for m in got] == [
        (board_topic(in_play.pk), "board"),
        (f"table:{here.pk}", "confirm"),
    ]
    assert got[1]["version"] == 1
    in_play.refresh_from_db()
    assert {m["version"] for m in got if m["topic"] == board_topic(in_play.pk)} == {in_play.board_version}
    # the other table's phone hears nothing of this table on its own stream
    other = _phone(in_play, there)
    assert all(m["topic"] != f"table:{here.pk}" for m in _messages(other.get(f"/live/tables/{there.pk}?last={start}")))


def test_the_board_stream_is_public_and_resumes(
    in_play, tables, admin, django_capture_on_commit_callbacks, memory_broker
):
    anonymous = Client()
    start = _hello_id(anonymous.get(f"/live/events/{in_play.pk}/board"))
    with django_capture_on_commit_callbacks(execute=True):
        services.table_result_enter(game=tables[0], scores=SCORES, actor=admin)
    in_play.refresh_from_db()
    got = _messages(anonymous.get(f"/live/events/{in_play.pk}/board", HTTP_LAST_EVENT_ID=str(start)))
    assert [(m["topic"], m["version"], m["kind"]) for m in got] == [
        (board_topic(in_play.pk), in_play.board_version, "board")
    ]
    # an id the server cannot account for: resync
    got = _messages(anonymous.get(f"/live/events/{in_play.pk}/board", HTTP_LAST_EVENT_ID=str(10**15)))
    assert [m["kind"] for m in got] == ["resync"]


def test_the_desk_stream_is_the_desks(in_play, admin, member, django_capture_on_commit_callbacks, memory_broker):
    desk = Client()
    desk.force_login(admin)
    start = _hello_id(desk.get(f"/live/events/{in_play.pk}/desk"))
    reg = Registration.objects.filter(event=in_play).first()
    with django_capture_on_commit_callbacks(execute=True):
        services.checkin_set(registration=reg, present=False, actor=admin)
    got = _messages(desk.get(f"/live/events/{in_play.pk}/desk?last={start}"))
    assert [(m["topic"], m["kind"]) for m in got] == [(f"event:{in_play.pk}:desk", "checkin")]
    player = Client()
    player.force_login(member)
    assert player.get(f"/live/events/{in_play.pk}/desk").status_code == 403


def test_an_inbox_stream_hears_only_its_own_person(
    league, admin, member, django_capture_on_commit_callbacks, memory_broker
):
    other = make_user("someone-else")
    mine, theirs = Client(), Client()
    mine.force_login(member)
    theirs.force_login(other)
    start = _hello_id(mine.get("/live/inbox"))
    recipient = member
    with django_capture_on_commit_callbacks(execute=True):
        made = notification_send(kind="result_recorded", recipients=[recipient], league=league, params={}, actor=admin)
    assert made
    got = _messages(mine.get(f"/live/inbox?last={start}"))
    assert [(m["topic"], m["version"]) for m in got] == [(f"inbox:{recipient.pk}", made[0].pk)]
    assert _messages(theirs.get(f"/live/inbox?last={start}")) == []
    anonymous = Client().get("/live/inbox")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
