"""The club over the API: friends, friend requests, blocks, private notes and privacy.

Thin views over ``accounts.relations``, the same rules as the pages: a refusal is its
``RelationError`` (400, code ``relation_error``, ``api.exceptions``), a player who does not
exist is a 404. A block is silent here too: a friend request to a player who blocked you is
answered like any other, and nothing in an answer says who blocked you. Notes are the caller's
own: no endpoint reads anyone else's. The privacy settings go through the settings page's own
form (``accounts.forms.PrivacyForm``), so both accept and refuse the same values.
"""

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import relations
from accounts.forms import PrivacyForm
from accounts.models import INVITES_FROM, PRESENCE_TO, Block, FriendRequest, Friendship, PlayerNote, User

from .serializers import ErrorSerializer, reliability_field
from .views import caller, errors


def player(username: str) -> User:
    """The active player of that name; else a 404 (``NotFound``) in the API's error body."""
    found = User.objects.filter(username=username, is_active=True).first()
    if found is None:
        raise NotFound(_("There is no player %(name)s.") % {"name": username})
    return found


class PlayerRefSerializer(serializers.Serializer[Any]):
    """A player as the club lists them: never anything of their relations with others."""

    username = serializers.CharField()
    name = serializers.CharField(help_text="The name shown on the site.")
    bot = serializers.BooleanField(source="is_bot")
    reliability = reliability_field()
    reliability_games = serializers.IntegerField(
        help_text="Finished rated games with another person counted (at most 50)."
    )


class FriendSerializer(serializers.Serializer[Any]):
    friend = PlayerRefSerializer()
    since = serializers.DateTimeField()
    online = serializers.BooleanField(
        allow_null=True, help_text="Online now; null when their privacy settings do not show it to you."
    )
    last_seen = serializers.DateTimeField(
        allow_null=True, help_text="When they were last active; null when not shown to you."
    )


class FriendRequestSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    sender = PlayerRefSerializer()
    recipient = PlayerRefSerializer()
    created_at = serializers.DateTimeField()


class FriendRequestsSerializer(serializers.Serializer[Any]):
    incoming = FriendRequestSerializer(many=True, help_text="Requests to you, newest first.")
    outgoing = FriendRequestSerializer(many=True, help_text="Your requests, newest first.")


class UsernameSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)


class FriendRequestSentSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=["requested", "friends"],
        help_text="requested: a request waits for their answer; friends: you are friends (they "
        "had asked you, or you were friends already).",
    )
    request = FriendRequestSerializer(allow_null=True, help_text="The request sent; null when friends.")


class BlockSerializer(serializers.Serializer[Any]):
    blocked = PlayerRefSerializer()
    created_at = serializers.DateTimeField()


class NoteSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(help_text="The player the note is about.")
    text = serializers.CharField(allow_blank=True, help_text="Your note; empty when you have none.")
    updated_at = serializers.DateTimeField(allow_null=True)


class NoteWriteSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(
        allow_blank=True,
        trim_whitespace=False,
        help_text=f"At most {relations.NOTE_MAX} characters; empty removes the note.",
    )


def _friend_data(me: User, friendship: Friendship) -> dict[str, Any]:
    presence = relations.presence_of(viewer=me, subject=friendship.friend)
    online, last_seen = presence if presence is not None else (None, None)
    return {"friend": friendship.friend, "since": friendship.since, "online": online, "last_seen": last_seen}


def _request_data(request: FriendRequest) -> dict[str, Any]:
    return {
        "id": request.pk,
        "sender": request.sender,
        "recipient": request.recipient,
        "created_at": request.created_at,
    }


_NO_SUCH_PLAYER = OpenApiResponse(ErrorSerializer, description="There is no such player.")


class FriendListView(generics.GenericAPIView[Friendship]):
    serializer_class = FriendSerializer

    def get_queryset(self) -> QuerySet[Friendship]:
        return (
            Friendship.objects.filter(user=caller(self.request))
            .select_related("friend")
            .order_by("-since", "pk")
        )

    @extend_schema(responses={200: FriendSerializer(many=True), **errors(404)}, tags=["friends"])
    def get(self, request: Request) -> Response:
        """Your friends, the newest first, with their presence as their privacy settings let you see it."""
        me = caller(request)
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(
            FriendSerializer([_friend_data(me, f) for f in page or []], many=True).data
        )


