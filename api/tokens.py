"""API tokens through the API: log in for a new one, list yours, revoke one or all.

The lifecycle itself (limits, expiry, revocation on a password change or a suspension) is
``accounts.tokens``; these views only read the request and shape the answer. A token is in
the answer that makes it and nowhere else: lists show its first characters, never the token
or its digest.
"""

from typing import Any

from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import tokens
from accounts.lockout_page import lock_ends
from accounts.models import ApiToken

from .parsers import LimitedJSONParser
from .serializers import ErrorSerializer
from .views import caller, errors


class TokenLoginSerializer(serializers.Serializer[Any]):
    # No username is longer (``User.username``); django-axes records a failed one in a column
    # of 255, so a longer one would fail there rather than be refused here.
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)
    name = serializers.CharField(
        max_length=60, required=False, default="API", help_text="What the token is for, to tell it in lists."
    )
    expires_in_days = serializers.IntegerField(
        min_value=1,
        max_value=tokens.MAX_DAYS,
        required=False,
        help_text="The token stops working after this many days (default API_TOKEN_DAYS, 90).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # The request goes along so that django-axes counts a wrong password toward its lock.
        user = authenticate(
            request=self.context["request"], username=attrs["username"], password=attrs["password"]
        )
        if user is None:
            # django-axes marks the request when this account is locked for this address, or
            # this failure just locked it; Django's authenticate() only says "no user".
            if getattr(self.context["request"], "axes_locked_out", False):
                _until, seconds = lock_ends(self.context["request"], {"username": attrs["username"]})
                raise AccountLocked(wait=seconds)
            raise serializers.ValidationError(
                _("Unable to log in with provided credentials."), code="authorization"
            )
        return {**attrs, "user": user}


class TokenInfoSerializer(serializers.ModelSerializer[ApiToken]):
    prefix = serializers.CharField(read_only=True, help_text="The token's first characters.")
    current = serializers.SerializerMethodField(help_text="Whether this request came with this token.")

    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created", "last_used", "expiry", "current"]
        read_only_fields = fields
        extra_kwargs = {
            "last_used": {"help_text": "To the minute; null until the token is first used."},
            "expiry": {"help_text": "When the token stops working."},
        }

    def get_current(self, token: ApiToken) -> bool:
        auth = self.context["request"].auth
        return isinstance(auth, ApiToken) and auth.pk == token.pk


class NewTokenSerializer(TokenInfoSerializer):
    token = serializers.CharField(
        read_only=True, help_text='Send it as "Authorization: Token <token>". Shown this once only.'
    )

    class Meta(TokenInfoSerializer.Meta):
        fields = ["token", *TokenInfoSerializer.Meta.fields]
        read_only_fields = fields


class RevokedSerializer(serializers.Serializer[Any]):
    revoked = serializers.IntegerField(help_text="How many tokens stopped working.")


class TokenLimit(exceptions.APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "token_limit"


class AccountLocked(exceptions.APIException):
    """Too many failed log-ins at this account from this address (django-axes): the site's
    log-in form answers 429 too. ``wait`` becomes the ``Retry-After`` header."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "locked_out"

    def __init__(self, wait: int) -> None:
        super().__init__(_("Too many failed log-ins: try again later."))
        self.wait = wait


class TokenView(APIView):
    """Log in with a username and password; the answer is a new API token, shown this once."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    parser_classes = [LimitedJSONParser, FormParser, MultiPartParser]
    throttle_scope = "auth"

    @extend_schema(
        request=TokenLoginSerializer,
        responses={
            200: NewTokenSerializer,
            **errors(400),
            429: OpenApiResponse(
                ErrorSerializer,
                description=(
                    "`throttled`: too many requests (API_RATE_AUTH, API_RATE_USER, API_RATE_IP); "
                    "`locked_out`: too many failed log-ins at this account from this address "
                    "(AXES_FAILURE_LIMIT), the right password too is refused until the cool-off "
                    "(AXES_COOLOFF_MINUTES) has passed. Either way, `Retry-After` says how many seconds to wait."
                ),
            ),
        },
        parameters=[
            OpenApiParameter(
                "Retry-After",
                OpenApiTypes.INT,
                OpenApiParameter.HEADER,
                response=[429],
                description="Seconds to wait before trying again.",
            )
        ],
        auth=[],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        login = TokenLoginSerializer(data=request.data, context={"request": request})
        login.is_valid(raise_exception=True)
        data = login.validated_data
        try:
            token, secret = tokens.token_create(
                user=data["user"], name=data["name"], days=data.get("expires_in_days")
            )
        except tokens.TokenLimitReached as error:
            raise TokenLimit(str(error)) from error
        return Response({"token": secret, **TokenInfoSerializer(token, context={"request": request}).data})


class TokenListView(generics.ListAPIView[ApiToken]):
    """Your API tokens that have not expired, newest first: never the tokens themselves."""

    serializer_class = TokenInfoSerializer

    def get_queryset(self) -> Any:
        return tokens.token_list(user=caller(self.request))

    @extend_schema(responses={200: TokenInfoSerializer(many=True), **errors(400, 404)}, tags=["auth"])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class TokenDetailView(APIView):
    @extend_schema(responses={200: TokenInfoSerializer, **errors(400, 404)}, tags=["auth"])
    def get(self, request: Request, token_id: int) -> Response:
        """One of your tokens."""
        token = tokens.token_list(user=caller(request)).filter(pk=token_id).first()
        if token is None:
            raise exceptions.NotFound(_("You have no API token with this id."))
        return Response(TokenInfoSerializer(token, context={"request": request}).data)

    @extend_schema(responses={204: None, **errors(400, 404)}, tags=["auth"])
    def delete(self, request: Request, token_id: int) -> Response:
        """Revoke one of your tokens (it may be the one this request came with): it stops working now."""
        if not tokens.token_revoke(user=caller(request), token_id=token_id):
            raise exceptions.NotFound(_("You have no API token with this id."))
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenRevokeAllView(APIView):
    @extend_schema(request=None, responses={200: RevokedSerializer, **errors()}, tags=["auth"])
    def post(self, request: Request) -> Response:
        """Revoke all your tokens, this request's too."""
        return Response({"revoked": tokens.tokens_revoke_all(user=caller(request))})
