"""``manage.py rule FILE``: seed 003's two incidents, lists, stdin and invalid records."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]
RULES = {"preset": "wrc", "reaction_time_ms": 1500}


def _run(path):
    out = io.StringIO()
    try:
        call_command("rule", str(path), stdout=out)
        code = 0
    except CommandError as exc:
        code = exc.returncode
    return json.loads(out.getvalue()), code


def test_seed_003_incidents(tmp_path, tl):
    path = tmp_path / "incidents.json"
    path.write_text(
        json.dumps(
            [
                {"rules": RULES, "dealer": 0, "events": tl.incident_1()},
                {"rules": RULES, "dealer": 0, "events": tl.incident_2()},
            ]
        )
    )
    (one, two), code = _run(path)
    assert code == 0
    # incident 1: still in DEAL, North may correct; early acts harmed nobody
    assert one["procedure_at_end"] == "DEAL" and one["play_started_t"] is None
    assert one["corrections"] == [{"seat": 3, "allowed": True, "clauses": ["1.2", "1.3"]}]
    assert one["penalties"] == []
    # incident 2: the late head-bump declaration (event 9) is invalid; West (seat 2) wins
    assert two["invalid_declarations"] == [9]
    assert two["winners"] == [2]
    assert two["procedure_at_end"] == "SETTLEMENT"
    assert any("SETTLEMENT" in line for line in two["explanation"])


def test_single_record_gives_single_ruling(tmp_path, tl):
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"rules": RULES, "dealer": 0, "events": tl.incident_1()}))
    ruling, code = _run(path)
    assert code == 0 and isinstance(ruling, dict) and ruling["corrections"][0]["allowed"] is True


def test_invalid_record_in_place_and_nonzero_exit(tmp_path, tl):
    bad = tl.incident_1()
    bad[2] = {**bad[2], "t": 500}  # earlier than events[1]
    path = tmp_path / "mixed.json"
    path.write_text(
        json.dumps(
            [{"rules": RULES, "dealer": 0, "events": tl.incident_1()}, {"rules": RULES, "dealer": 0, "events": bad}]
        )
    )
    (good, err), code = _run(path)
    assert code != 0
    assert "corrections" in good
    assert err == {"error": err["error"]} and err["error"].startswith("events[2].t: ")


def test_invalid_single_record(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"rules": {"preset": "nope"}, "dealer": 0, "events": []}))
    out, code = _run(path)
    assert code != 0 and out["error"].startswith("rules.preset: ")


def test_not_json(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    out, code = _run(path)
    assert code != 0 and out["error"].startswith("json: ")


def test_stdin_through_manage_py(tl):
    env = {**os.environ, "DEBUG": "1", "SECRET_KEY": os.environ.get("SECRET_KEY", "x" * 50)}
    record = {"rules": RULES, "dealer": 0, "events": tl.incident_2()}
    done = subprocess.run(
        [sys.executable, "manage.py", "rule", "-"],
        input=json.dumps(record),
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["invalid_declarations"] == [9]
    bad = subprocess.run(
        [sys.executable, "manage.py", "rule", "-"],
        input=json.dumps([{"dealer": 0}]),
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert bad.returncode != 0
    assert json.loads(bad.stdout) == [{"error": json.loads(bad.stdout)[0]["error"]}]
    assert json.loads(bad.stdout)[0]["error"].startswith("rules: ")


@pytest.mark.parametrize("missing", ["nope.json"])
def test_missing_file(tmp_path, missing):
    with pytest.raises(CommandError):
        call_command("rule", str(tmp_path / missing), stdout=io.StringIO())
