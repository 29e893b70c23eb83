"""The demo (``seed_demo``) seeded once per test session, then copied into the database from memory.

``seed_demo`` takes some 20 s and a dozen tests need what it loads. The session's first use runs
the command for real inside a transaction, reads every Django table's rows into memory and rolls
the transaction back (``demo_seed``); each use then deletes every row of every table and inserts
the rows read (``Rows.write``), in one transaction: Django declares its foreign keys DEFERRABLE
INITIALLY DEFERRED on SQLite and PostgreSQL alike, so neither the order of the tables nor the rows
a test left matter. The primary-key sequences are then set past the rows (PostgreSQL; SQLite's
``sqlite_sequence`` follows explicit ids by itself), so rows a test adds get fresh ids.

The rows are read twice from the one seeding:

- ``Demo.pending``: the database as the command leaves it inside a test's own transaction
  (pytest-django's ``db``), where the work it queued for the commit (``transaction.on_commit``:
  ratings following the results, notifications' deliveries) never runs, the test being rolled back;
- ``Demo.committed``: that work done, as after the command commits (``./scripts/serve``, a test
  whose transactions commit: ``transactional_db``, a live server).

The demo is seeded around its moment (the Winter Open's round 5 has 35 minutes on the clock, the
event runs today): a write moves every moment taken from the seeding's clock to the write's own,
so a test late in a long session sees the demo as if just seeded. Moments written in the demo
(its seasons of January to June 2026) are months from any moment it is seeded at and stay; a
moment inside a JSON value is not moved. Files the rows name (file fields) are kept in memory and
written back where missing, since tests point PRIVATE_MEDIA_ROOT at folders of their own.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.test import TestCase
from django.utils import timezone

# A moment within this distance of the seeding was taken from its clock (see the docstring).
NEAR = dt.timedelta(days=2)


def demo_models() -> list[type[models.Model]]:
    """Every model with a table of its own, the many-to-many tables Django creates included."""
    existing = set(connection.introspection.table_names(include_views=False))
    return [
        m
        for m in apps.get_models(include_auto_created=True)
        if m._meta.managed and not m._meta.proxy and m._meta.db_table in existing
    ]


def orm_digest() -> dict[str, tuple[int, str]]:
    """Each model's row count and a digest of its rows as the ORM reads them, in primary-key order."""
    digest = {}
    for model in demo_models():
        fields = [f.attname for f in model._meta.concrete_fields]
        rows = list(model._base_manager.order_by("pk").values_list(*fields))
        digest[model._meta.label] = (len(rows), hashlib.sha256(repr(rows).encode()).hexdigest())
    return digest


@dataclass(frozen=True)
class Rows:
    """Every Django table's columns and rows, read with plain SQL; the files the rows name."""

    tables: dict[str, tuple[list[str], list[tuple[Any, ...]], set[int]]]  # columns, rows, moments' columns
    files: list[tuple[str, str, str, bytes]]  # model label, field name, file name, content
    digest: dict[str, tuple[int, str]]  # orm_digest() of the database read
    seeding_began: dt.datetime
    seeded_at: dt.datetime  # when it was read: the moment the rows show

    @classmethod
    def read(cls, seeding_began: dt.datetime) -> Rows:
        seeded_at = timezone.now()
        qn = connection.ops.quote_name
        tables = {}
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                # json read as its text, as Django reads jsonb (psycopg would parse it), written back as is
                from psycopg.types.string import TextLoader

                cursor.cursor.adapters.register_loader("json", TextLoader)
            for model in demo_models():
                table = model._meta.db_table
                cursor.execute(f"SELECT * FROM {qn(table)} ORDER BY {qn(model._meta.pk.column)}")
                rows = list(cursor.fetchall())
                if connection.vendor == "sqlite":
                    # Django's SQLite backend reads times through a converter but writes them as
                    # text itself (the sqlite3 module has no adapter for them): the text it writes
                    rows = [tuple(str(v) if isinstance(v, dt.time) else v for v in row) for row in rows]
                moments = {i for row in rows for i, v in enumerate(row) if isinstance(v, dt.date)}
                tables[table] = ([c[0] for c in cursor.description], rows, moments)
        files = []
        for model in demo_models():
            for field in model._meta.concrete_fields:
                if isinstance(field, models.FileField):
                    names = model._base_manager.exclude(**{field.attname: ""}).values_list(field.attname, flat=True)
                    for name in names:
                        if name and field.storage.exists(name):
                            with field.storage.open(name) as f:
                                files.append((model._meta.label, field.name, name, f.read()))
        return cls(tables, files, orm_digest(), seeding_began, seeded_at)

    def write(self, at: dt.datetime | None = None) -> None:
        """Make the database hold these rows and nothing else, as if read at the moment ``at`` (now)."""
        at = at or timezone.now()
        qn = connection.ops.quote_name
        with transaction.atomic(), connection.cursor() as cursor:
            for model in demo_models():
                cursor.execute(f"DELETE FROM {qn(model._meta.db_table)}")
            for table, (columns, rows, moments) in self.tables.items():
                if rows:
                    cursor.executemany(
                        f"INSERT INTO {qn(table)} ({', '.join(qn(c) for c in columns)}) "
                        f"VALUES ({', '.join(['%s'] * len(columns))})",
                        self._moved(rows, moments, at),
                    )
            for sql in connection.ops.sequence_reset_sql(no_style(), demo_models()):
                cursor.execute(sql)
        # the rows' content types may carry other ids than those cached from an earlier test
        ContentType.objects.clear_cache()
        for label, name, file_name, content in self.files:
            storage = apps.get_model(label)._meta.get_field(name).storage
            if not storage.exists(file_name):
                storage.save(file_name, ContentFile(content))

    def _moved(self, rows: list[tuple[Any, ...]], moments: set[int], at: dt.datetime) -> list[tuple[Any, ...]]:
        shift = at - self.seeded_at
        days = dt.timedelta(days=(timezone.localdate(at) - timezone.localdate(self.seeded_at)).days)
        if not moments or (not shift and not days):
            return rows
        # SQLite reads naive moments in UTC, PostgreSQL aware ones
        start, end = self.seeding_began - NEAR, self.seeded_at + NEAR
        naive_start, naive_end = timezone.make_naive(start, dt.UTC), timezone.make_naive(end, dt.UTC)
        first, last = timezone.localdate(start), timezone.localdate(end)

        def move(value: Any) -> Any:
            if isinstance(value, dt.datetime):
                if value.tzinfo is None:
                    return value + shift if naive_start <= value <= naive_end else value
                return value + shift if start <= value <= end else value
            if isinstance(value, dt.date):
                return value + days if first <= value <= last else value
            return value

        return [tuple(move(v) if i in moments else v for i, v in enumerate(row)) for row in rows]


@dataclass(frozen=True)
class Demo:
    pending: Rows
    committed: Rows


def demo_seed() -> Demo:
    """Run ``seed_demo`` in a transaction and roll it back, reading the rows before and after the
    work it queued for the commit (run as pytest-django's ``django_capture_on_commit_callbacks``
    runs it). Outside any test's transaction: call it with the database unblocked."""
    from kyoku.models import League

    if League.objects.exists():
        raise RuntimeError("the demo is seeded on a database without leagues: a test left rows committed")
    with transaction.atomic():
        began = timezone.now()
        with TestCase.captureOnCommitCallbacks(execute=True):
            call_command("seed_demo", verbosity=0, stdout=io.StringIO())
            pending = Rows.read(began)
        committed = Rows.read(began)
        transaction.set_rollback(True)
    return Demo(pending, committed)
