"""Recount every player's stats, pair records and ratings from the finished games."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from stats import services


class Command(BaseCommand):
    help = "Rebuild stats and ratings from the finished games (aborted games never count)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check",
            action="store_true",
            help="Change nothing: recompute and exit non-zero if the stored numbers differ.",
        )

    def handle(self, *args: Any, check: bool, **options: Any) -> None:
        if check:
            ledger, counted = services.computed_ledger()
            expected, stored = services.snapshot_ledger(ledger), services.snapshot_rows()
            differing = [name for name in expected if expected[name] != stored[name]]
            if differing:
                raise CommandError(
                    f"Recomputed from {len(counted)} game(s), the stored {', '.join(differing)} differ."
                )
            self.stdout.write(f"Checked {len(counted)} game(s): the stored numbers match.")
            return
        count = services.rebuild()
        self.stdout.write(f"Rebuilt stats and ratings from {count} finished game(s).")
