"""Model rows read and written by plain statements, for the paths every result and hand runs.

The ORM compiles each statement anew at every call: on the reference machine about a
millisecond for a join with a lock, more than the database takes to run it, and a result's
entry sends a dozen. These helpers keep what matters of the ORM (each field's own preparation
of its value, model instances with their related objects cached) and build each statement's
text once per model and shape. Model signals are not sent: use them only where no receiver
listens to the write (kyoku.rows' callers say so)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any, TypeVar

from django.db import connection
from django.db.transaction import TransactionManagementError
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)


@cache
def _fields(model: type[Model]) -> tuple[Field[Any, Any], ...]:
    """The fields stored in the model's table, in the table's order (``Options.concrete_fields``,
    which django-stubs does not declare)."""
    fields: tuple[Field[Any, Any], ...] = tuple(getattr(model._meta, "concrete_fields"))
    return fields


@cache
def _attnames(model: type[Model]) -> tuple[str, ...]:
    return tuple(f.attname for f in _fields(model))


@cache
def _converters(model: type[Model]) -> tuple[tuple[int, Any, tuple[Any, ...]], ...]:
    """Per column that needs one, the conversions the ORM applies to a fetched value (the
    backend's, such as SQLite's dates and decimals, then the field's own, such as JSON)."""
    found = []
    for i, field in enumerate(_fields(model)):
        col = field.get_col(model._meta.db_table)
        converters = (*connection.ops.get_db_converters(col), *col.get_db_converters(connection))
        if converters:
            found.append((i, col, converters))
    return tuple(found)


@cache
def select_list(model: type[Model], alias: str) -> str:
    """The model's columns for a SELECT, in the order ``instance_from_row`` reads them."""
    q = connection.ops.quote_name
    return ", ".join(f"{alias}.{q(f.column)}" for f in _fields(model))


def instance_from_row(model: type[M], row: Sequence[Any], start: int = 0) -> tuple[M, int]:
    """The instance whose columns (``select_list``) begin at ``row[start]``, as the ORM loads it
    (values converted by the backend's cursor), and where the next model's columns begin."""
    names = _attnames(model)
    end = start + len(names)
    values = list(row[start:end])
    for i, col, converters in _converters(model):
        for convert in converters:
            values[i] = convert(values[i], col, connection)
    return model.from_db(connection.alias, list(names), values), end


def instances_where(
    model: type[M], column: str, value: Any, order_by: str = "", among: tuple[str, Sequence[Any]] | None = None
) -> list[M]:
    """The model's rows whose ``column`` equals ``value`` (an indexed foreign key, say), and
    with ``among`` (a column, values) whose column holds one of the values."""
    in_column, values = among or ("", ())
    if among is not None and not values:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_where_sql(model, column, order_by, in_column, len(values)), [value, *values])
        return [instance_from_row(model, row)[0] for row in cursor.fetchall()]


@lru_cache(maxsize=512)  # a statement per length of the ``among`` list: bounded
def _where_sql(model: type[Model], column: str, order_by: str, in_column: str = "", count: int = 0) -> str:
    q = connection.ops.quote_name
    table = q(model._meta.db_table)
    among = f" AND t.{q(in_column)} IN ({', '.join(['%s'] * count)})" if in_column else ""
    order = f" ORDER BY t.{q(order_by)}" if order_by else ""
    return f"SELECT {select_list(model, 't')} FROM {table} t WHERE t.{q(column)} = %s{among}{order}"


def instance_insert(obj: Model) -> None:
    """Insert a new instance as ``save()`` would (defaults and ``auto_now_add`` applied, each
    value prepared by its field) in one statement that returns its primary key."""
    meta = obj._meta
    fields = [f for f in _fields(type(obj)) if not f.primary_key or getattr(obj, f.attname) is not None]
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(type(obj), tuple(f.column for f in fields)), values)
        pk = cursor.fetchone()[0]
    setattr(obj, meta.pk.attname, pk)
    obj._state.adding, obj._state.db = False, connection.alias


@cache
def _insert_sql(model: type[Model], columns: tuple[str, ...]) -> str:
    q = connection.ops.quote_name
    marks = ", ".join(["%s"] * len(columns))
    return (
        f"INSERT INTO {q(model._meta.db_table)} ({', '.join(q(c) for c in columns)}) VALUES ({marks}) "
        f"RETURNING {q(model._meta.pk.column)}"
    )


