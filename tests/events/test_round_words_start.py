"""Issue 50 §3: starting the next round while one is open. When every table of the open round is
recorded, the desk offers one button, "End round N and start round N+1", which does both in one
step; when not, the desk and the refusal say which tables are not recorded, by number, and
nothing changes."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from events import services
from events.models import Round
from kyoku.models import AuditLog
from league.models import Game

SCORES = [48000, 32000, 12000, 8000]


def _desk(user, event) -> str:
    c = Client()
    c.force_login(user)
    return c.get(f"/events/{event.pk}/desk/").content.decode()


def _record(event, number: int, tables) -> None:
    for game in Game.objects.filter(season=event.season, match_day=number, table__in=tables):
        services.table_result_enter(game=game, scores=SCORES, actor=event._admin)


@pytest.fixture
def round_one_open(in_play, admin):
    in_play._admin = admin
    return in_play


def _row(page: str, number: int) -> str:
    start = page.index(f'<tr data-round="{number}">')
    return page[start : page.index("</tr>", start)]


def test_with_tables_not_recorded_the_desk_names_them_and_the_start_is_refused(round_one_open, admin):
    event = round_one_open
    _record(event, 1, [1, 3])  # tables 2 and 4 still play
    row = _row(_desk(admin, event), 2)
    assert "Round 1 is still open: tables 2, 4 have no result yet." in row
    assert 'value="start"' not in row and 'value="end_and_start"' not in row
    two = Round.objects.get(event=event, number=2)
    for call in (
        lambda: services.round_end_and_start(round_=two, actor=admin),
        lambda: services.round_clock_set(round_=two, action="start", actor=admin),
    ):
        with pytest.raises(ValidationError) as exc:
            call()
        assert exc.value.messages == ["Round 1 is still open: tables 2, 4 have no result yet."]
    one, two = Round.objects.get(event=event, number=1), Round.objects.get(event=event, number=2)
    assert one.ended_at is None and two.started_at is None
    assert not AuditLog.objects.filter(action="event.round_end_and_start").exists()
    _record(event, 1, [2])
    assert "Round 1 is still open: table 4 has no result yet." in _row(_desk(admin, event), 2)


def test_every_table_recorded_one_button_ends_round_1_and_starts_round_2(round_one_open, admin):
    event = round_one_open
    _record(event, 1, [1, 2, 3, 4])
    page = _desk(admin, event)
    row = _row(page, 2)
    assert "End round 1 and start round 2" in row and 'value="end_and_start"' in row
    assert 'value="start"' not in row
    assert 'value="end_and_start"' not in _row(page, 3)  # offered on the round after the open one
    two = Round.objects.get(event=event, number=2)
    c = Client()
    c.force_login(admin)
    response = c.post(f"/events/rounds/{two.pk}/clock/", {"action": "end_and_start"})
    assert response.status_code == 302
    one, two = Round.objects.get(event=event, number=1), Round.objects.get(event=event, number=2)
    assert one.ended_at is not None and two.started_at is not None and two.ended_at is None
    assert one.ended_at == two.started_at  # one step, one moment
    audit = AuditLog.objects.get(action="event.round_end_and_start")
    assert audit.data == {"ended": 1, "started": 2}
    assert AuditLog.objects.filter(action="event.clock_end").count() == 1
    row = _row(_desk(admin, event), 3)
    assert "Round 2 is still open: tables 1, 2, 3, 4 have no result yet." in row


def test_the_same_button_on_a_round_not_seated_changes_nothing(round_one_open, admin, league):
    event = round_one_open
    _record(event, 1, [1, 2, 3, 4])
    final = Round.objects.get(event=event, stage="final")
    with pytest.raises(ValidationError) as exc:
        services.round_end_and_start(round_=final, actor=admin)
    assert exc.value.messages == ["Seat the round before starting it."]
    assert Round.objects.get(event=event, number=1).ended_at is None  # the end was undone with the start


def test_with_no_round_open_it_is_a_plain_start(running, admin):
    one = running.round_set.get(number=1)
    services.round_end_and_start(round_=one, actor=admin)
    one.refresh_from_db()
    assert one.started_at is not None
    assert AuditLog.objects.get(action="event.round_end_and_start").data == {"ended": None, "started": 1}


def test_the_words_in_japanese(round_one_open, admin):
    event = round_one_open
    _record(event, 1, [1])
    c = Client()
    c.force_login(admin)
    page = c.get(f"/events/{event.pk}/desk/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "第1回戦はまだ終わっていません：2, 3, 4卓の結果がまだありません。" in page
