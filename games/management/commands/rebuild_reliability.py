"""Recompute every player's reliability from the stored games (``games.reliability``), first
filling ``Seat.left_by`` of finished games that have none yet from their stored states."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import reliability


class Command(BaseCommand):
    help = "Recompute every player's reliability from the stored games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", type=int, default=500, help="Users (and games) read at a time.")

    def handle(self, *args: Any, batch: int, **options: Any) -> None:
        seats = reliability.fill_left_by(batch=batch)
        users = reliability.rebuild(batch=batch)
        self.stdout.write(f"{seats} seats' leaving filled in, {users} players recomputed.")
