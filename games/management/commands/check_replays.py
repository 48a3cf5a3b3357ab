"""Replay every started game's move log from its seed (or stacked deal) and
compare the result with the stored state. Exits non-zero on any mismatch.

Reports name the game and what differs (which state keys, or the move the
engine refused), never a card.
"""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

import durak
from games.models import Game
from games.services import initial_engine


def replay_mismatch(game: Game) -> str | None:
    """Why replaying ``game`` does not give its stored state and each move's logged events,
    or None if it does."""
    try:
        engine = initial_engine(game)
    except (ValueError, TypeError, KeyError) as error:
        return f"cannot set up the deal ({type(error).__name__})"
    expected_seq = 1
    for move in game.moves.order_by("seq"):
        if move.seq != expected_seq:
            return f"move log has a gap: expected move {expected_seq}, found {move.seq}"
        try:
            engine.apply(move.action)
        except durak.IllegalAction:
            return f"move {move.seq} is illegal on replay"
        if move.events != json.loads(json.dumps(engine.events)):
            return f"move {move.seq}'s logged events differ from the replay's"
        expected_seq += 1
    replayed = engine.to_dict()
    stored: dict[str, Any] = game.state or {}
    if replayed != stored:
        keys = sorted(key for key in set(replayed) | set(stored) if replayed.get(key) != stored.get(key))
        return f"replayed state differs in {', '.join(keys) or 'its layout'}"
    return None


class Command(BaseCommand):
    help = "Check that replaying each game's move log from its seed gives the stored state."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="Only these games.")

    def handle(self, *args: Any, game_ids: list[int], **options: Any) -> None:
        games = Game.objects.exclude(state=None).order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
        checked = 0
        mismatches = 0
        for game in games.iterator(chunk_size=200):
            checked += 1
            problem = replay_mismatch(game)
            if problem is not None:
                mismatches += 1
                self.stderr.write(f"game {game.pk}: {problem}")
        summary = f"Checked {checked} game(s): {mismatches} mismatch(es)."
        if mismatches:
            raise CommandError(summary)
        self.stdout.write(summary)