def instance_update(obj: Model, fields: Sequence[str]) -> None:
    """Write ``fields`` of a stored instance, as ``save(update_fields=…)`` would (``auto_now``
    applied, each value prepared by its field)."""
    meta = obj._meta
    prepared = [meta.get_field(name) for name in fields]
    values = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in prepared]  # type: ignore[union-attr]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(type(obj), tuple(f.column for f in prepared)), [*values, obj.pk])  # type: ignore[union-attr]


@cache
def _update_sql(model: type[Model], columns: tuple[str, ...]) -> str:
    q = connection.ops.quote_name
    sets = ", ".join(f"{q(c)} = %s" for c in columns)
    return f"UPDATE {q(model._meta.db_table)} SET {sets} WHERE {q(model._meta.pk.column)} = %s"


def instance_lock(model: type[M], pk: Any) -> M | None:
    """The row of ``pk``, locked for the rest of the transaction against other lockers (as
    ``select_for_update(no_key=True)``; SQLite's transactions take the write lock at their start),
    or None when it is gone. PostgreSQL's ``FOR NO KEY UPDATE``, not ``FOR UPDATE``: a row that
    others point at (a league) stays free for their inserts, whose foreign-key check takes ``FOR
    KEY SHARE``. With ``FOR UPDATE`` every audited write of a league waited for the league's
    ratings task to commit."""
    if not connection.in_atomic_block:
        raise TransactionManagementError("a row is locked inside a transaction")
    with connection.cursor() as cursor:
        cursor.execute(_lock_sql(model), [pk])
        row = cursor.fetchone()
    return None if row is None else instance_from_row(model, row)[0]


@cache
def _lock_sql(model: type[Model]) -> str:
    features = connection.features
    lock = (
        " FOR NO KEY UPDATE"
        if features.has_select_for_no_key_update
        else " FOR UPDATE"
        if features.has_select_for_update
        else ""
    )
    return _where_sql(model, model._meta.pk.column, "") + lock


def instances_insert(objs: Sequence[Model]) -> None:
    """Insert new instances of one model in one statement, as ``bulk_create`` would without
    its compilation (their primary keys are not read back)."""
    if not objs:
        return
    meta = objs[0]._meta
    fields = [f for f in _fields(type(objs[0])) if not f.primary_key]
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in objs for f in fields]
    q = connection.ops.quote_name
    marks = ", ".join([f"({', '.join(['%s'] * len(fields))})"] * len(objs))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {q(meta.db_table)} ({', '.join(q(f.column) for f in fields)}) VALUES {marks}", values
        )


def rows_update(
    model: type[Model], names: Sequence[str], rows: Sequence[tuple[Any, Sequence[Any]]], prepared: bool = False
) -> None:
    """Write the fields ``names`` of several stored rows, each ``(pk, values)`` (values in the
    order of ``names``, prepared here by their fields unless ``prepared``: JSON as its text,
    say). On PostgreSQL one statement joins the rows as a list of values, a round trip for
    all; SQLite, in-process, runs one plain UPDATE per row (and its values need no type)."""
    if not rows:
        return
    fields = [model._meta.get_field(name) for name in names]
    params = [
        [pk, *(values if prepared else (f.get_db_prep_save(v, connection) for f, v in zip(fields, values)))]  # type: ignore[union-attr]
        for pk, values in rows
    ]
    columns = tuple(f.column for f in fields)  # type: ignore[union-attr]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(_values_update_sql(model, columns, len(rows)), [p for row in params for p in row])
        else:
            cursor.executemany(_update_sql(model, columns), [[*row[1:], row[0]] for row in params])


@lru_cache(maxsize=256)  # a statement per model, columns and number of rows (a handful each)
def _values_update_sql(model: type[Model], columns: tuple[str, ...], count: int) -> str:
    q = connection.ops.quote_name
    meta = model._meta
    by_column = {f.column: f for f in _fields(model)}
    typed = [meta.pk.column, *columns]
    # each value typed as its column (the list's values are text to PostgreSQL otherwise)
    row = "(" + ", ".join(f"%s::{by_column[c].db_type(connection)}" for c in typed) + ")"
    names = ", ".join(q(c) for c in typed)
    sets = ", ".join(f"{q(c)} = v.{q(c)}" for c in columns)
    pk = q(meta.pk.column)
    return (
        f"WITH v ({names}) AS (VALUES {', '.join([row] * count)}) "
        f"UPDATE {q(meta.db_table)} t SET {sets} FROM v WHERE t.{pk} = v.{pk}"
    )
