"""One unread "your move" per game and player, enforced: the move's one statement moves it up
(``services._write_turns``). Older duplicates (a player's unread "your move"s of one game
beyond the newest) are marked read first, as the bell would have shown only one anyway."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.utils import timezone


def read_older_duplicates(apps, schema_editor):  # type: ignore[no-untyped-def]
    Notification = apps.get_model("notifications", "Notification")
    unread_turns = Notification.objects.filter(kind="your_move", read_at__isnull=True, game__isnull=False)
    newest = (
        unread_turns.filter(user_id=OuterRef("user_id"), game_id=OuterRef("game_id"))
        .order_by("-created_at", "-pk")
        .values("pk")[:1]
    )
    unread_turns.exclude(pk=Subquery(newest)).update(read_at=timezone.now())


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0006_push_claims"),
    ]

    operations = [
        migrations.RunPython(read_older_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="notification",
            constraint=models.UniqueConstraint(
                condition=models.Q(("kind", "your_move"), ("read_at__isnull", True)),
                fields=("user", "game"),
                name="notification_one_unread_turn",
            ),
        ),
    ]
