"""Issue 34: the audit log names a non-user actor; an idempotency key belongs to its principal
(the user, or a table's phones), not only to a login."""

from django.conf import settings
from django.db import migrations, models
import django.db.models.deletion

# Each existing key belongs to its user. Plain SQL, not RunPython: rendering the historical models
# here would need every app's migrations that moved League to the platform (ratings, referee)
# applied first, which a platform migration cannot depend on.
SCOPE_FROM_USER = "UPDATE league_idempotencykey SET scope = 'user:' || CAST(user_id AS VARCHAR(20)) WHERE scope = ''"


class Migration(migrations.Migration):
    dependencies = [
        ("kyoku", "0001_initial"),
        # after every app has moved its references to the platform's models (league 0007 drops
        # them from league's state, ratings and referee point at kyoku.League)
        ("league", "0007_platform_models_to_kyoku"),
        ("ratings", "0002_league_owned_by_kyoku"),
        ("referee", "0002_league_owned_by_kyoku"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="auditlog",
            name="actor_label",
            field=models.CharField(blank=True, default="", max_length=80),
        ),
        migrations.AddField(
            model_name="idempotencykey",
            name="scope",
            field=models.CharField(default="", max_length=60),
            preserve_default=False,
        ),
        migrations.RunSQL(SCOPE_FROM_USER, migrations.RunSQL.noop),
        migrations.RemoveConstraint(model_name="idempotencykey", name="uniq_idempotency_key"),
        migrations.AlterField(
            model_name="idempotencykey",
            name="user",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddConstraint(
            model_name="idempotencykey",
            constraint=models.UniqueConstraint(fields=("scope", "key"), name="uniq_idempotency_scope_key"),
        ),
    ]
