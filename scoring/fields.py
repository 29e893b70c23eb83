"""A JSONField stored as PostgreSQL ``json`` (the text as written) instead of ``jsonb``.

For derived data that is written in bulk and read back whole, never queried by key: a hand's
settlement and running scores. PostgreSQL stores ``json`` after a syntax check, while ``jsonb``
parses every value into its binary form. Measured on 93,000 re-settled hands: the UPDATE took
1.2 s with ``json`` against 2.9 s with ``jsonb`` (bench/season_resettle.py). Key lookups
(``settlement__type``) are not supported on these columns. Other databases: a plain JSONField.
"""

from django.db import models
from psycopg.types.json import Json


class JSONTextField(models.JSONField):
    def db_type(self, connection):
        return "json" if connection.vendor == "postgresql" else super().db_type(connection)

    def from_db_value(self, value, expression, connection):
        if value is None or isinstance(value, (str, bytes)):
            return super().from_db_value(value, expression, connection)  # type: ignore[arg-type]  # json takes bytes too
        return value  # psycopg parses a json column itself

    def get_db_prep_value(self, value, connection, prepared=False):
        if connection.vendor != "postgresql":
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        return Json(value)  # typed json: no round trip through jsonb on the way in
