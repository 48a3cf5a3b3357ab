"""A small site with secrets in it, for the security tests.

Two owners, Olga and Boris, play a running game; Olga also has a private open game, a
finished game with Boris that became a series, notifications, a players' chat message, and a
tournament under way in which they play each other.
A stranger (logged in, seated nowhere) and an anonymous visitor then try every URL on
their ids: whatever the answer, none of the secrets below may appear in it and none of the
owners' rows may change.
"""

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.utils import timezone

from accounts import tokens
from accounts.models import ApiToken, Block, FriendRequest, Friendship, User
from chat.models import ChatMessage
from games import services
from games.models import Game, Invitation, Move, Seat
from notifications.models import Kind, Notification, Preferences
from series import services as series_services
from tests.api.helpers import hidden_from
from tests.factories import PASSWORD, play_moves
from tests.games.helpers import card_traces
from tests.stats.helpers import DRAW_DEAL, DRAW_MOVES, play_script
from tournaments import services as tournament_services
from tournaments.models import Player, Tournament

PLAYERS_CHAT = "players-only whisper 7f3a"
SPECTATORS_CHAT = "spectators say hello 2b9c"
NOTIFICATION_TEXT = "Olga's private notification 5d1e"
OWNER_EMAIL = "olga.owner.secret@example.com"
RUNNING_SEED = 918_273_645
PRIVATE_SEED = 564_738_291


@dataclass
class World:
    olga: User
    boris: User
    stranger: User
    running: Game  # Olga and Boris, a few moves in
    private: Game  # Olga's, open, private: seats by invitation or share link only
    finished: Game  # Olga and Boris, a draw, then "play again": a series
    series_id: int
    next_game: Game  # the series' second game, running
    notification: Notification  # Olga's
    players_message: ChatMessage  # in the running game's players' channel
    spectators_message: ChatMessage
    olga_token: ApiToken  # her API token; the token itself is in ``secrets``
    tournament: Tournament  # Olga's Swiss, under way: she and Boris play its first round's game
    #: Olga's second tournament, not rated, taking registrations: Olga and Boris registered.
    open_tournament: Tournament
    secrets: dict[str, str] = field(default_factory=dict)

    def hidden_traces(self) -> list[tuple[str, str]]:
        """(card, trace) for every card of a hand or the stock of the running game that has not
        been face up (played, the trump, a card shown to swap it): nobody outside may see one.
        (One game only: a card public in one game may be hidden in another.)"""
        self.running.refresh_from_db()
        assert self.running.state is not None
        shown = {self.running.state["shown_trump"]} - {None}
        return [
            (card, trace)
            for card in sorted(hidden_from(self.running, None, shown))
            for trace in card_traces(card)
            if trace.startswith(('"', "'", "&", ">"))
        ]


def _two_player_game(olga: User, boris: User, **options: Any) -> tuple[Game, list[User]]:
    """Olga's game that Boris joined (so it started); its users by position."""
    game = services.game_create(creator=olga, preset="classic", num_players=2, **options)
    services.game_join(user=boris, game_id=game.pk)
    game.refresh_from_db()
    by_position = {seat.position: seat.user for seat in game.seats.select_related("user")}
    return game, [by_position[0], by_position[1]]


def _tournament_under_way(olga: User, boris: User) -> Tournament:
    tournament = tournament_services.tournament_create(
        creator=olga,
        name="Olga's cup",
        format=Tournament.Format.SWISS,
        preset="classic",
        move_time=timedelta(days=1),
        rounds=2,
        starts_at=timezone.now() + timedelta(hours=1),
    )
    for user in (olga, boris):
        tournament_services.tournament_register(user=user, tournament_id=tournament.pk)
    assert tournament_services.advance(tournament_id=tournament.pk, now=tournament.starts_at)
    tournament.refresh_from_db()
    return tournament


