"""Importing a real Tenhou record into a league game: hands through the hand services, the
result and standings follow; unknown names are asked for; a disagreement stores nothing unless
an admin overrides with a reason; bad uploads are 400 naming the field."""

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from kyoku.models import AuditLog
from league.models import GameResult, Standing
from online.models import GameImport, OnlineAccount
from online.tenhou import parse_record
from scoring.models import HandRecord

DOUBLE_RON = "double-ron.mjlog"


def names_of(data):
    return parse_record(data).names


def link_all(players, names):
    for p, n in zip(players, names):
        OnlineAccount.objects.create(player=p, account_name=n)


def post(api, game, data, name=DOUBLE_RON, **extra):
    body = {"file": SimpleUploadedFile(name, data), **extra}
    return api.post(f"/api/games/{game.pk}/import/", body, format="multipart")


@pytest.mark.parametrize("name", [DOUBLE_RON, "2020052221gm-00a9-0000-6f0524c7.mjlog", "ranked_game.json"])
def test_import_reproduces_hands_and_final_scores(
    name, game, players, admin, as_user, fixture_bytes, django_capture_on_commit_callbacks
):
    data = fixture_bytes(name)
    record = parse_record(data, name)
    link_all(players, record.names)
    with django_capture_on_commit_callbacks(execute=True):
        r = post(as_user(admin), game, data, name)
    assert r.status_code == 201, r.json()
    assert r.json()["agreed"] is True
    hands = list(HandRecord.objects.filter(game=game).order_by("sequence"))
    assert [h.settlement["deltas"] for h in hands] == [h.deltas for h in record.hands]
    result = GameResult.objects.get(game=game)
    assert result.scores == record.final_scores
    # Tenhou's own points for the game, under the season's Tenhou rules.
    assert [float(s.points) for s in game.seats.order_by("seat")] == record.final_points
    assert Standing.objects.filter(season=game.season, player=players[0]).exists()
    imported = GameImport.objects.get(game=game)
    assert imported.raw.storage.exists(imported.raw.name)
    assert AuditLog.objects.filter(action="game.import", object_id=str(imported.pk)).exists()


def test_unknown_names_are_asked_then_mapped(game, players, admin, as_user, fixture_bytes):
    data = fixture_bytes(DOUBLE_RON)
    names = names_of(data)
    players[0].tenhou_id = names[0]
    players[0].save()
    r = post(as_user(admin), game, data)
    assert r.status_code == 400 and "mapping" in r.json()["errors"]
    assert names[1] in r.json()["errors"]["mapping"][0] and names[0] not in r.json()["errors"]["mapping"][0]
    assert not HandRecord.objects.filter(game=game).exists()
    mapping = json.dumps({names[i]: players[i].pk for i in (1, 2, 3)})
    r = post(as_user(admin), game, data, mapping=mapping)
    assert r.status_code == 201, r.json()
    assert OnlineAccount.objects.get(account_name=names[2]).player == players[2]
    assert AuditLog.objects.filter(action="online_account.link").count() == 3


def test_seat_order_must_match_the_game(game, players, admin, as_user, fixture_bytes):
    data = fixture_bytes(DOUBLE_RON)
    link_all([players[1], players[0], players[2], players[3]], names_of(data))
    r = post(as_user(admin), game, data)
    assert r.status_code == 400 and "mapping" in r.json()["errors"]
    assert not HandRecord.objects.filter(game=game).exists()


def tampered(data):
    # The first hand's winner is paid 100 more than its value: the record no longer adds up.
    return data.replace(b'sc="250,-20,240,30,250,0,250,0"', b'sc="250,-21,240,31,250,0,250,0"')


