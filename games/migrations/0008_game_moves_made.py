"""``Game.moves_made``: the length of the move log, kept with the game so that a move is numbered
``moves_made + 1`` without counting the log (games.write). Games written before it get it from
their log's highest ``seq`` (the log is numbered 1..n, so that is its length)."""

from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce


def backfill(apps, schema_editor):  # type: ignore[no-untyped-def]
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    last = (
        Move.objects.filter(game=OuterRef("pk"))
        .order_by()
        .values("game")
        .annotate(last=Max("seq"))
        .values("last")
    )
    Game.objects.update(moves_made=Coalesce(Subquery(last), Value(0)))


class Migration(migrations.Migration):
    dependencies = [("games", "0007_seat_user_game_idx")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="moves_made",
            field=models.PositiveIntegerField(
                default=0,
                help_text="How many Move rows the game has: the next one is numbered moves_made + 1 "
                "(games.write), so a move never counts the log.",
            ),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=True),
    ]
