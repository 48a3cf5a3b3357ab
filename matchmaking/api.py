"""The API of "Play now": ``/api/queue/`` — see (GET), join (POST) and leave (DELETE) the queue.

Thin over ``services`` and ``selectors``, with the API's error body (``api.exceptions``). A
client that waits asks ``GET`` now and then (every 30 seconds is enough): each call keeps the
player present, and an entry whose player asked nothing for ``services.QUEUE_STALE`` is dropped.
"""

from datetime import timedelta
from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import durak
from accounts import presence
from accounts.models import BOT_LEVELS
from api.serializers import ErrorSerializer
from api.views import caller, errors
from games.forms import TIME_CONTROLS
from games.limits import JOIN_LANGUAGES, limits_errors

from . import selectors, services
from .models import QueueEntry


class QueueJoinSerializer(serializers.Serializer[Any]):
    preset = serializers.ChoiceField(
        choices=list(durak.PRESETS), help_text="A rule set, with its own options."
    )
    players = serializers.IntegerField(
        min_value=min(services.PLAYER_COUNTS),
        max_value=max(services.PLAYER_COUNTS),
        help_text="Seats at the table.",
    )
    time_control = serializers.ChoiceField(
        choices=[value for value, _label, _wait in TIME_CONTROLS],
        help_text='The time for each move: "none", "30s", "2m", "1h", "12h", "1d", "3d" or "7d".',
    )
    fill_after_seconds = serializers.IntegerField(
        min_value=0,
        max_value=int(services.FILL_AFTER_MAX.total_seconds()),
        required=False,
        allow_null=True,
        default=None,
        help_text="Let computer players take the empty seats after this wait; null or left out: never.",
    )
    bot_level = serializers.ChoiceField(
        choices=[value for value, _label in BOT_LEVELS], required=False, default=services.DEFAULT_BOT_LEVEL
    )
    min_reliability = serializers.IntegerField(
        min_value=0,
        max_value=100,
        required=False,
        allow_null=True,
        default=None,
        help_text="Pair only with players whose reliability is at least this many percent "
        "(new players have none: not them); null or left out: anyone.",
    )
    friends_only = serializers.BooleanField(
        required=False, default=False, help_text="Pair only with your friends."
    )
    rating_min = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Pair only with players rated at least this in the game's mode (unrated: not them).",
    )
    rating_max = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Pair only with players rated at most this in the game's mode (unrated: not them).",
    )
    language = serializers.ChoiceField(
        choices=["", *(code for code, _name in JOIN_LANGUAGES)],
        required=False,
        default="",
        help_text="Pair only with players who use the site in this language; empty: any.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        wrong = limits_errors(
            min_reliability=attrs.get("min_reliability"),
            rating_min=attrs.get("rating_min"),
            rating_max=attrs.get("rating_max"),
            language=attrs.get("language") or "",
        )
        if wrong:
            raise serializers.ValidationError({name: [message] for name, message in wrong.items()})
        return attrs


class QueuePlayerSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    name = serializers.CharField()
    online = serializers.BooleanField(help_text="Active on the site in the last few minutes.")


class QueueBucketSerializer(serializers.Serializer[Any]):
    preset = serializers.CharField()
    players = serializers.IntegerField(source="num_players")
    time_control = serializers.CharField()
    waiting = serializers.IntegerField(source="count")


class QueueSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=["none", "waiting", "matched"],
        help_text="none: not waiting; waiting: in the queue; matched: your game was found (see game).",
    )
    preset = serializers.CharField(allow_null=True)
    players = serializers.IntegerField(allow_null=True)
    time_control = serializers.CharField(allow_null=True)
    fill_after_seconds = serializers.IntegerField(allow_null=True)
    bot_level = serializers.CharField(allow_null=True)
    min_reliability = serializers.IntegerField(allow_null=True)
    friends_only = serializers.BooleanField(allow_null=True)
    rating_min = serializers.IntegerField(allow_null=True)
    rating_max = serializers.IntegerField(allow_null=True)
    language = serializers.CharField(allow_null=True)
    joined_at = serializers.DateTimeField(allow_null=True)
    game = serializers.IntegerField(allow_null=True, help_text="The game found, once matched.")
    waiting_with = QueuePlayerSerializer(many=True, help_text="The others waiting for the same game.")
    queue = QueueBucketSerializer(many=True, help_text="Every game someone waits for, and how many.")
    online = serializers.IntegerField(help_text="People active on the site in the last few minutes.")


def queue_data(request: Request, joined: QueueEntry | None = None) -> dict[str, Any]:
    """The body of every answer; ``joined``: the entry the caller's join made (``queue_state``)."""
    user = caller(request)
    state = selectors.queue_state(user=user, joined=joined)
    entry = state.entry
    data: dict[str, Any] = {
        "status": "none" if entry is None else entry.status,
        "preset": None,
        "players": None,
        "time_control": None,
        "fill_after_seconds": None,
        "bot_level": None,
        "min_reliability": None,
        "friends_only": None,
        "rating_min": None,
        "rating_max": None,
        "language": None,
        "joined_at": None,
        "game": None,
        "waiting_with": [
            {"username": user.username, "name": user.name, "online": getattr(user, "online", False)}
            for user in state.waiting_with
        ],
        "queue": state.buckets,
        "online": state.online_count + int(presence.is_online(user)),  # the state leaves the caller out
    }
    if entry is not None:
        data.update(
            preset=entry.preset,
            players=entry.num_players,
            time_control=entry.time_control,
            fill_after_seconds=None if entry.fill_after is None else int(entry.fill_after.total_seconds()),
            bot_level=entry.bot_level,
            min_reliability=entry.min_reliability,
            friends_only=entry.friends_only,
            rating_min=entry.rating_min,
            rating_max=entry.rating_max,
            language=entry.language,
            joined_at=entry.joined_at,
            game=entry.game_id if entry.status == QueueEntry.Status.MATCHED else None,
        )
    return dict(QueueSerializer(data).data)


class QueueView(APIView):
    @extend_schema(responses={200: QueueSerializer, **errors()}, tags=["play now"])
    def get(self, request: Request) -> Response:
        """Your place in the play-now queue (or the game it found), and who waits for what."""
        return Response(queue_data(request))

    @extend_schema(
        request=QueueJoinSerializer,
        responses={
            201: QueueSerializer,
            **errors(400, 403),
            409: OpenApiResponse(
                ErrorSerializer,
                description="too_many_bot_games: with computer players allowed, you have "
                "BOT_GAMES_PER_USER games with them open or running already.",
            ),
        },
        tags=["play now"],
    )
    def post(self, request: Request) -> Response:
        """Wait for a game with these rules, players and time control (replacing your place, if
        any); when enough players wait, the game starts at once and ``game`` names it."""
        body = QueueJoinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        seconds = body.validated_data.get("fill_after_seconds")
        entry = services.queue_join(
            user=caller(request),
            preset=body.validated_data["preset"],
            num_players=body.validated_data["players"],
            time_control=body.validated_data["time_control"],
            fill_after=None if seconds is None else timedelta(seconds=seconds),
            bot_level=body.validated_data["bot_level"],
            min_reliability=body.validated_data.get("min_reliability"),
            friends_only=body.validated_data.get("friends_only", False),
            rating_min=body.validated_data.get("rating_min"),
            rating_max=body.validated_data.get("rating_max"),
            language=body.validated_data.get("language") or "",
        )
        return Response(queue_data(request, joined=entry), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: QueueSerializer, **errors(409)}, tags=["play now"])
    def delete(self, request: Request) -> Response:
        """Stop waiting (409 when you are not waiting, or your game was found already)."""
        services.queue_leave(user=caller(request))
        return Response(queue_data(request))
