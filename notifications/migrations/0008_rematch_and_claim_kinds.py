"""Two kinds of their own (issue 29): a rematch offer (written as an invitation before, told
apart by its ``params["rematch"]``) and the warning that a claim is possible. Rows of rematch
offers become ``rematch``; each player's rematch choices start as their invitation choices."""

from django.db import migrations, models


def rematches_apart(apps, schema_editor):  # type: ignore[no-untyped-def]
    Notification = apps.get_model("notifications", "Notification")
    Preferences = apps.get_model("notifications", "Preferences")
    Notification.objects.filter(kind="invited", params__has_key="rematch").update(kind="rematch")
    for channel in ("web", "email", "push"):
        Preferences.objects.update(**{f"{channel}_rematch": models.F(f"{channel}_invited")})


def rematches_back(apps, schema_editor):  # type: ignore[no-untyped-def]
    Notification = apps.get_model("notifications", "Notification")
    Notification.objects.filter(kind="rematch").update(kind="invited")
    Notification.objects.filter(kind="claim_possible").delete()


class Migration(migrations.Migration):

    dependencies = [
        ('notifications', '0007_one_unread_turn'),
    ]

    operations = [
        migrations.AddField(
            model_name='preferences',
            name='email_claim_possible',
            field=models.BooleanField(default=True, verbose_name='a claim is possible: by email'),
        ),
        migrations.AddField(
            model_name='preferences',
            name='email_rematch',
            field=models.BooleanField(default=True, verbose_name='rematch offer: by email'),
        ),
        migrations.AddField(
            model_name='preferences',
            name='push_claim_possible',
            field=models.BooleanField(default=True, verbose_name='a claim is possible: push'),
        ),
        migrations.AddField(
            model_name='preferences',
            name='push_rematch',
            field=models.BooleanField(default=False, verbose_name='rematch offer: push'),
        ),
        migrations.AddField(
            model_name='preferences',
            name='web_claim_possible',
            field=models.BooleanField(default=True, verbose_name='a claim is possible: on the site'),
        ),
        migrations.AddField(
            model_name='preferences',
            name='web_rematch',
            field=models.BooleanField(default=True, verbose_name='rematch offer: on the site'),
        ),
        migrations.AlterField(
            model_name='notification',
            name='kind',
            field=models.CharField(choices=[('your_move', 'your move'), ('game_started', 'game started'), ('invited', 'invitation'), ('game_finished', 'game finished'), ('time_low', 'time almost up'), ('rematch', 'rematch offer'), ('claim_possible', 'a claim is possible')], max_length=16, verbose_name='kind'),
        ),
        migrations.RunPython(rematches_apart, rematches_back),
    ]
