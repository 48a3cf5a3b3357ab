"""``Seat.turn_started_at`` for every player a running game waits for, clock or not: a claim's
wait is measured from it (``games.services.waited_since``), so that a preference, which is no
move, cannot start it again. Seats waited for before this had it only in games with a clock;
the others get the moment of their game's last move (a preference, then only ``auto_pass``, is
none), else of its deal."""

from django.db import migrations
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce

#: The preference action types when this was written (``durak.PREFERENCE_ACTION_TYPES``).
PREFERENCES = ["auto_pass"]


def backfill(apps, schema_editor):  # type: ignore[no-untyped-def]
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    last_move = (
        Move.objects.filter(game=OuterRef("game_id"))
        .exclude(action__type__in=PREFERENCES)
        .order_by("-seq")
        .values("created_at")[:1]
    )
    dealt = Game.objects.filter(pk=OuterRef("game_id")).values("started_at")[:1]
    Seat.objects.filter(
        game__status="active", awaiting_move=True, turn_started_at__isnull=True
    ).update(turn_started_at=Coalesce(Subquery(last_move), Subquery(dealt)))


class Migration(migrations.Migration):
    dependencies = [("games", "0008_game_moves_made")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop, elidable=True)]
