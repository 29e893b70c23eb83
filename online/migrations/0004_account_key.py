# An online account's folded name (NFKC, case folded), unique per platform: tenhou_01, Tenhou_01 and
# ｔｅｎｈｏｕ＿０１ are one account. Rows already folding to one key keep the first (oldest) as that
# key; a later one gets its own id appended, so the migration never fails on existing data (the
# service refuses a new duplicate from here on).

import unicodedata

from django.db import migrations, models


def fold(name):
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name or "").casefold())


def keys_fill(apps, schema_editor):
    OnlineAccount = apps.get_model("online", "OnlineAccount")
    seen = set()
    for account in OnlineAccount.objects.order_by("pk"):
        key = fold(account.account_name)
        if (account.platform, key) in seen:
            key = f"{key}#{account.pk}"
        seen.add((account.platform, key))
        OnlineAccount.objects.filter(pk=account.pk).update(account_key=key)


class Migration(migrations.Migration):
    dependencies = [
        ("online", "0003_mahjong_soul"),
    ]

    operations = [
        migrations.AddField(
            model_name="onlineaccount",
            name="account_key",
            field=models.CharField(default="", editable=False, max_length=160),
        ),
        migrations.RunPython(keys_fill, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="onlineaccount",
            constraint=models.UniqueConstraint(fields=("platform", "account_key"), name="uniq_online_account_key"),
        ),
    ]
