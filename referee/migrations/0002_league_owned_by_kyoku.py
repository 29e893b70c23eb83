"""Leagues now belong to the platform (kyoku): the foreign key points at the same table under
its new owner. State only, nothing changes in the database."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("kyoku", "0001_initial"),
        ("referee", "0001_initial"),
    ]

    state_operations = [
        migrations.AlterField(
            model_name="penaltycatalogue",
            name="league",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="penalty_catalogues", to="kyoku.league"
            ),
        ),
    ]

    operations = [migrations.SeparateDatabaseAndState(state_operations=state_operations, database_operations=[])]
