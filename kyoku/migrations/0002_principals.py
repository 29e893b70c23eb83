"""Issue 34: the audit log names a non-user actor; an idempotency key belongs to its principal
(the user, or a table's phones), not only to a login."""

from typing import Any

from django.conf import settings
from django.db import migrations, models
import django.db.models.deletion


def scope_from_user(apps: Any, schema_editor: Any) -> None:
    Key = apps.get_model("kyoku", "IdempotencyKey")
    for row in Key.objects.filter(scope="").only("pk", "user_id").iterator():
        Key.objects.filter(pk=row.pk).update(scope=f"user:{row.user_id}")


class Migration(migrations.Migration):
    dependencies = [
        ("kyoku", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        # every app's state must point at kyoku.League before this migration renders the models
        ("ratings", "0002_league_owned_by_kyoku"),
        ("referee", "0002_league_owned_by_kyoku"),
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
        migrations.RunPython(scope_from_user, migrations.RunPython.noop),
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
