"""A tournament table keeps its own hands on the scorekeeper: the players seated there (logged
in) or the table's phone (with the code from its sign) enter and correct hands; finishing turns
the hands' final scores into the table's report, which the other seats confirm."""

from django.test import Client

from events import services
from events.models import TableReport
from kyoku.principals import TablePhone
from league.models import Game, GameResult
from scoring.models import HandRecord

RON = {"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 3, "fu": 30}]}}
DRAW = {"result": {"type": "draw", "tenpai": [0]}}


def _phone(event, game):
    phone = Client()
    phone.post(f"/events/{event.pk}/code/", {"code": services.table_code(game)})
    return phone


def test_the_tables_phone_keeps_the_hands_and_finishing_asks_the_others_to_confirm(in_play):
    running = in_play
    game = Game.objects.get(season=running.season, match_day=1, table=1)
    phone = _phone(running, game)
    page = phone.get(f"/events/tables/{game.pk}/scorekeeper/")
    assert page.status_code == 200
    body = page.content.decode()
    assert f'data-save-url="/api/events/tables/{game.pk}/hands/"' in body and 'id="sk-undo"' not in body
    r = phone.post(f"/api/events/tables/{game.pk}/hands/", {"record": RON}, content_type="application/json")
    assert r.status_code == 201, r.content
    preview = phone.post(
        f"/api/events/tables/{game.pk}/hands/preview/", {"record": DRAW}, content_type="application/json"
    )
    assert preview.status_code == 200 and preview.json()["sequence"] == 2
    assert (
        phone.put(
            f"/api/events/tables/{game.pk}/hands/1/",
            {"record": {**RON, "riichi": [1]}},
            content_type="application/json",
        ).status_code
        == 200
    )
    finished = phone.post(f"/api/events/tables/{game.pk}/hands/finish/", {}, content_type="application/json")
    assert finished.status_code == 201, finished.content
    report = TableReport.objects.get(game=game)
    hand = HandRecord.objects.get(game=game, sequence=1)
    assert report.status == "pending" and report.scores == hand.scores_after
    assert not GameResult.objects.filter(game=game).exists()  # the others still confirm
    for seat in (1, 2, 3):
        services.table_report_confirm(game=game, seat=seat, version=report.version, actor=TablePhone(game_id=game.pk))
    assert GameResult.objects.get(game=game).scores == hand.scores_after


def test_a_seated_player_keeps_the_hands_and_a_stranger_cannot(in_play, field):
    running = in_play
    from league.models import GameSeat

    seat = (
        GameSeat.objects.filter(game__season=running.season, game__match_day=1, player__in=field[:4])
        .select_related("game")
        .first()
    )
    game = seat.game
    player = Client()
    player.force_login(seat.player.user)
    assert (
        player.post(
            f"/api/events/tables/{game.pk}/hands/", {"record": RON}, content_type="application/json"
        ).status_code
        == 201
    )
    assert HandRecord.objects.get(game=game).entered_by == seat.player.user
    stranger_seat = (
        GameSeat.objects.filter(game__season=running.season, game__match_day=1, player__in=field[:4])
        .exclude(game=game)
        .first()
    )
    if stranger_seat is not None:
        stranger = Client()
        stranger.force_login(stranger_seat.player.user)
        refused = stranger.post(
            f"/api/events/tables/{game.pk}/hands/", {"record": DRAW}, content_type="application/json"
        )
        assert refused.status_code == 403
        assert stranger.get(f"/events/tables/{game.pk}/scorekeeper/").status_code == 302
    anonymous = Client()
    assert anonymous.post(
        f"/api/events/tables/{game.pk}/hands/", {"record": DRAW}, content_type="application/json"
    ).status_code in (401, 403)
    assert HandRecord.objects.filter(game=game).count() == 1


def test_a_confirmed_table_takes_no_more_hands(in_play, admin):
    running = in_play
    game = Game.objects.get(season=running.season, match_day=1, table=2)
    services.table_result_enter(game=game, scores=[48000, 32000, 12000, 8000], actor=admin)
    phone = _phone(running, game)
    r = phone.post(f"/api/events/tables/{game.pk}/hands/", {"record": RON}, content_type="application/json")
    assert r.status_code == 409 and r.json()["codes"]["game"] == ["result_recorded"]
