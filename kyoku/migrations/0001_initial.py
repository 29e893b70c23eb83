"""The platform takes over leagues, roles, the audit log and idempotency keys from ``league``.

Their tables were created by league's migrations and keep their names (``db_table``), so this
is a change in Django's state only: nothing in the database moves and no data is copied. It runs
after league 0006 so that on a fresh database the tables exist before anything names them here;
league 0007 then drops the models from league's state."""

import django.core.serializers.json
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("league", "0006_standings_version"),
    ]

    state_operations = [
        migrations.CreateModel(
            name="League",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=120, verbose_name="name")),
                ("name_zh", models.CharField(blank=True, max_length=120, verbose_name="Chinese name")),
                ("slug", models.SlugField(unique=True)),
                (
                    "promotion_count",
                    models.PositiveSmallIntegerField(default=2, verbose_name="players promoted / relegated per season"),
                ),
            ],
            options={
                "db_table": "league_league",
            },
        ),
        migrations.CreateModel(
            name="AuditLog",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("at", models.DateTimeField(auto_now_add=True, db_index=True)),
                ("action", models.CharField(max_length=60)),
                ("object_type", models.CharField(max_length=40)),
                ("object_id", models.CharField(max_length=40)),
                ("data", models.JSONField(default=dict, encoder=django.core.serializers.json.DjangoJSONEncoder)),
                ("league_id", models.BigIntegerField(blank=True, null=True)),
                ("season_id", models.BigIntegerField(blank=True, null=True)),
                (
                    "actor",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "db_table": "league_auditlog",
                "ordering": ["-at", "-id"],
                "indexes": [
                    models.Index(fields=["season_id", "-at"], name="audit_season_at"),
                    models.Index(fields=["league_id", "-at"], name="audit_league_at"),
                ],
            },
        ),
        migrations.CreateModel(
            name="IdempotencyKey",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.CharField(max_length=128)),
                ("endpoint", models.CharField(max_length=200)),
                ("request_hash", models.CharField(max_length=64)),
                ("status_code", models.PositiveSmallIntegerField(null=True)),
                ("response", models.JSONField(encoder=django.core.serializers.json.DjangoJSONEncoder, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "db_table": "league_idempotencykey",
                "constraints": [models.UniqueConstraint(fields=("user", "key"), name="uniq_idempotency_key")],
            },
        ),
        migrations.CreateModel(
            name="LeagueRole",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("role", models.CharField(choices=[("admin", "League admin"), ("referee", "Referee")], max_length=16)),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="roles", to="kyoku.league"
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="league_roles",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "db_table": "league_leaguerole",
                "constraints": [models.UniqueConstraint(fields=("league", "user", "role"), name="uniq_league_role")],
            },
        ),
    ]

    operations = [migrations.SeparateDatabaseAndState(state_operations=state_operations, database_operations=[])]
