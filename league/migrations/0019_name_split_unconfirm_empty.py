"""Issue 50 §2: a split counts as confirmed only when a person confirmed both parts. Setting only
the order used to confirm it, so some players are "confirmed" with an empty family or given name:
their confirmation is forgotten (the desk lists them again, the EMA file says it guesses)."""

from django.db import migrations
from django.db.models import Q


def empty_splits_unconfirm(apps, schema_editor):
    Player = apps.get_model("league", "Player")
    Player.objects.filter(name_confirmed_at__isnull=False).filter(Q(family_name="") | Q(given_name="")).update(
        name_confirmed_at=None, name_confirmed_by=None
    )


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0018_invitation_block"),
    ]

    operations = [
        migrations.RunPython(empty_splits_unconfirm, migrations.RunPython.noop),
    ]
