"""Request and response bodies. Every response is built field by field from a declared
serializer, so only what is declared here can reach a client: the engine's view for the
caller's seat (never ``Game.state``, ``seed`` or ``deal``), seats, and the public move log.

The engine's own JSON (its actions, view and events) is declared once, as the engine's TypedDicts
(``durak.ACTION_SHAPES``, ``durak.View``, ``durak.EVENT_SHAPES``); ``api.engine_json`` makes its
serializers from those.
"""

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import durak
from games.forms import OPTION_INT_MAX
from games.leaving import claim_of
from games.limits import JOIN_LANGUAGES, limits_errors
from games.models import CORRESPONDENCE_FROM, Game, Move, Seat
from games.selectors import GameView
from games.services import MAX_MOVE_TIME, MIN_MOVE_TIME
from series.selectors import rematch_state

from .engine_json import (
    ActionField,
    EngineViewSerializer,
    EventField,
    LoggedActionField,
    RuleOverridesSerializer,
    RulesSerializer,
    public_events,
    without_player,
)
from .schema import END_REASONS, SEAT_RESULTS

#: The largest version a game can have (``Game.version`` is a PostgreSQL ``integer``).
MAX_VERSION = 2**31 - 1


# --- games ---------------------------------------------------------------------------------------


class TimeControlSerializer(serializers.Serializer[Any]):
    """Each player's time for each move. ``live``: under an hour a move (the site offers 30 and
    120 seconds); ``correspondence``: an hour or more (3600, 43200, 86400, 259200 and 604800 on
    the site), where vacations and ``pause_weekends`` stop the clock. Any whole number of
    seconds from 1 to 30 days is taken, as long as it matches its ``kind``."""

    kind = serializers.ChoiceField(
        choices=["live", "correspondence"],
        help_text="live: under an hour a move; correspondence: an hour or more.",
    )
    seconds = serializers.IntegerField(
        min_value=int(MIN_MOVE_TIME.total_seconds()),
        max_value=int(MAX_MOVE_TIME.total_seconds()),
        help_text="Time for each move, in seconds.",
    )
    pause_weekends = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Correspondence only: each player's clock stands still on their Saturday and Sunday.",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        correspondence = data["seconds"] >= CORRESPONDENCE_FROM.total_seconds()
        if data["kind"] == "live" and correspondence:
            raise serializers.ValidationError(
                {"seconds": _("A live game has under an hour a move; use kind correspondence.")}
            )
        if data["kind"] == "correspondence" and not correspondence:
            raise serializers.ValidationError(
                {"seconds": _("A correspondence game has an hour a move or more.")}
            )
        if data.get("pause_weekends") and data["kind"] != "correspondence":
            raise serializers.ValidationError(
                {"pause_weekends": _("Only correspondence clocks pause at weekends.")}
            )
        return data


def time_control_of(game: Game) -> dict[str, Any] | None:
    if game.move_time is None:
        return None
    return {
        "kind": game.time_control,
        "seconds": int(game.move_time.total_seconds()),
        "pause_weekends": game.pause_weekends,
    }


def reliability_field(source: str | None = None) -> serializers.IntegerField:
    """A player's reliability (``games.reliability``): the percent of their last 50 finished
    rated games with another person that they saw to the end; null while they are new (fewer than 10
    such games) or a computer."""
    words = (
        "Percent of the player's last 50 finished rated games with another person that they did not "
        "leave (by a timeout, a resignation or a claim against them); null while they have fewer "
        "than 10 such games (new), and for computers."
    )
    if source is None:  # DRF refuses a source equal to the field's name
        return serializers.IntegerField(allow_null=True, min_value=0, max_value=100, help_text=words)
    return serializers.IntegerField(
        source=source, allow_null=True, min_value=0, max_value=100, help_text=words
    )


class SeatSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField(help_text="The engine's player number.")
    username = serializers.CharField(source="user.username")
    bot = serializers.BooleanField(source="user.is_bot", help_text="A computer player (issue 11).")
    reliability = reliability_field("user.reliability")
    awaiting_move = serializers.BooleanField()
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When this player runs out of time for the move awaited; null otherwise."
    )
    result = serializers.SerializerMethodField()
    place = serializers.IntegerField(allow_null=True, help_text="1 for the first player out, and so on.")

    @extend_schema_field(
        serializers.ChoiceField(
            choices=SEAT_RESULTS,
            allow_null=True,
            help_text="null while playing; once the game is over: out (went out, see place), fool "
            "(in a team game, each player of the losing side), draw, or won (not the fool, still "
            "holding cards when a timeout or resignation ended the game).",
        )
    )
    def get_result(self, seat: Seat) -> str | None:
        return seat.result or None


