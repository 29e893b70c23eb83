"""Backup that round-trips: every row of the league data (users and roles included) and every
private evidence file, in one zip; restored into an empty database with nothing lost.

The rows are Django's own serialization (``dumpdata`` with natural keys, so users and content
types map by name, not by id), so any database Django supports can restore a backup taken on
another (SQLite ↔ PostgreSQL). What is derived is included too (standings, settlements), so a
restore needs no recompute; a recompute afterwards gives the same figures.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import IO, Any

from django.apps import apps
from django.conf import settings
from django.core import management
from django.db import transaction

# Not data: rebuilt by Django or meaningful only on the machine that wrote them.
EXCLUDED = ["contenttypes", "auth.permission", "sessions", "admin.logentry", "axes"]
DATA_NAME = "data.json"
FILES_PREFIX = "private/"
FORMAT = "kyoku-backup-1"
# full-precision datetimes (kyoku/exact_json.py); read back by Django's plain json loader
BACKUP_SERIALIZATION = "exact_json"


def backup_write(target: str | Path | IO[bytes]) -> dict[str, Any]:
    """Write the backup zip to ``target`` (path or binary file). Returns counts."""
    data = io.StringIO()
    management.call_command(
        "dumpdata",
        format=BACKUP_SERIALIZATION,
        natural_foreign=True,
        natural_primary=True,
        exclude=EXCLUDED,
        stdout=data,
        indent=None,
    )
    root = Path(settings.PRIVATE_MEDIA_ROOT)
    files = sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("FORMAT", FORMAT)
        archive.writestr(DATA_NAME, data.getvalue())
        for path in files:
            archive.write(path, FILES_PREFIX + path.relative_to(root).as_posix())
    return {"objects": len(json.loads(data.getvalue())), "files": len(files)}


# Models that changed owner since backups began (league → kyoku, same tables): a backup written
# before the move names them by their old label.
MOVED_MODELS = {
    "league.league": "kyoku.league",
    "league.leaguerole": "kyoku.leaguerole",
    "league.auditlog": "kyoku.auditlog",
    "league.idempotencykey": "kyoku.idempotencykey",
}


def _relabelled(data: bytes) -> bytes:
    rows = json.loads(data)
    if not any(row.get("model") in MOVED_MODELS for row in rows):
        return data
    for row in rows:
        row["model"] = MOVED_MODELS.get(row.get("model"), row.get("model"))
    return json.dumps(rows).encode()


def _database_is_empty() -> bool:
    # any row of any app but the framework's bookkeeping (content types, permissions, sessions,
    # login attempts) means a restore would merge
    bookkeeping = {"contenttypes", "sessions", "axes", "admin"}
    for model in apps.get_models():
        if model._meta.app_label in bookkeeping or model._meta.label_lower == "auth.permission":
            continue
        if model._default_manager.exists():
            return False
    return True


def backup_restore(source: str | Path | IO[bytes]) -> dict[str, Any]:
    """Load a backup zip into an empty database (refused otherwise: a restore never merges)."""
    if not _database_is_empty():
        raise ValueError("the database is not empty: restore into a freshly migrated database")
    with zipfile.ZipFile(source) as archive:
        if archive.read("FORMAT").decode() != FORMAT:
            raise ValueError("not a Kyoku backup")
        data = _relabelled(archive.read(DATA_NAME))
        members = [m for m in archive.namelist() if m.startswith(FILES_PREFIX)]
        root = Path(settings.PRIVATE_MEDIA_ROOT).resolve()
        for member in members:
            target = (root / member[len(FILES_PREFIX) :]).resolve()
            if not target.is_relative_to(root):  # a crafted archive may not write outside the folder
                raise ValueError(f"unsafe path in the backup: {member}")
        with transaction.atomic():
            fixture = Path(settings.BASE_DIR) / ".restore-fixture.json"
            fixture.write_bytes(data)
            try:
                management.call_command("loaddata", str(fixture), verbosity=0)
            finally:
                fixture.unlink(missing_ok=True)
        for member in members:
            target = root / member[len(FILES_PREFIX) :]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(member))
    return {"objects": len(json.loads(data)), "files": len(members)}
