"""The API's token authentication: django-rest-knox's tokens (stored as digests, with an expiry),
refusing the tokens of suspended users with the reason and noting when each token was last used.

A token caller whose request names no language (no Accept-Language header, no language
cookie) gets the API's messages in the language of their settings (``user.language``).
"""

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox import auth
from rest_framework import exceptions
from rest_framework.request import Request

from accounts import presence, tokens
from accounts.models import ApiToken, User
from moderation.selectors import active_suspension


class TokenAuthentication(auth.TokenAuthentication):  # type: ignore[misc]
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        result: tuple[Any, Any] | None = super().authenticate(request)
        if result is not None:
            user = result[0]
            named = "HTTP_ACCEPT_LANGUAGE" in request.META or settings.LANGUAGE_COOKIE_NAME in request.COOKIES
            if not named and isinstance(user, User) and user.language:
                translation.activate(user.language)
                request._request.LANGUAGE_CODE = user.language
        return result

    def authenticate_credentials(self, token: bytes) -> tuple[Any, ApiToken]:
        # knox decodes the header without a guard: bytes that are not UTF-8 would be a 500.
        try:
            token.decode("utf-8")
        except UnicodeDecodeError as error:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. Token string should not contain invalid characters.")
            ) from error
        result: tuple[Any, ApiToken] = super().authenticate_credentials(token)
        return result

    def validate_user(self, auth_token: ApiToken) -> tuple[Any, ApiToken]:
        """Knox found the token and it has not expired: refuse a suspended or inactive user,
        else note the use."""
        user, token = super().validate_user(auth_token)
        suspension = active_suspension(user_id=user.pk)
        if suspension is not None:
            raise exceptions.AuthenticationFailed(suspension.explain())
        tokens.token_used(token)
        presence.touch(user)  # at most one UPDATE a minute, like token_used
        return user, token


class TokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """The schema's name and header for it: "tokenAuth", ``Authorization: Token <token>``."""

    target_class = TokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> Any:
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=self.target.authenticate_header(None)
        )