class GameSummarySerializer(serializers.Serializer[Any]):
    """A game in a list: who sits where, never any card."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    version = serializers.IntegerField()
    preset = serializers.CharField()
    num_players = serializers.IntegerField()
    creator = serializers.CharField(source="creator.username")
    seats = SeatSerializer(source="seats.all", many=True)
    time_control = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(TimeControlSerializer(allow_null=True, help_text="null: no time limit."))
    def get_time_control(self, game: Game) -> dict[str, Any] | None:
        return time_control_of(game)


class ResultSerializer(serializers.Serializer[Any]):
    """How a finished game came out: the engine's ``durak.Outcome``."""

    reason = serializers.ChoiceField(choices=END_REASONS, help_text="Why the game ended.")
    loser = serializers.IntegerField(
        allow_null=True, help_text="The fool's seat; null for a draw or a team game."
    )
    loser_username = serializers.CharField(allow_null=True)
    losing_team = serializers.IntegerField(
        allow_null=True, help_text="In team games: the team that lost (its seats in view.teams)."
    )
    losers = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Every seat that lost: the fool, or each player of the losing team; empty for a draw.",
    )
    order_out = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats that went out, the first out first."
    )
    draw = serializers.BooleanField(help_text="Nobody lost: the last cards went out on every side at once.")


class RematchAnswerSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(source="user.username")
    accepted = serializers.BooleanField()


class RematchSerializer(serializers.Serializer[Any]):
    """A finished game's offer of a rematch (``series.selectors.RematchState``)."""

    status = serializers.ChoiceField(
        choices=["none", "open", "accepted", "declined", "expired"],
        help_text="none: nothing offered; open: waiting for answers; accepted: the next game started.",
    )
    offered_by = serializers.CharField(source="offer.offered_by.username", allow_null=True, default=None)
    games_agreed = serializers.SerializerMethodField()
    series_game = serializers.IntegerField(
        source="next_number",
        allow_null=True,
        help_text="The next game's number when the game's series goes on.",
    )
    expires_at = serializers.DateTimeField(source="offer.expires_at", allow_null=True, default=None)
    declined_by = serializers.SerializerMethodField()
    answers = RematchAnswerSerializer(many=True, help_text="Every player, in seat order.")
    next_game = serializers.IntegerField(
        source="next_game_id", allow_null=True, help_text="Its id once started."
    )
    can_offer = serializers.BooleanField()
    can_answer = serializers.BooleanField(help_text="You may accept or decline (you have not accepted yet).")

    @extend_schema_field(serializers.IntegerField(allow_null=True, help_text="The series length proposed."))
    def get_games_agreed(self, state: Any) -> int | None:
        if state.offer is None:
            return None
        return int(state.series_games or state.offer.games_agreed)

    @extend_schema_field(serializers.CharField(allow_null=True, help_text="Who declined or withdrew it."))
    def get_declined_by(self, state: Any) -> str | None:
        if state.status != "declined" or state.offer.decided_by is None:
            return None
        return str(state.offer.decided_by.username)


class RematchOfferSerializer(serializers.Serializer[Any]):
    games_agreed = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=500,
        help_text="The new series' length, the finished game its first (unused when its series goes on).",
    )


class ClaimSerializer(serializers.Serializer[Any]):
    """A claim you may make now or later, if nobody moves before (the engine's answer)."""

    possible = serializers.BooleanField(help_text="You may claim the game now.")
    possible_from = serializers.DateTimeField(help_text="When a claim becomes possible if nobody moves.")
    waited_since = serializers.DateTimeField(
        help_text="Since when the game has waited on the same players (its last move)."
    )
    against = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats the claim is against, the fool first."
    )


