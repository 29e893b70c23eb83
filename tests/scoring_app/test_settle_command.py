"""manage.py settle: the settlement contract's command-line face."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parents[2]

WRC_DOUBLE_RON = {
    "rules": "wrc",
    "dealer": 0,
    "honba": 1,
    "deposits": 1,
    "riichi": [2],
    "result": {"type": "ron", "from": 3, "winners": [{"seat": 1, "han": 3, "fu": 40}, {"seat": 2, "yakuman": 1}]},
}
MLEAGUE_END = {"rules": "mleague", "game_end": {"scores": [43000, 30800, 16000, 10200], "deposits_left": 0}}
BAD_FU = {
    "rules": "wrc",
    "dealer": 0,
    "result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 2, "fu": 35}]},
}


def run(file_arg, stdin_text=None, monkeypatch=None):
    out = io.StringIO()
    if stdin_text is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    try:
        call_command("settle", file_arg, stdout=out)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return json.loads(out.getvalue()), code


def test_one_record_from_a_file_wrc_double_ron_head_bump(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(WRC_DOUBLE_RON))
    out, code = run(str(path))
    assert code == 0
    # Head bump: seat 1 (first after the discarder) wins alone: 5,200 + 300 honba from seat 3,
    # the table's stick and seat 2's riichi stick (2,000); seat 2 only loses its riichi stick.
    assert out["deltas"] == [0, 7500, -1000, -5500]
    assert out["deposits_after"] == 0 and out["honba_next"] == 0 and out["dealer_repeats"] is False
    assert sum(out["deltas"]) == 1000 * (1 - out["deposits_after"])


def test_game_end_mleague_example_from_stdin(monkeypatch):
    out, code = run("-", json.dumps(MLEAGUE_END), monkeypatch)
    assert code == 0
    assert out["points"] == [63.0, 10.8, -24.0, -49.8]
    assert out["places"] == [1, 2, 3, 4]


def test_list_with_an_invalid_record_errors_in_place_and_exit_status_non_zero(monkeypatch):
    out, code = run("-", json.dumps([WRC_DOUBLE_RON, BAD_FU, MLEAGUE_END]), monkeypatch)
    assert code != 0
    assert len(out) == 3
    assert out[0]["deltas"] == [0, 7500, -1000, -5500]
    assert set(out[1]) == {"error"} and out[1]["error"].startswith("result.winners[0].fu:")
    assert out[2]["points"] == [63.0, 10.8, -24.0, -49.8]


def test_single_invalid_record_gives_error_object(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(BAD_FU))
    out, code = run(str(path))
    assert code != 0 and out["error"].startswith("result.winners[0].fu:")


def test_standard_riichi_figures():
    cases = [  # (record, deltas) from the contract's worked figures
        (
            {"dealer": 0, "result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 1, "fu": 30}]}},
            [0, 1000, -1000, 0],
        ),
        (
            {"dealer": 0, "result": {"type": "tsumo", "winner": {"seat": 1, "han": 1, "fu": 30}}},
            [-500, 1100, -300, -300],
        ),
        (
            {"dealer": 0, "result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 4, "fu": 30}]}},
            [0, 7700, -7700, 0],
        ),
        ({"dealer": 0, "result": {"type": "draw", "tenpai": [1]}}, [-1000, 3000, -1000, -1000]),
    ]
    out = io.StringIO()
    # the contract's figures are the arithmetic without kiriage (WRC itself rounds up: 8,000)
    records = [{"rules": {"preset": "wrc", "kiriage": False}, **r} for r, _ in cases]
    call_command("settle", _tmp_json(records), stdout=out)
    assert [o["deltas"] for o in json.loads(out.getvalue())] == [d for _, d in cases]


def _tmp_json(data):
    import tempfile

    fh = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(data, fh)
    fh.close()
    return fh.name


def test_missing_file_and_non_json_are_command_errors(tmp_path):
    with pytest.raises(CommandError):
        call_command("settle", str(tmp_path / "absent.json"))
    (tmp_path / "x.json").write_text("not json")
    with pytest.raises(CommandError):
        call_command("settle", str(tmp_path / "x.json"))


def test_real_process_stdin_and_exit_status():
    env = {**os.environ, "DEBUG": "1"}
    proc = subprocess.run(
        [sys.executable, "manage.py", "settle", "-"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        input=json.dumps([WRC_DOUBLE_RON, BAD_FU]),
        timeout=120,
    )
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out[0]["deltas"] == [0, 7500, -1000, -5500] and "error" in out[1]
    ok = subprocess.run(
        [sys.executable, "manage.py", "settle", "-"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        input=json.dumps(MLEAGUE_END),
        timeout=120,
    )
    assert ok.returncode == 0 and json.loads(ok.stdout)["points"] == [63.0, 10.8, -24.0, -49.8]
