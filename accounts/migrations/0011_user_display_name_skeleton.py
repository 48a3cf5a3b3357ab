"""Each account's display-name skeleton (accounts.names), indexed, so that a display name or a
user name that looks like another account's display name is found in one query; filled in here
for the display names there already are (look-alikes among them are left as they are: the rule
applies when a name is set)."""

from django.db import migrations, models

import accounts.names

BATCH = 1000


def fill_skeletons(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    users = (
        User.objects.using(schema_editor.connection.alias)
        .exclude(display_name="")
        .only("pk", "display_name")
        .order_by("pk")
    )
    batch = []
    for user in users.iterator(chunk_size=BATCH):
        user.display_name_skeleton = accounts.names.display_name_skeleton(user.display_name)
        batch.append(user)
        if len(batch) == BATCH:
            User.objects.bulk_update(batch, ["display_name_skeleton"])
            batch = []
    User.objects.bulk_update(batch, ["display_name_skeleton"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0010_user_turn_sound"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="display_name_skeleton",
            field=models.TextField(default="", editable=False),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop, elidable=True),
        migrations.AddIndex(
            model_name="user",
            index=models.Index(fields=["display_name_skeleton"], name="user_display_skeleton_idx"),
        ),
    ]