class JoinLimitsSerializer(serializers.Serializer[Any]):
    """Who may take a seat (``games.limits``): each limit left out or null is no limit."""

    friends_only = serializers.BooleanField(
        required=False, default=False, help_text="Only friends of the creator."
    )
    min_reliability = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Only players whose reliability is at least this many percent (0 to 100); new "
        "players have none and are not let in.",
    )
    rating_min = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Only players rated at least this in the game's mode (unrated players: not).",
    )
    rating_max = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Only players rated at most this in the game's mode (unrated players: not).",
    )
    language = serializers.ChoiceField(
        choices=["", *(code for code, _name in JOIN_LANGUAGES)],
        required=False,
        default="",
        help_text='Only players whose site language is this; "": any.',
    )


def join_limits_of(game: Game) -> dict[str, Any]:
    return {
        "friends_only": game.join_friends_only,
        "min_reliability": game.join_min_reliability,
        "rating_min": game.join_rating_min,
        "rating_max": game.join_rating_max,
        "language": game.join_language,
    }


class GameDetailSerializer(serializers.Serializer[Any]):
    """A game as one user sees it. Built from ``games.selectors.GameView``."""

    id = serializers.IntegerField(source="game.pk")
    status = serializers.ChoiceField(choices=Game.Status.choices, source="game.status")
    version = serializers.IntegerField(source="game.version", help_text="Send it back as expected_version.")
    preset = serializers.CharField(source="game.preset")
    rules = RulesSerializer(source="game.rules")
    num_players = serializers.IntegerField(source="game.num_players")
    creator = serializers.CharField(source="game.creator.username")
    created_at = serializers.DateTimeField(source="game.created_at")
    started_at = serializers.DateTimeField(source="game.started_at", allow_null=True)
    finished_at = serializers.DateTimeField(source="game.finished_at", allow_null=True)
    seats = SeatSerializer(source="game.seats.all", many=True)
    time_control = serializers.SerializerMethodField()
    position = serializers.IntegerField(allow_null=True, help_text="Your seat; null if you have none.")
    view = serializers.SerializerMethodField()
    legal_actions = serializers.SerializerMethodField()
    deadline = serializers.DateTimeField(
        source="game.deadline",
        allow_null=True,
        help_text="The earliest deadline of the players the game waits for (each seat has its own); "
        "null without a time control or when nobody is on the clock.",
    )
    result = serializers.SerializerMethodField()
    rematch = serializers.SerializerMethodField()
    claim = serializers.SerializerMethodField()
    join_limits = serializers.SerializerMethodField()

    @extend_schema_field(JoinLimitsSerializer(help_text="Who may take a seat (set by the creator)."))
    def get_join_limits(self, seen: GameView) -> dict[str, Any]:
        return join_limits_of(seen.game)

    @extend_schema_field(
        ClaimSerializer(
            allow_null=True,
            help_text="Your claim of a running game without a clock (POST .../claim/), shown once it "
            "has waited a day on the others; null otherwise.",
        )
    )
    def get_claim(self, seen: GameView) -> dict[str, Any] | None:
        found = claim_of(game=seen.game, seat=seen.seat)
        if found is None:
            return None
        return dict(
            ClaimSerializer(
                {
                    "possible": found.possible,
                    "possible_from": found.possible_from,
                    "waited_since": found.since,
                    "against": found.against_seats,
                }
            ).data
        )

    @extend_schema_field(TimeControlSerializer(allow_null=True, help_text="null: no time limit."))
    def get_time_control(self, seen: GameView) -> dict[str, Any] | None:
        return time_control_of(seen.game)

    @extend_schema_field(RematchSerializer(allow_null=True, help_text="null until the game is finished."))
    def get_rematch(self, seen: GameView) -> dict[str, Any] | None:
        if seen.game.status != Game.Status.FINISHED:
            return None
        viewer = seen.seat.user if seen.seat is not None else None  # a spectator may only read it
        return dict(RematchSerializer(rematch_state(game=seen.game, viewer=viewer)).data)

    @extend_schema_field(EngineViewSerializer(allow_null=True, help_text="null until the cards are dealt."))
    def get_view(self, seen: GameView) -> dict[str, Any] | None:
        return None if seen.view is None else dict(EngineViewSerializer(seen.view).data)

    @extend_schema_field(serializers.ListField(child=ActionField(), help_text="What you may do now."))
    def get_legal_actions(self, seen: GameView) -> list[dict[str, Any]]:
        if seen.view is None or seen.position is None:
            return []
        return [ActionField().to_representation(without_player(action)) for action in seen.view["actions"]]

    @extend_schema_field(ResultSerializer(allow_null=True, help_text="null until the game is finished."))
    def get_result(self, seen: GameView) -> dict[str, Any] | None:
        outcome = seen.outcome
        if seen.game.status != Game.Status.FINISHED or outcome is None:
            return None
        names = {seat.position: seat.user.username for seat in seen.game.seats.all()}
        return {
            "reason": outcome.reason,
            "loser": outcome.loser,
            "loser_username": names.get(outcome.loser) if outcome.loser is not None else None,
            "losing_team": outcome.losing_team,
            "losers": list(outcome.losers),
            "order_out": list(outcome.order_out),
            "draw": outcome.draw,
        }


