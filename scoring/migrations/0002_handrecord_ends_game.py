from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="handrecord",
            name="ends_game",
            field=models.BooleanField(default=False),
        ),
    ]
