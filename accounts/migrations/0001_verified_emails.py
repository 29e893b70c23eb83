"""Accounts made before sign-up existed keep signing in: each one with an email gets it as its
verified primary address (an email two accounts share goes to the first; the other signs in by
username, accounts.adapter.EmailVerificationStage)."""

from django.conf import settings
from django.db import migrations


def addresses_create(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    EmailAddress = apps.get_model("account", "EmailAddress")
    taken = {e.lower() for e in EmailAddress.objects.values_list("email", flat=True)}
    having = set(EmailAddress.objects.values_list("user_id", flat=True))
    rows = []
    for user_id, email in User.objects.exclude(email="").order_by("pk").values_list("pk", "email"):
        email = email.strip().lower()
        if not email or email in taken or user_id in having:
            continue
        taken.add(email)
        rows.append(EmailAddress(user_id=user_id, email=email, verified=True, primary=True))
    EmailAddress.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [
        ("account", "0009_emailaddress_unique_primary_email"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(addresses_create, migrations.RunPython.noop)]