class GameCreateSerializer(serializers.Serializer[Any]):
    preset = serializers.ChoiceField(choices=list(durak.PRESETS), help_text="A rule set: see durak.PRESETS.")
    options = RuleOverridesSerializer(required=False, help_text="Rule options that differ from the preset.")
    players = serializers.IntegerField(
        # No table seats more players than the largest deck has cards; the rules' own limit is
        # the engine's (invalid_rules).
        min_value=2,
        max_value=OPTION_INT_MAX,
        help_text="Seats at the table, the creator's included.",
    )
    time_control = TimeControlSerializer(
        required=False, allow_null=True, default=None, help_text="null or left out: no time limit."
    )
    private = serializers.BooleanField(
        required=False, default=False, help_text="Not listed: players join by invitation or share link."
    )
    join_limits = JoinLimitsSerializer(
        required=False,
        default=None,
        allow_null=True,
        help_text="Who may join (the creator's invitation lets past these, never past a block); "
        "left out: anyone.",
    )

    def validate_join_limits(self, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is None:
            return None
        wrong = limits_errors(
            min_reliability=value.get("min_reliability"),
            rating_min=value.get("rating_min"),
            rating_max=value.get("rating_max"),
            language=value.get("language") or "",
        )
        if wrong:
            raise serializers.ValidationError({name: [message] for name, message in wrong.items()})
        return value


class LeavePostSerializer(serializers.Serializer[Any]):
    expected_version = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_VERSION,
        help_text="The game's version you saw: refused (stale_version) if it has moved on since.",
    )


class ActionPostSerializer(serializers.Serializer[Any]):
    action = ActionField(help_text='One of your legal_actions, without "player".')
    expected_version = serializers.IntegerField(
        min_value=0, max_value=MAX_VERSION, help_text="The game's version you saw."
    )


class MoveSerializer(serializers.Serializer[Any]):
    """One entry of the public log: every card in it was played face up."""

    seq = serializers.IntegerField()
    player = serializers.SerializerMethodField()
    by_server = serializers.SerializerMethodField()
    action = serializers.SerializerMethodField()
    events = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()

    @extend_schema_field(
        serializers.ListField(
            child=EventField(),
            help_text="What the action led to, in order: public facts only (no card that was not face up).",
        )
    )
    def get_events(self, move: Move) -> list[dict[str, Any]]:
        return public_events(move.events)

    @extend_schema_field(serializers.IntegerField(help_text="The seat the action was for."))
    def get_player(self, move: Move) -> int:
        return int(move.action["player"])

    @extend_schema_field(
        serializers.BooleanField(help_text="Applied by the server (a timeout), not the player.")
    )
    def get_by_server(self, move: Move) -> bool:
        return move.position is None

    @extend_schema_field(LoggedActionField())
    def get_action(self, move: Move) -> dict[str, Any]:
        return LoggedActionField().to_representation(without_player(move.action))


class UserSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    games_waiting = serializers.IntegerField(help_text="Running games waiting for your move.")
    reliability = reliability_field()
    reliability_games = serializers.IntegerField(
        help_text="Finished rated games with another person counted (at most 50)."
    )
    reliability_left = serializers.IntegerField(
        help_text="Of those, the games you left: ran out of time, resigned, or had claimed against you."
    )


class ErrorSerializer(serializers.Serializer[Any]):
    """Every error: a message for people, a code for programs."""

    detail = serializers.CharField()
    code = serializers.CharField(help_text="illegal_move, stale_version, not_allowed, wrong_status, ...")
    # A declared field is taken out of the class body by DRF's metaclass, so it does not hide
    # Serializer.errors at run time; mypy only sees the class attribute.
    errors = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="Field -> messages, when the input did not validate."
    )
