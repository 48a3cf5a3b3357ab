"""A player's game ids from the index alone: the profile's count of running games and the
"my games" lists read them without fetching one seat row per game (benchmarks/scale.py)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_game_bot_level"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(fields=["user", "game"], name="seat_user_game_idx"),
        ),
    ]
