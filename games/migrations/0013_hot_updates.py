"""A move's seat updates in place (HOT), and fewer index entries for those that are not.

PostgreSQL updates a row heap-only (the new version in the same page, no index entry written,
the old one pruned without VACUUM) only if no indexed column changed and the page has room:

- ``seat_deadline_idx`` goes: nothing reads seats by deadline across games (the timeout sweep
  reads ``Game.deadline``), and a clocked move changes the deadline of every seat it waits for;
- the seat's own foreign-key indexes on ``game_id`` and ``user_id`` go: ``(game, position)``,
  ``(game, user)`` and ``(user, game)`` lead with those columns;
- ``games_seat`` keeps a fifth of each page free (``fillfactor = 80``) for the new versions.
  Pages written from now on; existing ones get the room only when the table is rewritten
  (``VACUUM FULL`` or ``pg_repack``: not here, it locks the table; docs/scale.md).

Measured with ``python -m benchmarks.hot_updates``.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def _leave_room(apps: object, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """PostgreSQL's storage parameter; other databases (the embedded default's SQLite) have none."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_seat SET (fillfactor = 80)")


def _reset_room(apps: object, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_seat RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_rated"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="seat",
            name="seat_deadline_idx",
        ),
        # The indexes alone: Django's own AlterField would drop and re-add the foreign keys,
        # checking every seat row again under a lock that stops the moves.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="seat",
                    name="game",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="games.game",
                    ),
                ),
                migrations.AlterField(
                    model_name="seat",
                    name="user",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="seats",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    'DROP INDEX IF EXISTS "games_seat_game_id_ad720f5b"',
                    reverse_sql='CREATE INDEX IF NOT EXISTS "games_seat_game_id_ad720f5b" ON "games_seat" ("game_id")',
                ),
                migrations.RunSQL(
                    'DROP INDEX IF EXISTS "games_seat_user_id_9fbc01bf"',
                    reverse_sql='CREATE INDEX IF NOT EXISTS "games_seat_user_id_9fbc01bf" ON "games_seat" ("user_id")',
                ),
            ],
        ),
        migrations.RunPython(_leave_room, _reset_room),
    ]