class FriendDetailView(APIView):
    @extend_schema(responses={204: None, 404: _NO_SUCH_PLAYER, **errors()}, tags=["friends"])
    def delete(self, request: Request, username: str) -> Response:
        """No longer friends, both ways (they are not told). Nothing happens if you were not."""
        relations.friend_remove(user=caller(request), other=player(username))
        return Response(status=status.HTTP_204_NO_CONTENT)


class FriendRequestListView(APIView):
    @extend_schema(responses={200: FriendRequestsSerializer, **errors()}, tags=["friends"])
    def get(self, request: Request) -> Response:
        """The requests you may answer and the ones you sent."""
        me = caller(request)
        data = {
            "incoming": [_request_data(r) for r in relations.incoming_requests(me)],
            "outgoing": [_request_data(r) for r in relations.outgoing_requests(me)],
        }
        return Response(FriendRequestsSerializer(data).data)

    @extend_schema(
        request=UsernameSerializer,
        responses={
            201: FriendRequestSentSerializer,
            200: FriendRequestSentSerializer,
            400: OpenApiResponse(ErrorSerializer, description="Refused (relation_error), or not valid."),
            404: _NO_SUCH_PLAYER,
            **errors(),
        },
        tags=["friends"],
    )
    def post(self, request: Request) -> Response:
        """Ask a player to be friends. If they had asked you, you are friends now (200)."""
        body = UsernameSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        made = relations.friend_request_send(
            sender=caller(request), recipient=player(body.validated_data["username"])
        )
        if isinstance(made, Friendship):
            return Response(FriendRequestSentSerializer({"status": "friends", "request": None}).data)
        data = {"status": "requested", "request": _request_data(made)}
        return Response(FriendRequestSentSerializer(data).data, status=status.HTTP_201_CREATED)


_ANSWER_REFUSED = OpenApiResponse(
    ErrorSerializer, description="There is no such friend request (relation_error)."
)


