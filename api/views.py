"""The REST API: thin views over ``games.services`` (writes) and ``games.selectors`` (reads).

No rule or permission is decided here: a service raises a ``GameError`` that
``api.exceptions`` turns into the error body, with the engine's message for an
illegal move.
"""

from datetime import timedelta
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from games import selectors, services
from games.models import Game, Move
from series import services as series_services

from .serializers import (
    ActionPostSerializer,
    ErrorSerializer,
    GameCreateSerializer,
    GameDetailSerializer,
    GameSummarySerializer,
    LeavePostSerializer,
    MoveSerializer,
    RematchOfferSerializer,
    UserSerializer,
)


@csrf_exempt  # nothing is changed; the answer is the same JSON 404 for every method
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any other address under /api/: the API's error body rather than the site's HTML page."""
    return JsonResponse({"detail": _("There is nothing at this address."), "code": "not_found"}, status=404)


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """Error responses for the schema: 400 can happen on any call (a control character in the
    address, ``durak_site.middleware``), 401 and 429 on any authenticated one."""
    return {code: OpenApiResponse(ErrorSerializer) for code in sorted({*codes, 400, 401, 429})}


def caller(request: Request) -> User:
    """The logged-in user of a view behind ``IsAuthenticated`` (the API's default permission)."""
    user = request.user
    if not isinstance(user, User):  # only a view that allows anonymous callers gets here
        raise NotAuthenticated()
    return user


def viewer_game(request: Request, game_id: int) -> Game:
    """The game if the caller may see it (``games.selectors.game_visible_to``); else the
    ``GameNotFound`` of a missing game, word for word."""
    return selectors.game_get_for_viewer(
        game_id=game_id, user=request.user, shared_game_ids=selectors.share_link_game_ids(request.session)
    )


def game_detail_data(request: Request, game_id: int) -> dict[str, Any]:
    game = viewer_game(request, game_id)
    return dict(GameDetailSerializer(selectors.game_view(game=game, user=request.user)).data)


class MeView(APIView):
    @extend_schema(responses={200: UserSerializer, **errors()}, tags=["auth"])
    def get(self, request: Request) -> Response:
        user = caller(request)
        waiting = selectors.game_list(user=user, waiting_for_me=True).count()
        return Response(
            UserSerializer(
                {
                    "id": user.pk,
                    "username": user.username,
                    "email": user.email,
                    "games_waiting": waiting,
                    "reliability": user.reliability,
                    "reliability_games": user.reliability_games,
                    "reliability_left": user.reliability_left,
                }
            ).data
        )


class GameListFilters(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=Game.Status.choices, required=False)
    mine = serializers.BooleanField(required=False, default=False, help_text="Games you have a seat in.")
    waiting_for_me = serializers.BooleanField(
        required=False, default=False, help_text="Running games waiting for your move."
    )
    open_to_join = serializers.BooleanField(
        required=False, default=False, help_text="Open games with a free seat that you are not in."
    )


class GameListView(generics.GenericAPIView[Game]):
    serializer_class = GameSummarySerializer

    @extend_schema(
        parameters=[GameListFilters],
        responses={200: GameSummarySerializer(many=True), **errors(400, 404)},
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        """Games, newest first; the filters combine."""
        filters = GameListFilters(data=request.query_params)
        filters.is_valid(raise_exception=True)
        games = selectors.game_list(
            user=caller(request),
            shared_game_ids=selectors.share_link_game_ids(request.session),
            **filters.validated_data,
        )
        page = self.paginate_queryset(games)
        return self.get_paginated_response(GameSummarySerializer(page, many=True).data)

    @extend_schema(
        request=GameCreateSerializer,
        responses={201: GameDetailSerializer, **errors(400)},
        tags=["games"],
    )
    def post(self, request: Request) -> Response:
        """Open a game and take its first seat; it starts by itself when the last seat is taken."""
        body = GameCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        clock = body.validated_data.get("time_control")
        game = services.game_create(
            creator=caller(request),
            preset=body.validated_data["preset"],
            num_players=body.validated_data["players"],
            overrides=body.validated_data.get("options") or {},
            move_time=None if clock is None else timedelta(seconds=clock["seconds"]),
            pause_weekends=bool(clock and clock["pause_weekends"]),
            private=body.validated_data["private"],
            **join_limits_arguments(body.validated_data.get("join_limits")),
        )
        return Response(game_detail_data(request, game.pk), status=status.HTTP_201_CREATED)


def join_limits_arguments(limits: dict[str, Any] | None) -> dict[str, Any]:
    """The API's ``join_limits`` as ``services.game_create`` takes them."""
    if not limits:
        return {}
    return {
        "join_friends_only": limits.get("friends_only", False),
        "join_min_reliability": limits.get("min_reliability"),
        "join_rating_min": limits.get("rating_min"),
        "join_rating_max": limits.get("rating_max"),
        "join_language": limits.get("language", ""),
    }


class GameDetailView(APIView):
    @extend_schema(responses={200: GameDetailSerializer, **errors(404)}, tags=["games"])
    def get(self, request: Request, game_id: int) -> Response:
        """The game as you may see it: your hand, the table, and what you may do now."""
        return Response(game_detail_data(request, game_id))


class _SeatActionView(APIView):
    """POST: a service of ``(user, game_id)`` on a game the caller may see, answered with the game
    (joining, leaving, starting; a rematch's accept and decline)."""

    service: Any = None

    def post(self, request: Request, game_id: int) -> Response:
        viewer_game(request, game_id)  # a game the caller may not see: 404 before anything is tried
        type(self).service(user=caller(request), game_id=game_id)
        return Response(game_detail_data(request, game_id))


_seat_schema = extend_schema(
    request=None, responses={200: GameDetailSerializer, **errors(403, 404, 409)}, tags=["games"]
)


@_seat_schema
class GameJoinView(_SeatActionView):
    """Take the lowest free seat; the cards are dealt when it was the last one."""

    service = services.game_join


@_seat_schema
class GameLeaveView(_SeatActionView):
    """Leave a game that has not started; the creator leaving cancels it."""

    service = services.game_leave


@_seat_schema
class GameStartView(_SeatActionView):
    """Deal now, before every seat is taken (the creator, with at least two players)."""

    service = services.game_start


_rematch_schema = extend_schema(
    request=None,
    responses={
        200: GameDetailSerializer,
        403: OpenApiResponse(ErrorSerializer, description="You were no player of this game."),
        409: OpenApiResponse(ErrorSerializer, description="Not finished, or no open offer to answer."),
        **errors(404),
    },
    tags=["rematch"],
)


class RematchOfferView(APIView):
    @extend_schema(
        request=RematchOfferSerializer,
        responses={
            200: GameDetailSerializer,
            403: OpenApiResponse(ErrorSerializer, description="You were no player of this game."),
            409: OpenApiResponse(ErrorSerializer, description="Not finished, an offer open, or a next game."),
            **errors(404),
        },
        tags=["rematch"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Offer the players of a finished game the next one (you accept it by offering). It starts
        when all have accepted; the game's ``rematch`` shows the answers and then ``next_game``."""
        body = RematchOfferSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        viewer_game(request, game_id)
        series_services.rematch_offer(
            user=caller(request), game_id=game_id, games_agreed=body.validated_data.get("games_agreed")
        )
        return Response(game_detail_data(request, game_id))


@_rematch_schema
class RematchAcceptView(_SeatActionView):
    """Accept the open offer of a rematch; the last player to accept starts the next game."""

    service = series_services.rematch_accept


@_rematch_schema
class RematchDeclineView(_SeatActionView):
    """Decline the open offer of a rematch (or withdraw your own): it ends for everyone."""

    service = series_services.rematch_decline


class GameActionView(APIView):
    @extend_schema(
        request=ActionPostSerializer,
        responses={
            200: GameDetailSerializer,
            400: OpenApiResponse(ErrorSerializer, description="Illegal action: the engine's message."),
            403: OpenApiResponse(ErrorSerializer, description="You have no seat in this game."),
            409: OpenApiResponse(ErrorSerializer, description="Stale expected_version, or not running."),
            **errors(404),
        },
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Make a move: one of your legal_actions, against the version you saw."""
        body = ActionPostSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        # The move decides on its own locked read who may see the game (a game the caller may not
        # see: 404, not "no seat"), and the answer is built from what it wrote: no second read.
        game = services.make_move(
            user=caller(request),
            game_id=game_id,
            action=body.validated_data["action"],
            expected_version=body.validated_data["expected_version"],
            shared_game_ids=selectors.share_link_game_ids(request.session),
        )
        return Response(GameDetailSerializer(selectors.game_view(game=game, user=request.user)).data)


class GameMovesView(generics.GenericAPIView[Move]):
    serializer_class = MoveSerializer

    @extend_schema(responses={200: MoveSerializer(many=True), **errors(404)}, tags=["games"])
    def get(self, request: Request, game_id: int) -> Response:
        """The public move log, oldest first."""
        selectors.game_version_for_viewer(
            game_id=game_id, user=request.user, shared_game_ids=selectors.share_link_game_ids(request.session)
        )
        page = self.paginate_queryset(selectors.game_moves(game_id=game_id))
        return self.get_paginated_response(MoveSerializer(page, many=True).data)


# Leaving a running game: resign, or claim a game without a clock that waited too long. Not moves
# (never in legal_actions): the engine's system actions, each with its own address like join/leave.


class _LeaveView(APIView):
    service: Any = None

    def post(self, request: Request, game_id: int) -> Response:
        body = LeavePostSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        viewer_game(request, game_id)  # a game the caller may not see: 404, not "no seat"
        type(self).service(
            user=caller(request),
            game_id=game_id,
            expected_version=body.validated_data.get("expected_version"),
        )
        return Response(game_detail_data(request, game_id))


def _leave_schema(refused: str) -> Any:
    return extend_schema(
        request=LeavePostSerializer,
        responses={
            200: GameDetailSerializer,
            400: OpenApiResponse(ErrorSerializer, description=refused),
            403: OpenApiResponse(ErrorSerializer, description="You have no seat in this game."),
            409: OpenApiResponse(
                ErrorSerializer, description="Stale expected_version, or the game is not running."
            ),
            **errors(404),
        },
        tags=["games"],
    )


@_leave_schema("The engine refused: you are out of the game already (illegal_move).")
class GameResignView(_LeaveView):
    """Resign: the engine's ``resign``; you are the fool at once (in a team game your team
    loses). Logged in the move log as a ``resign`` by your seat."""

    service = services.player_resign


@_leave_schema(
    "The engine refused the claim (illegal_move): too early, the game waits for you, it has a "
    "clock, or it waits only for your partner. The game's ``claim`` says when one is possible."
)
class GameClaimView(_LeaveView):
    """Claim a game without a clock that has waited ``rules.claim_after_days`` on the same
    players with no move made: the engine's ``claim``; those players lose as if they had
    resigned (the first of them in ``claim.against`` is the fool). Logged as a ``claim`` by your
    seat, with the seconds waited."""

    service = services.game_claim
