"""The profile's rating history read by an ordered index scan that stops after the rows shown,
instead of a scan of every rating change (the plans are in benchmarks/scale.py's output).

A plain AddIndex, not CONCURRENTLY: the site also migrates SQLite (dev.py serve), and on
PostgreSQL 400,000 rows take about a second to index."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_game_bot_level"),
        ("stats", "0002_translatable_labels"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(fields=["user", "players", "-at", "-id"], name="rating_change_history_idx"),
        ),
    ]
