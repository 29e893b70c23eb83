"""Leagues, roles, the audit log and idempotency keys now belong to the platform (``kyoku``).

State only: the tables stay where they are (kyoku.models keeps their names) and the foreign keys
of seasons and qualification tiers point at the same table under its new owner."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0006_standings_version"),
        ("kyoku", "0001_initial"),
    ]

    state_operations = [
        migrations.AlterField(
            model_name="season",
            name="league",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="seasons", to="kyoku.league"
            ),
        ),
        migrations.AlterField(
            model_name="qualificationtier",
            name="league",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="tiers", to="kyoku.league"
            ),
        ),
        migrations.DeleteModel(name="LeagueRole"),
        migrations.DeleteModel(name="AuditLog"),
        migrations.DeleteModel(name="IdempotencyKey"),
        migrations.DeleteModel(name="League"),
    ]

    operations = [migrations.SeparateDatabaseAndState(state_operations=state_operations, database_operations=[])]
