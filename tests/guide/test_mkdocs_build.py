"""``mkdocs build --strict`` builds the guide and the reference (mkdocs.yml) with no warning: a
link to a missing page or anchor, a picture that is not there, a nav entry with no file. It
touches no database, so CI's PostgreSQL pass leaves it out (KYOKU_TESTS_SERVICES_ONLY)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mkdocs_builds_strictly(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},  # Material's notice about its successor
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    built = tmp_path / "site"
    for page in ("guide/league-admin/index.html", "guide/player/index.html", "performance/index.html"):
        assert (built / page).is_file(), f"{page} was not built"
    assert (built / "guide" / "img").is_dir()
