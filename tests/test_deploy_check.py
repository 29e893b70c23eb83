"""With production variables set, Django's deployment checklist passes."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _environment_without(*names: str) -> dict[str, str]:
    """The test's environment less ``names``, and never a developer's ``.env``: ./scripts/serve
    writes one with DEBUG=1, which the settings would read in the subprocess."""
    env = {k: v for k, v in os.environ.items() if k not in names}
    env["KYOKU_ENV_FILE"] = os.devnull
    return env


def test_check_deploy_passes_with_production_environment(tmp_path):
    env = _environment_without("DEBUG", "DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env.update(
        {
            "SECRET_KEY": "p" * 20 + "roduction-secret-key-with-enough-entropy-3f9a8b7c6d5e4f",
            "ALLOWED_HOSTS": "league.example.org",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'prod.sqlite3'}",
        }
    )
    proc = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_production_refuses_to_start_without_secret_key():
    env = _environment_without("DEBUG", "SECRET_KEY")
    proc = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode != 0 and "SECRET_KEY" in proc.stderr
