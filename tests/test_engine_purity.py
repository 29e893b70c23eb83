"""The engines must not pull in Django: they are fast, pure and usable outside the web app."""

import subprocess
import sys

import pytest

ENGINE_MODULES = [
    "scoring.engine",
    "scoring.engine.riichi",
    "scoring.engine.zung_jung",
    "scoring.engine.beijing",
    "scoring.engine.replay",
    "scoring.parallel",
    "referee.engine",
    "referee.engine.false_win",
    "matchdays.seating",
    "online.tenhou",
]


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_engine_imports_without_django(module):
    code = (
        f"import sys, {module}; "
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith(('django.', 'rest_framework')));"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_engine_sources_do_not_mention_django():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    pure = [
        root / "scoring" / "engine",
        root / "referee" / "engine",
        root / "online" / "tenhou",
        root / "matchdays" / "seating",
    ]
    for path in [p for folder in pure for p in folder.rglob("*.py")]:
        text = path.read_text()
        assert "import django" not in text and "from django" not in text, path
