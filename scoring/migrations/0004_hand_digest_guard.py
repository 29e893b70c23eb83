"""A database guard for HandRecord.derived_digest: an UPDATE that changes a hand's settlement or
running scores without also changing its digest (a data fix, ``QuerySet.update``, the admin)
clears the digest, so the next season re-settle rewrites that hand instead of trusting a
fingerprint of content that is no longer there."""

from django.db import migrations

PG_CREATE = """
CREATE FUNCTION scoring_hand_digest_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.derived_digest := NULL;
    RETURN NEW;
END $$;
CREATE TRIGGER scoring_hand_digest_guard BEFORE UPDATE ON scoring_handrecord FOR EACH ROW
WHEN ((NEW.settlement IS DISTINCT FROM OLD.settlement OR NEW.scores_after IS DISTINCT FROM OLD.scores_after)
      AND NEW.derived_digest IS NOT DISTINCT FROM OLD.derived_digest)
EXECUTE FUNCTION scoring_hand_digest_clear();
"""
PG_DROP = """
DROP TRIGGER IF EXISTS scoring_hand_digest_guard ON scoring_handrecord;
DROP FUNCTION IF EXISTS scoring_hand_digest_clear();
"""
SQLITE_CREATE = """
CREATE TRIGGER scoring_hand_digest_guard AFTER UPDATE OF settlement, scores_after ON scoring_handrecord
FOR EACH ROW WHEN (NEW.settlement IS NOT OLD.settlement OR NEW.scores_after IS NOT OLD.scores_after)
              AND NEW.derived_digest IS OLD.derived_digest
BEGIN
    UPDATE scoring_handrecord SET derived_digest = NULL WHERE id = NEW.id;
END;
"""
SQLITE_DROP = "DROP TRIGGER IF EXISTS scoring_hand_digest_guard;"

SQL = {"postgresql": (PG_CREATE, PG_DROP), "sqlite": (SQLITE_CREATE, SQLITE_DROP)}


def _run(apps, schema_editor, forward=True):
    create_drop = SQL.get(schema_editor.connection.vendor)
    if create_drop:  # other databases: no guard; every writer in scoring.services still sets the digest
        schema_editor.execute(create_drop[0 if forward else 1])


def _unrun(apps, schema_editor):
    _run(apps, schema_editor, forward=False)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0003_hand_derived_digest")]
    operations = [migrations.RunPython(_run, _unrun)]