def build_world() -> World:
    olga = User.objects.create_user("olga", OWNER_EMAIL, PASSWORD)
    boris = User.objects.create_user("boris", "boris@example.com", PASSWORD)
    stranger = User.objects.create_user("stranger", "stranger@example.com", PASSWORD)
    running, by_position = _two_player_game(olga, boris, seed=RUNNING_SEED)
    running = play_moves(running, by_position, 3)
    private = services.game_create(
        creator=olga, preset="classic", num_players=2, seed=PRIVATE_SEED, private=True
    )
    finished, by_position = _two_player_game(olga, boris, deal=DRAW_DEAL)
    finished = play_script(finished, by_position, DRAW_MOVES)
    assert finished.status == Game.Status.FINISHED
    next_game = series_services.start_next_game(user=olga, game_id=finished.pk, games_agreed=3)
    if next_game.status == Game.Status.OPEN:
        services.game_join(user=boris, game_id=next_game.pk, token=next_game.invite_token)
    next_game.refresh_from_db()
    assert next_game.status == Game.Status.ACTIVE, next_game.status
    # Olga's unread "your move" of the running game (one per game: it replaces the game's own).
    notification, _ = Notification.objects.update_or_create(
        user=olga,
        kind=Kind.YOUR_MOVE,
        game=running,
        read_at=None,
        defaults={"text": NOTIFICATION_TEXT, "params": {}},
    )
    players_message = ChatMessage.objects.create(
        game=running, author=olga, channel=ChatMessage.Channel.PLAYERS, text=PLAYERS_CHAT
    )
    spectators_message = ChatMessage.objects.create(
        game=running, author=stranger, channel=ChatMessage.Channel.SPECTATORS, text=SPECTATORS_CHAT
    )
    olga_token, olga_secret = tokens.token_create(user=olga, name="olga's bot")
    tournament = _tournament_under_way(olga, boris)
    tournament_game = Game.objects.get(tournament_table__round__tournament=tournament)
    world = World(
        olga=olga,
        boris=boris,
        stranger=stranger,
        running=running,
        private=private,
        finished=finished,
        series_id=next_game.series_entry.series_id,
        next_game=next_game,
        notification=notification,
        players_message=players_message,
        spectators_message=spectators_message,
        olga_token=olga_token,
        tournament=tournament,
        open_tournament=tournament_services.tournament_create(
            creator=olga,
            name="Olga's cup",
            format=Tournament.Format.SWISS,
            preset="classic",
            move_time=timedelta(days=1),
            rounds=3,
            starts_at=timezone.now() + timedelta(days=1),
            rated=False,
        ),
    )
    for owner in (olga, boris):
        tournament_services.tournament_register(user=owner, tournament_id=world.open_tournament.pk)
    private.refresh_from_db()
    world.secrets = {
        "the running game's seed": str(RUNNING_SEED),
        "the private game's seed": str(PRIVATE_SEED),
        "the series game's seed": str(next_game.seed),
        "the private game's share-link token": private.invite_token,
        "the running game's share-link token": running.invite_token,
        "the players' chat": PLAYERS_CHAT,
        "Olga's notification": NOTIFICATION_TEXT,
        "Olga's email address": OWNER_EMAIL,
        "Olga's API token": olga_secret,
        "the digest of Olga's API token": olga_token.digest,
        "the tournament game's seed": str(tournament_game.seed),
    }
    return world


def fingerprint(world: World) -> dict[str, Any]:
    """Everything of the owners' that a stranger must not be able to change."""
    owners = [world.olga.pk, world.boris.pk]
    return {
        "games": sorted(
            Game.objects.filter(creator_id__in=owners).values_list(
                "pk", "status", "version", "private", "invite_token", "bot_level"
            )
        ),
        "seats": sorted(
            Seat.objects.filter(game__creator_id__in=owners).values_list(
                "game_id", "user_id", "position", "result"
            )
        ),
        "moves": Move.objects.count(),
        "invitations": sorted(Invitation.objects.values_list("game_id", "user_id")),
        "players' chat": sorted(
            ChatMessage.objects.filter(channel=ChatMessage.Channel.PLAYERS).values_list(
                "pk", "text", "hidden_at"
            )
        ),
        "notifications": sorted(Notification.objects.filter(user_id__in=owners).values_list("pk", "read_at")),
        "preferences": sorted(map(str, Preferences.objects.filter(user_id__in=owners).values())),
        "API tokens": sorted(
            ApiToken.objects.filter(user_id__in=owners).values_list("pk", "digest", "name", "expiry")
        ),
        "users": sorted(
            User.objects.filter(pk__in=owners).values_list("pk", "username", "email", "password", "time_zone")
        ),
        "friends": sorted(Friendship.objects.filter(user_id__in=owners).values_list("user_id", "friend_id")),
        "friend requests sent": sorted(
            FriendRequest.objects.filter(sender_id__in=owners).values_list("pk", "recipient_id")
        ),
        "blocks": sorted(Block.objects.filter(blocker_id__in=owners).values_list("blocker_id", "blocked_id")),
        # A stranger's own registration moves a tournament's version on, never its state, and
        # adds only the stranger's own row.
        "tournaments": sorted(
            Tournament.objects.filter(creator_id__in=owners).values_list(
                "pk", "status", "official", "name", "round_number"
            )
        ),
        "tournament players": sorted(
            Player.objects.filter(user_id__in=owners).values_list("tournament_id", "user_id", "withdrawn")
        ),
    }
