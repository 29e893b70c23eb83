"""A record is settled under the rules it was played under (Tenhou's), whatever the season plays;
the league keeps the hands or the result; a record that cannot be a game of the season is refused
in words (API 400 naming the field, the page, the command's exit status), never a 500."""

import io
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from league import services
from league.models import GameResult
from online.models import GameImport, OnlineAccount
from online.tenhou import parse_record
from scoring.models import HandRecord
from tests.actors import open_season
from kyoku.principals import SYSTEM

REAL = "2020052221gm-00a9-0000-6f0524c7.mjlog"  # 25,000 start, hanchan, no sticks left over
DOUBLE_RON = "double-ron.mjlog"


def season_under(league, players, preset, number):
    rules = services.rule_set_create(name=preset.upper(), slug=f"{preset}-s{number}", preset=preset, actor=SYSTEM)
    return open_season(league, rules, players[:4], number=number)


def game_in(season, players):
    return services.game_create(
        division=season.divisions.get(code="A"), match_day=1, table=1, players=players[:4], actor=SYSTEM
    )


def post(api, game, data, name, **extra):
    return api.post(
        f"/api/games/{game.pk}/import/", {"file": SimpleUploadedFile(name, data), **extra}, format="multipart"
    )


def link(players, data):
    for p, n in zip(players, parse_record(data).names):
        OnlineAccount.objects.get_or_create(player=p, account_name=n)


@pytest.fixture
def wrc_game(league, players):
    return game_in(season_under(league, players, "wrc", 2), players)


@pytest.fixture
def mleague_game(league, players):
    return game_in(season_under(league, players, "mleague", 3), players)


def test_wrc_season_refuses_a_25000_record_in_words(wrc_game, players, admin, as_user, fixture_bytes):
    data = fixture_bytes(REAL)
    link(players, data)
    r = post(as_user(admin), wrc_game, data, REAL)
    assert r.status_code == 400, r.content
    message = r.json()["errors"]["file"][0]
    assert "25,000" in message and "30,000" in message
    assert not HandRecord.objects.filter(game=wrc_game).exists() and not GameResult.objects.exists()
    assert not GameImport.objects.exists()


def test_wrc_season_page_states_why_and_never_500(wrc_game, players, admin, client, fixture_bytes):
    client.force_login(admin)
    url = reverse("online-game-import", args=[wrc_game.pk])
    r = client.post(url, {"file": SimpleUploadedFile(REAL, fixture_bytes(REAL))})
    assert r.status_code == 302
    for _ in range(2):  # the pending record is shown again on every visit, in words
        page = client.get(url)
        assert page.status_code == 200
        body = page.content.decode()
        assert "cannot be a game of this season" in body and "30,000" in body
        assert 'value="import"' not in body
    r = client.post(url, {"action": "import", "keep": "hands"})
    assert r.status_code == 200 and "30,000" in r.content.decode()
    assert not HandRecord.objects.filter(game=wrc_game).exists()


def test_import_log_command_refuses_without_a_traceback(wrc_game, players, fixture_bytes, tmp_path):
    path = tmp_path / REAL
    path.write_bytes(fixture_bytes(REAL))
    link(players, path.read_bytes())
    with pytest.raises(CommandError, match="30,000"):
        call_command("import_log", str(path), "--game", str(wrc_game.pk), stdout=io.StringIO())
    with pytest.raises(CommandError, match="no game"):
        call_command("import_log", str(path), "--game", "999999", stdout=io.StringIO())
    with pytest.raises(CommandError, match=str(tmp_path / "missing.mjlog")):
        call_command("import_log", str(tmp_path / "missing.mjlog"), stdout=io.StringIO())


def test_import_log_exit_status_one_and_no_traceback(tmp_path):
    bad = tmp_path / "not-a-record.mjlog"
    bad.write_bytes(b'<mjloggm><GO type="16\xc2\xb2"/></mjloggm>')
    proc = subprocess.run(
        [sys.executable, "manage.py", "import_log", str(bad)],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr


def test_mleague_season_keeps_the_result_scored_by_its_own_uma(mleague_game, players, admin, as_user, fixture_bytes):
    data = fixture_bytes(REAL)
    link(players, data)
    r = post(as_user(admin), mleague_game, data, REAL, keep="result")
    assert r.status_code == 201, r.json()
    result = GameResult.objects.get(game=mleague_game)
    assert result.scores == [37700, 23200, 22900, 16200]
    # M.League: return 30,000, uma 30/10/-10/-30, oka 20 to first
    assert [float(p) for p in result.points] == [57.7, 3.2, -17.1, -43.8]
    assert not HandRecord.objects.filter(game=mleague_game).exists()


def test_double_ron_cannot_keep_its_hands_under_head_bump_rules(mleague_game, players, admin, as_user, fixture_bytes):
    # M.League plays head bump (頭ハネ): the double ron pays one winner, so that hand settles
    # differently and the league can keep the result only
    data = fixture_bytes(DOUBLE_RON)
    link(players, data)
    r = post(as_user(admin), mleague_game, data, DOUBLE_RON, keep="hands")
    assert r.status_code == 400
    assert "settle differently" in r.json()["errors"]["hands"][0]
    assert not HandRecord.objects.filter(game=mleague_game).exists()
    r = post(as_user(admin), mleague_game, data, DOUBLE_RON, keep="result")
    assert r.status_code == 201, r.json()
    assert GameResult.objects.get(game=mleague_game).scores == [33400, 36000, 32000, -1400]


def test_keep_must_be_hands_or_result(mleague_game, players, admin, as_user, fixture_bytes):
    r = post(as_user(admin), mleague_game, fixture_bytes(REAL), REAL, keep="everything")
    assert r.status_code == 400 and "keep" in r.json()["errors"]
