"""factory_boy factories and stacked deals for the tests.

Games are made through the services, so every game a test sees is one the
site could have produced.
"""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from accounts.models import ApiToken, User
from games import services
from games.models import Game

PASSWORD = "correct-horse-battery"

# Two players, classic, empty stock, clubs trump. Player 0 leads 6S, player 1
# beats it with 8S and is out; player 0 still holds 7H and is the fool.
SHORT_DEAL: dict[str, Any] = {
    "hands": [["6S", "7H"], ["8S"]],
    "stock": [],
    "trump": "C",
    "first_attacker": 0,
}

# Two players, a few bouts: stock of two cards, hearts trump (the 9H is face up).
LONGER_DEAL: dict[str, Any] = {
    "hands": [["6S", "7D", "QC", "AH"], ["8S", "9D", "6C", "KS"]],
    "stock": ["10C", "9H"],
    "first_attacker": 0,
}


class UserFactory(DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.django.Password(PASSWORD)
    # Active just now, as after logging in (the log-in page records it, accounts.presence): a
    # test's first page then costs what every later one does; presence tests set it themselves.
    last_active_at = factory.LazyFunction(timezone.now)


def backdate(game: Game, *, days: float) -> None:
    """As if ``game`` had been dealt, moved and waited ``days`` ago: its deal, its moves and the
    waits of the players it waits for (``Seat.turn_started_at``, what a claim's wait counts from)
    move that far into the past. ``game`` is read again."""
    from games.models import Move, Seat

    then = timezone.now() - timedelta(days=days)
    Move.objects.filter(game=game).update(created_at=then)
    Game.objects.filter(pk=game.pk).update(started_at=then)
    Seat.objects.filter(game=game, turn_started_at__isnull=False).update(turn_started_at=then)
    game.refresh_from_db()
    if game.claim_warn_at is not None:  # when a claim becomes possible moves back with the wait
        claim_days = game.rules.get("claim_after_days", 14)
        Game.objects.filter(pk=game.pk).update(claim_warn_at=then + timedelta(days=claim_days))
        game.refresh_from_db()


def api_token(user: User, name: str = "tests") -> str:
    """A new API token of ``user`` (the secret, as the token endpoint answers it). Made on the
    model like the endpoint makes it, without its per-user limit, so a test may make many."""
    _token, secret = ApiToken.objects.create(user=user, name=name)
    return str(secret)


class GameFactory(factory.Factory):
    """An open game, made by ``services.game_create``; its creator holds seat 0."""

    class Meta:
        model = Game

    creator = factory.SubFactory(UserFactory)
    preset = "classic"
    num_players = 2
    overrides = factory.Dict({})
    seed = factory.Sequence(lambda n: 4242 + n)
    deal = None

    @classmethod
    def _create(cls, model_class: type[Game], **kwargs: Any) -> Game:
        return services.game_create(**kwargs)


def started_game(
    *, players: int = 2, deal: dict[str, Any] | None = None, **kwargs: Any
) -> tuple[Game, list[User]]:
    """A game that every seat has joined, so it has started; its users by position."""
    game = GameFactory(num_players=players, deal=deal, **kwargs)
    users = [game.creator, *UserFactory.create_batch(players - 1)]
    for user in users[1:]:
        services.game_join(user=user, game_id=game.pk)
    game.refresh_from_db()
    by_position = {seat.position: seat.user for seat in game.seats.select_related("user")}
    return game, [by_position[p] for p in range(players)]


def play_moves(
    game: Game,
    users: list[User],
    count: int,
    choose: Callable[[list[dict[str, Any]]], dict[str, Any]] | None = None,
) -> Game:
    """Make up to ``count`` moves through ``services.make_move``: each time the first legal
    action (or the one ``choose`` picks from them) of the first player the engine waits for."""

    for _ in range(count):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert game.state is not None
        engine = game.engine()
        player = engine.waiting_for()[0]
        services.make_move(
            user=users[player],
            game_id=game.pk,
            action=(choose or (lambda legal: legal[0]))(engine.legal_json(player)),
            expected_version=game.version,
        )
    game.refresh_from_db()
    return game
