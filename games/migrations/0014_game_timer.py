"""The game's deadline and claim warning found through a row of their own (``GameTimer``), so a
move's update of the game row stays in place (HOT).

A move rewrites the game's row and most moves change its ``deadline`` (a clock) or its
``claim_warn_at`` (no clock): both were indexed, and a change of an indexed column rules out a
heap-only update. Their indexes move to ``games_gametimer``, a copy the database keeps with
triggers (an insert or a change of either column of ``games_game`` writes it; clearing both
deletes the row), so no writer of the game, ORM or SQL, can leave it behind. ``games_game`` then
keeps a fifth of each page free (``fillfactor = 80``) for the new versions (pages written from
now on: docs/scale.md).

PostgreSQL and SQLite (the embedded default) each get triggers in their own dialect.
Measured with ``python -m benchmarks.hot_updates``.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

_COPY = (
    "INSERT INTO games_gametimer (game_id, deadline, claim_warn_at) "
    "SELECT id, deadline, claim_warn_at FROM games_game "
    "WHERE deadline IS NOT NULL OR claim_warn_at IS NOT NULL"
)

_POSTGRESQL = [
    """
    CREATE FUNCTION games_keep_timer() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.deadline IS NULL AND NEW.claim_warn_at IS NULL THEN
            DELETE FROM games_gametimer WHERE game_id = NEW.id;
        ELSE
            INSERT INTO games_gametimer (game_id, deadline, claim_warn_at)
            VALUES (NEW.id, NEW.deadline, NEW.claim_warn_at)
            ON CONFLICT (game_id) DO UPDATE
            SET deadline = EXCLUDED.deadline, claim_warn_at = EXCLUDED.claim_warn_at;
        END IF;
        RETURN NULL;
    END
    $$
    """,
    """
    CREATE TRIGGER games_timer_on_insert AFTER INSERT ON games_game FOR EACH ROW
    WHEN (NEW.deadline IS NOT NULL OR NEW.claim_warn_at IS NOT NULL)
    EXECUTE FUNCTION games_keep_timer()
    """,
    """
    CREATE TRIGGER games_timer_on_update AFTER UPDATE OF deadline, claim_warn_at ON games_game
    FOR EACH ROW
    WHEN (OLD.deadline IS DISTINCT FROM NEW.deadline OR OLD.claim_warn_at IS DISTINCT FROM NEW.claim_warn_at)
    EXECUTE FUNCTION games_keep_timer()
    """,
    _COPY,
    "ALTER TABLE games_game SET (fillfactor = 80)",
]

_POSTGRESQL_UNDO = [
    "ALTER TABLE games_game RESET (fillfactor)",
    "DROP TRIGGER IF EXISTS games_timer_on_update ON games_game",
    "DROP TRIGGER IF EXISTS games_timer_on_insert ON games_game",
    "DROP FUNCTION IF EXISTS games_keep_timer()",
]

_SQLITE_KEEP = """
        DELETE FROM games_gametimer WHERE game_id = NEW.id;
        INSERT INTO games_gametimer (game_id, deadline, claim_warn_at)
        SELECT NEW.id, NEW.deadline, NEW.claim_warn_at
        WHERE NEW.deadline IS NOT NULL OR NEW.claim_warn_at IS NOT NULL;
"""

_SQLITE = [
    f"""
    CREATE TRIGGER games_timer_on_insert AFTER INSERT ON games_game FOR EACH ROW
    WHEN NEW.deadline IS NOT NULL OR NEW.claim_warn_at IS NOT NULL
    BEGIN {_SQLITE_KEEP} END
    """,
    f"""
    CREATE TRIGGER games_timer_on_update AFTER UPDATE OF deadline, claim_warn_at ON games_game
    FOR EACH ROW
    WHEN OLD.deadline IS NOT NEW.deadline OR OLD.claim_warn_at IS NOT NEW.claim_warn_at
    BEGIN {_SQLITE_KEEP} END
    """,
    _COPY,
]

_SQLITE_UNDO = [
    "DROP TRIGGER IF EXISTS games_timer_on_update",
    "DROP TRIGGER IF EXISTS games_timer_on_insert",
]


def _keep_timers(apps: object, schema_editor: BaseDatabaseSchemaEditor) -> None:
    statements = {"postgresql": _POSTGRESQL, "sqlite": _SQLITE}[schema_editor.connection.vendor]
    for statement in statements:
        schema_editor.execute(statement)


def _stop_keeping_timers(apps: object, schema_editor: BaseDatabaseSchemaEditor) -> None:
    statements = {"postgresql": _POSTGRESQL_UNDO, "sqlite": _SQLITE_UNDO}[schema_editor.connection.vendor]
    for statement in statements:
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_hot_updates"),
    ]

    operations = [
        migrations.CreateModel(
            name="GameTimer",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="timer",
                        serialize=False,
                        to="games.game",
                    ),
                ),
                ("deadline", models.DateTimeField(blank=True, null=True)),
                ("claim_warn_at", models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.AddIndex(
            model_name="gametimer",
            index=models.Index(
                condition=models.Q(("deadline__isnull", False)), fields=["deadline"], name="timer_deadline_idx"
            ),
        ),
        migrations.AddIndex(
            model_name="gametimer",
            index=models.Index(
                condition=models.Q(("claim_warn_at__isnull", False)),
                fields=["claim_warn_at"],
                name="timer_claim_warn_idx",
            ),
        ),
        migrations.RunPython(_keep_timers, _stop_keeping_timers, elidable=False),
        migrations.RemoveIndex(
            model_name="game",
            name="game_deadline_idx",
        ),
        migrations.RemoveIndex(
            model_name="game",
            name="game_claim_warn_idx",
        ),
    ]
