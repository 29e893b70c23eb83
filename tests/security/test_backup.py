"""A backup restores into an empty database with nothing lost (rows and private files), on
SQLite and on PostgreSQL (CI runs this file on both)."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from kyoku.backup import BACKUP_SERIALIZATION, EXCLUDED
from tests.security.world import world_build


def _everything() -> list:
    out = io.StringIO()
    call_command(
        "dumpdata",
        format=BACKUP_SERIALIZATION,
        natural_foreign=True,
        natural_primary=True,
        exclude=EXCLUDED,
        stdout=out,
    )
    return sorted(
        json.loads(out.getvalue()),
        key=lambda o: (o["model"], str(o.get("pk")), json.dumps(o["fields"], sort_keys=True)),
    )


def _files(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.django_db(transaction=True)
def test_backup_round_trips_into_an_empty_database(tmp_path, settings):
    settings.PRIVATE_MEDIA_ROOT = tmp_path / "private"
    world_build()
    before, files_before = _everything(), _files(tmp_path / "private")
    assert files_before, "the world has an evidence file"
    archive = tmp_path / "backup.zip"
    call_command("backup", str(archive), stdout=io.StringIO())

    call_command("flush", interactive=False, verbosity=0)
    for path in (tmp_path / "private").rglob("*"):
        if path.is_file():
            path.unlink()
    assert _everything() == []

    call_command("restore", str(archive), stdout=io.StringIO())
    assert _everything() == before
    assert _files(tmp_path / "private") == files_before


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_database_that_is_not_empty(tmp_path, settings):
    settings.PRIVATE_MEDIA_ROOT = tmp_path / "private"
    world_build()
    archive = tmp_path / "backup.zip"
    call_command("backup", str(archive), stdout=io.StringIO())
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(archive), stdout=io.StringIO())


@pytest.mark.django_db(transaction=True)
def test_backup_keeps_datetimes_to_the_microsecond(tmp_path, settings):
    # Django's own json format rounds to milliseconds: 20:46:31.000400 came back as 20:46:31
    import datetime

    from kyoku.models import AuditLog

    settings.PRIVATE_MEDIA_ROOT = tmp_path / "private"
    world_build()
    exact = datetime.datetime(2026, 11, 22, 20, 46, 31, 400, tzinfo=datetime.timezone.utc)
    AuditLog.objects.filter(pk=AuditLog.objects.order_by("pk").first().pk).update(at=exact)
    archive = tmp_path / "backup.zip"
    call_command("backup", str(archive), stdout=io.StringIO())
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(archive), stdout=io.StringIO())
    assert AuditLog.objects.filter(at=exact).exists()
