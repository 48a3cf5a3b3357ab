"""The API's token authentication: django-rest-knox's tokens (stored as digests, with an expiry),
refusing the tokens of suspended users with the reason and noting when each token was last used.

A token caller whose request names no language (no Accept-Language header, no language
cookie) gets the API's messages in the language of their settings (``user.language``).
"""

import binascii
from typing import Any

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox import auth
from knox.crypto import hash_token
from rest_framework import exceptions
from rest_framework.request import Request

from accounts import auth_cache, presence, tokens
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
        kept = self._kept(token)
        if kept is not None:
            # No suspension to look for: a suspension revokes the user's tokens, and that drops
            # them from the cache (``accounts.auth_cache``), so a kept token is not suspended.
            return self._admit(kept)
        result: tuple[Any, ApiToken] = super().authenticate_credentials(token)
        auth_cache.remember_token(result[1])
        auth_cache.remember_user(result[0])
        return result

    @staticmethod
    def _kept(token: bytes) -> ApiToken | None:
        """The token's row and its user as the shared cache keeps them (``accounts.auth_cache``),
        if it does and the token has not expired; None sends the lookup to the database."""
        if not auth_cache.seconds():
            return None
        try:
            digest = hash_token(token.decode("utf-8"))
        except (TypeError, ValueError, binascii.Error):
            return None  # knox's own lookup refuses it with its words
        found = auth_cache.cached_token(digest)
        if found is None or (found.expiry is not None and found.expiry <= timezone.now()):
            return None  # an expired token is deleted by knox's lookup, as without the cache
        user = auth_cache.cached_user(found.user_id)
        if user is None:
            return None
        found.user = user
        return found

    def validate_user(self, auth_token: ApiToken) -> tuple[Any, ApiToken]:
        """Knox found the token and it has not expired: refuse a suspended or inactive user,
        else note the use."""
        suspension = active_suspension(user_id=auth_token.user.pk)
        if suspension is not None:
            raise exceptions.AuthenticationFailed(suspension.explain())
        return self._admit(auth_token)

    def _admit(self, auth_token: ApiToken) -> tuple[Any, ApiToken]:
        """Refuse an inactive user (knox's words), else note the use."""
        user, token = super().validate_user(auth_token)
        if tokens.token_used(token):
            auth_cache.remember_token(token)  # its new last_used, so the next call writes none
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
