"""Each account's name skeleton (accounts.names), indexed, so that a new name that looks like
an existing one is found in one query; filled in here for the accounts there already are."""

import django.contrib.auth.validators
from django.db import migrations, models

import accounts.names

BATCH = 1000


def fill_skeletons(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    users = User.objects.using(schema_editor.connection.alias).only("pk", "username").order_by("pk")
    batch = []
    for user in users.iterator(chunk_size=BATCH):
        user.username_skeleton = accounts.names.name_skeleton(user.username)
        batch.append(user)
        if len(batch) == BATCH:
            User.objects.bulk_update(batch, ["username_skeleton"])
            batch = []
    User.objects.bulk_update(batch, ["username_skeleton"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_drop_drf_tokens"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_skeleton",
            field=models.TextField(default="", editable=False),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="user",
            name="username",
            field=models.CharField(
                error_messages={"unique": "A user with that username already exists."},
                help_text="Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.",
                max_length=150,
                unique=True,
                validators=[
                    django.contrib.auth.validators.UnicodeUsernameValidator(),
                    accounts.names.validate_not_lookalike,
                ],
                verbose_name="username",
            ),
        ),
        migrations.AddIndex(
            model_name="user",
            index=models.Index(fields=["username_skeleton"], name="user_skeleton_idx"),
        ),
    ]