def test_disagreement_shows_the_hand_and_stores_nothing(game, players, admin, as_user, fixture_bytes):
    data = tampered(fixture_bytes("2020052221gm-00a9-0000-6f0524c7.mjlog"))
    link_all(players, names_of(data))
    r = post(as_user(admin), game, data, "2020052221gm-00a9-0000-6f0524c7.mjlog")
    assert r.status_code == 400
    body = r.json()
    assert "hands" in body["errors"] and "East 1, 0 honba" in body["errors"]["hands"][0]
    bad = [h for h in body["check"]["hands"] if not h["ok"]]
    assert [h["index"] for h in bad] == [0]
    # seat 1 declared riichi: its 1,000 stick is in both figures
    assert bad[0]["expected"] == [-2100, 2100, 0, 0] and bad[0]["engine"] == [-2000, 2000, 0, 0]
    assert not HandRecord.objects.filter(game=game).exists() and not GameImport.objects.exists()


def test_admin_override_with_reason_is_audited(game, players, admin, as_user, fixture_bytes):
    data = tampered(fixture_bytes("2020052221gm-00a9-0000-6f0524c7.mjlog"))
    link_all(players, names_of(data))
    r = post(
        as_user(admin),
        game,
        data,
        "2020052221gm-00a9-0000-6f0524c7.mjlog",
        override_reason="Tenhou paid a 100-point correction by hand",
    )
    assert r.status_code == 201 and r.json()["agreed"] is False
    entry = AuditLog.objects.get(action="game.import_override")
    assert entry.data["reason"] == "Tenhou paid a 100-point correction by hand"
    assert HandRecord.objects.filter(game=game).count() == 12


def test_players_and_referees_cannot_import(game, players, member, referee, as_user, fixture_bytes):
    data = fixture_bytes(DOUBLE_RON)
    link_all(players, names_of(data))
    assert post(as_user(member), game, data).status_code == 403
    assert post(as_user(referee), game, data).status_code == 403
    assert not HandRecord.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    "content,field",
    [
        (b"just some text", "file"),
        (b'{"title": 1}', "file"),
        (b"\x89PNG\r\n\x1a\n0000", "file"),
        (b'<mjloggm><GO type="185"/><UN n0="a" n1="b" n2="c" n3=""/><INIT/></mjloggm>', "file"),
        (b"<" + b" " * 2_100_000 + b">", "file"),
    ],
)
def test_bad_uploads_are_400_naming_the_field(content, field, game, admin, as_user):
    r = post(as_user(admin), game, content, "x.mjlog")
    assert r.status_code == 400, r.content
    assert field in r.json()["errors"]
    assert not GameImport.objects.exists()


def test_three_player_message_is_clear(game, admin, as_user):
    r = post(as_user(admin), game, b'<mjloggm><GO type="185"/><UN n0="a" n1="b" n2="c" n3=""/></mjloggm>')
    assert "Three-player" in r.json()["errors"]["file"][0]


@pytest.mark.parametrize("mapping", ['{"a": 99999999999}', '{"a": "x"}', "[1]", '{"\\udfff": 1}', "nope"])
def test_bad_mapping_is_400(mapping, game, admin, as_user, fixture_bytes):
    r = post(as_user(admin), game, fixture_bytes(DOUBLE_RON), mapping=mapping)
    assert r.status_code == 400 and "mapping" in r.json()["errors"]


def test_import_log_command(game, players, fixture_bytes, tmp_path):
    path = tmp_path / DOUBLE_RON
    path.write_bytes(fixture_bytes(DOUBLE_RON))
    link_all(players, names_of(path.read_bytes()))
    out = io.StringIO()
    call_command("import_log", str(path), "--game", str(game.pk), stdout=out)
    assert "4 hands" in out.getvalue()
    assert GameResult.objects.get(game=game).scores == [33400, 36000, 32000, -1400]


def test_import_log_command_checks_without_a_game(fixture_bytes, tmp_path, db):
    path = tmp_path / "suukantsu_1.json"
    path.write_bytes(fixture_bytes("suukantsu_1.json"))
    out = io.StringIO()
    call_command("import_log", str(path), stdout=out)
    assert "agrees" in out.getvalue() and "2 hands" in out.getvalue()
