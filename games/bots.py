"""Computer players on the site: their accounts, seating them, and their moves.

The players themselves are ``durak.bots``; this module only gives them seats and turns.

* Accounts: one per level and seat number (``computer-rules``, ``computer-rules-2``, ...: a
  game seats each user once, so a three-player game against the rule-of-thumb bot needs two
  accounts), created on demand, inactive with an unusable password and no e-mail, so nobody can
  log in as one; ``User.is_bot`` marks them on every page and in the API.
* Seating: ``services.game_fill_with_bots`` seats them through ``services.game_join`` like
  people, so a game full of its creator and bots starts at once.
* Moves: after every committed change that leaves the engine waiting for a bot, the write core
  (``games.write.after_commit``) queues ``tasks.bot_move`` (game id, version) with a natural
  delay (``BOT_MOVE_DELAY_SECONDS``). The task gives the bot ``engine.view(seat)`` and the public
  log of ``Move`` rows, nothing else, and plays its answer through ``games.write`` at that
  version: a task for an old version does nothing (the change that moved the game on queued
  its own). Bots have no clock (``timeouts.set_deadlines``), so a lost message would stall the
  game: the beat sweep re-queues the move of every game that has waited for a bot longer than
  ``BOT_STALLED_SECONDS`` (``requeue_stalled``); a duplicate does nothing.
"""

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

import durak
from accounts.computers import bot_username
from accounts.models import BOT_LEVELS, User

from . import write
from .exceptions import GameError, InvalidRules
from .models import Game, Seat

logger = logging.getLogger(__name__)

LEVELS = dict(BOT_LEVELS)


def make_bot(level: str) -> durak.Bot:
    """The engine's player for a level; the search bot thinks ``BOT_SEARCH_SECONDS`` a move."""
    if level == "random":
        return durak.RandomBot()
    if level == "rules":
        return durak.RuleBot()
    if level == "search":
        return durak.SearchBot(seconds=settings.BOT_SEARCH_SECONDS)
    raise ValueError(f"unknown computer level {level!r}")


def bot_account(*, level: str, number: int = 1) -> User:
    """The computer player of ``level`` for its ``number``-th seat in a game (created on demand)."""
    if level not in LEVELS:
        raise InvalidRules(f"Unknown computer level {level!r}.")
    base = bot_username(level, number)
    mine = Q(username=base) | Q(username__startswith=base + "~")
    existing = User.objects.filter(mine, is_bot=True, bot_level=level).order_by("pk").first()
    if existing is not None:
        return existing
    username = base
    if User.objects.filter(username__iexact=username).exists():  # a person took the name first
        username = f"{base}~{User.objects.count()}"
    user = User(
        username=username,
        display_name=f"Computer: {LEVELS[level]}",
        is_bot=True,
        bot_level=level,
        is_active=False,
    )
    user.set_unusable_password()
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:  # created by a concurrent request a moment ago
        return User.objects.get(mine, is_bot=True, bot_level=level)
    return user


def public_log(game: Game) -> list[dict[str, Any]]:
    """The game's public history as ``durak.bots`` reads it: each move's action and events."""
    return [
        {"action": action, "events": events} for action, events in game.moves.values_list("action", "events")
    ]


def bot_play(*, game_id: int, version: int) -> bool:
    """Let one computer player the game waits for make its move, if the game is still at
    ``version``; returns whether a move was made. Idempotent: for an old version, a finished
    game or a game that waits for no bot it does nothing.

    The bot thinks with no lock held (the search bot takes ``BOT_SEARCH_SECONDS``); its answer is
    then played through the write core at that version, as a person's move is: a deadline of
    another player that passed meanwhile is applied instead."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.version != version:
        return False
    seat = (
        Seat.objects.filter(game=game, awaiting_move=True, user__is_bot=True)
        .select_related("user")
        .order_by("position")
        .first()
    )
    if seat is None:
        return False
    assert game.state is not None
    view = game.engine().view(seat.position)
    if not view["actions"]:
        return False
    action = make_bot(seat.user.bot_level).choose(view, public_log(game))
    try:
        with transaction.atomic():
            locked = write.lock_running(game_id, expected_version=version)
            seats = write.seats_of(locked)
            bot = next(s for s in seats if s.pk == seat.pk)
            late = write.play(locked, seats, bot, {**action, "player": bot.position})
    except (GameError, durak.IllegalAction) as error:
        # StaleVersion: someone moved first and that change queued its own task.
        # The class only: an engine refusal's message can name a card of the bot's hand.
        logger.info("game %s: bot at seat %s did not move: %s", game_id, seat.position, type(error).__name__)
        return False
    return late is None


def requeue_stalled() -> int:
    """Queue the move again for every running game that has waited for a computer player longer
    than ``BOT_STALLED_SECONDS`` (its message was lost); returns how many. Run by the sweep."""
    since = timezone.now() - timedelta(seconds=settings.BOT_STALLED_SECONDS)
    stalled = list(
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            updated_at__lte=since,
            seats__awaiting_move=True,
            seats__user__is_bot=True,
        )
        .distinct()
        .values_list("pk", "version")
    )
    for game_id, version in stalled:
        write.queue_bot_move(game_id, version)
    return len(stalled)
