"""What a player's attention needs of a seat and a game (issue 29): whom a game cannot go on
without (``Seat.must_move``, the engine's ``must_act()``), how many moves a player has seen on
screen (``Seat.seen_moves``), whether their page is open and visible (``Seat.present_until``),
and when a game without a clock may be claimed (``Game.claim_warn_at``).

Running games get ``must_move`` from their state, and ``claim_warn_at`` from their waits; each
seat a player has looked at gets the moves logged by then as seen."""

from datetime import timedelta

from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery
from django.db.models.functions import Coalesce

import durak

#: The claim wait of rules stored before it was an option (``durak.rules.ADDED_LATER``).
DEFAULT_CLAIM_DAYS = 14


def backfill(apps, schema_editor):  # type: ignore[no-untyped-def]
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    for game in Game.objects.filter(status="active").exclude(state=None).iterator():
        engine = durak.Game.from_dict(game.state)
        must = set(engine.must_act())
        seats = list(Seat.objects.filter(game=game))
        for seat in seats:
            seat.must_move = seat.position in must
        Seat.objects.bulk_update(seats, ["must_move"])
        if game.move_time is not None:
            continue
        starts = [seat.turn_started_at for seat in seats if seat.awaiting_move and seat.turn_started_at]
        since = max(starts, default=game.started_at)
        if since is None or not any(engine.claim_wait(seat.position) is not None for seat in seats):
            continue
        days = (game.rules or {}).get("claim_after_days", DEFAULT_CLAIM_DAYS)
        game.claim_warn_at = since + timedelta(days=days)
        game.save(update_fields=["claim_warn_at"])
    seen = (
        Move.objects.filter(game=OuterRef("game_id"), created_at__lte=OuterRef("last_seen_at"))
        .values("game")
        .annotate(last=Max("seq"))
        .values("last")
    )
    Seat.objects.filter(last_seen_at__isnull=False).update(seen_moves=Coalesce(Subquery(seen), 0))



class Migration(migrations.Migration):

    dependencies = [
        ('games', '0009_turn_started_at_without_clock'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='claim_warn_at',
            field=models.DateTimeField(blank=True, help_text="When a claim of this game without a clock becomes possible, if nobody moves before: the players it would be against are told then, once (notifications' claim warning sweep).", null=True),
        ),
        migrations.AddField(
            model_name='seat',
            name='must_move',
            field=models.BooleanField(default=False, help_text="The game cannot go on without this player's move (the engine's must_act(), copied after every move): a game waiting for their move. Waited for but not this: they may act."),
        ),
        migrations.AddField(
            model_name='seat',
            name='present_until',
            field=models.DateTimeField(blank=True, help_text="The player has the game's page open and visible until then (its heartbeat moves it on; hidden, it is cleared): no 'your move' is written, mailed or pushed meanwhile.", null=True),
        ),
        migrations.AddField(
            model_name='seat',
            name='seen_moves',
            field=models.PositiveIntegerField(blank=True, help_text="How many moves of the log the player has seen on screen (the page shown, visible); empty until they first looked. The history marks the others' moves after these as new.", null=True),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('claim_warn_at__isnull', False)), fields=['claim_warn_at'], name='game_claim_warn_idx'),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=True),
    ]