class FriendRequestDetailView(APIView):
    @extend_schema(responses={204: None, 400: _ANSWER_REFUSED, **errors(404)}, tags=["friends"])
    def delete(self, request: Request, request_id: int) -> Response:
        """Cancel a request you sent."""
        relations.friend_request_cancel(user=caller(request), request_id=request_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FriendRequestAcceptView(APIView):
    @extend_schema(
        request=None, responses={200: FriendSerializer, 400: _ANSWER_REFUSED, **errors(404)}, tags=["friends"]
    )
    def post(self, request: Request, request_id: int) -> Response:
        """Accept a request to you: you are friends."""
        me = caller(request)
        friendship = relations.friend_request_accept(user=me, request_id=request_id)
        return Response(FriendSerializer(_friend_data(me, friendship)).data)


class FriendRequestDeclineView(APIView):
    @extend_schema(request=None, responses={204: None, 400: _ANSWER_REFUSED, **errors(404)}, tags=["friends"])
    def post(self, request: Request, request_id: int) -> Response:
        """Decline a request to you (its sender is not told)."""
        relations.friend_request_decline(user=caller(request), request_id=request_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BlockListView(generics.GenericAPIView[Block]):
    serializer_class = BlockSerializer

    def get_queryset(self) -> QuerySet[Block]:
        return (
            Block.objects.filter(blocker=caller(self.request))
            .select_related("blocked")
            .order_by("-created_at", "-pk")
        )

    @extend_schema(responses={200: BlockSerializer(many=True), **errors(404)}, tags=["blocks"])
    def get(self, request: Request) -> Response:
        """The players you blocked, the latest first (only you see this list)."""
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(BlockSerializer(page, many=True).data)

    @extend_schema(
        request=UsernameSerializer,
        responses={
            201: BlockSerializer,
            400: OpenApiResponse(ErrorSerializer, description="Refused (relation_error), or not valid."),
            404: _NO_SUCH_PLAYER,
            **errors(),
        },
        tags=["blocks"],
    )
    def post(self, request: Request) -> Response:
        """Block a player: from their next game on you are kept apart; they are not told. A
        friendship between you ends. Blocking again changes nothing."""
        body = UsernameSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        made = relations.block(blocker=caller(request), blocked=player(body.validated_data["username"]))
        return Response(BlockSerializer(made).data, status=status.HTTP_201_CREATED)


class BlockDetailView(APIView):
    @extend_schema(responses={204: None, 404: _NO_SUCH_PLAYER, **errors()}, tags=["blocks"])
    def delete(self, request: Request, username: str) -> Response:
        """Unblock a player (nothing happens if you had not blocked them)."""
        relations.unblock(blocker=caller(request), blocked=player(username))
        return Response(status=status.HTTP_204_NO_CONTENT)


def _note_data(about: User, note: PlayerNote | None) -> dict[str, Any]:
    return {
        "username": about.username,
        "text": note.text if note is not None else "",
        "updated_at": note.updated_at if note is not None else None,
    }


class NoteView(APIView):
    @extend_schema(responses={200: NoteSerializer, 404: _NO_SUCH_PLAYER, **errors()}, tags=["notes"])
    def get(self, request: Request, username: str) -> Response:
        """Your private note about a player (empty when you have none). Only you see it."""
        about = player(username)
        note = PlayerNote.objects.filter(author=caller(request), about=about).first()
        return Response(NoteSerializer(_note_data(about, note)).data)

    @extend_schema(
        request=NoteWriteSerializer,
        responses={
            200: NoteSerializer,
            400: OpenApiResponse(
                ErrorSerializer, description="Too long, or about yourself (relation_error)."
            ),
            404: _NO_SUCH_PLAYER,
            **errors(),
        },
        tags=["notes"],
    )
    def put(self, request: Request, username: str) -> Response:
        """Write or change your note about a player; an empty text removes it."""
        body = NoteWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        about = player(username)
        note = relations.note_set(author=caller(request), about=about, text=body.validated_data["text"])
        return Response(NoteSerializer(_note_data(about, note)).data)

    @extend_schema(responses={204: None, 404: _NO_SUCH_PLAYER, **errors()}, tags=["notes"])
    def delete(self, request: Request, username: str) -> Response:
        """Remove your note about a player (nothing happens if you had none)."""
        about = player(username)
        if about.pk != caller(request).pk:
            relations.note_set(author=caller(request), about=about, text="")
        return Response(status=status.HTTP_204_NO_CONTENT)


class PrivacySerializer(serializers.Serializer[Any]):
    presence_to = serializers.ChoiceField(
        choices=[value for value, _label in PRESENCE_TO],
        required=False,
        help_text="Who sees whether you are online now and the day you were last seen.",
    )
    invites_from = serializers.ChoiceField(
        choices=[value for value, _label in INVITES_FROM],
        required=False,
        help_text="Who may invite you to a game.",
    )


class PrivacyView(APIView):
    @extend_schema(responses={200: PrivacySerializer, **errors()}, tags=["privacy"])
    def get(self, request: Request) -> Response:
        """Your privacy settings, as on the settings page."""
        return Response(PrivacySerializer(caller(request)).data)

    @extend_schema(
        request=PrivacySerializer,
        responses={
            200: PrivacySerializer,
            400: OpenApiResponse(ErrorSerializer, description="A value that is not one of the choices."),
            **errors(),
        },
        tags=["privacy"],
    )
    def patch(self, request: Request) -> Response:
        """Change your privacy settings; a setting left out keeps its value. Blocked players
        never see your presence nor may invite you, whatever these say."""
        me = caller(request)
        data = request.data if isinstance(request.data, dict) else {}
        form = PrivacyForm(data, instance=me)
        if not form.is_valid():
            raise serializers.ValidationError(
                {name: [str(message) for message in messages] for name, messages in form.errors.items()}
            )
        form.save()
        return Response(PrivacySerializer(me).data)
