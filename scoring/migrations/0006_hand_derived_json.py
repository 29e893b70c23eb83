"""A hand's settlement and running scores as PostgreSQL ``json`` instead of ``jsonb``
(scoring.fields.JSONTextField): derived data, rewritten in bulk by a season re-settle and read
whole, never queried by key; ``json`` skips the binary parse on every write.

The digest guard of 0004 names the two columns, so it is dropped around the type change and
recreated. ``json`` has no equality operator: the guard now compares the text. It tests the cheap
condition first (was the digest left as it was?), so a re-settle's own writes skip the comparison.
On SQLite the field keeps its type, but altering it rebuilds the table, which drops the trigger."""

from django.db import migrations

import scoring.fields

PG_GUARD = """
CREATE TRIGGER scoring_hand_digest_guard BEFORE UPDATE ON scoring_handrecord FOR EACH ROW
WHEN (NEW.derived_digest IS NOT DISTINCT FROM OLD.derived_digest
      AND (NEW.settlement::text IS DISTINCT FROM OLD.settlement::text
           OR NEW.scores_after::text IS DISTINCT FROM OLD.scores_after::text))
EXECUTE FUNCTION scoring_hand_digest_clear();
"""
PG_GUARD_0004 = """
CREATE TRIGGER scoring_hand_digest_guard BEFORE UPDATE ON scoring_handrecord FOR EACH ROW
WHEN ((NEW.settlement IS DISTINCT FROM OLD.settlement OR NEW.scores_after IS DISTINCT FROM OLD.scores_after)
      AND NEW.derived_digest IS NOT DISTINCT FROM OLD.derived_digest)
EXECUTE FUNCTION scoring_hand_digest_clear();
"""
SQLITE_GUARD = """
CREATE TRIGGER scoring_hand_digest_guard AFTER UPDATE OF settlement, scores_after ON scoring_handrecord
FOR EACH ROW WHEN NEW.derived_digest IS OLD.derived_digest
              AND (NEW.settlement IS NOT OLD.settlement OR NEW.scores_after IS NOT OLD.scores_after)
BEGIN
    UPDATE scoring_handrecord SET derived_digest = NULL WHERE id = NEW.id;
END;
"""
DROP = {
    "postgresql": "DROP TRIGGER IF EXISTS scoring_hand_digest_guard ON scoring_handrecord;",
    "sqlite": "DROP TRIGGER IF EXISTS scoring_hand_digest_guard;",
}


def _guard_drop(apps, schema_editor):
    sql = DROP.get(schema_editor.connection.vendor)
    if sql:
        schema_editor.execute(sql)


def _guard_create(sql_by_vendor):
    def run(apps, schema_editor):
        sql = sql_by_vendor.get(schema_editor.connection.vendor)
        if sql:
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("scoring", "0005_hand_fillfactor")]
    operations = [
        migrations.RunPython(_guard_drop, _guard_create({"postgresql": PG_GUARD_0004, "sqlite": SQLITE_GUARD})),
        migrations.AlterField(
            model_name="handrecord", name="scores_after", field=scoring.fields.JSONTextField(default=list)
        ),
        migrations.AlterField(
            model_name="handrecord", name="settlement", field=scoring.fields.JSONTextField(default=dict)
        ),
        migrations.RunPython(_guard_create({"postgresql": PG_GUARD, "sqlite": SQLITE_GUARD}), _guard_drop),
    ]
