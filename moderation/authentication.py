"""The API's token authentication, refusing the tokens of suspended users with the reason.

A token caller whose request names no language (no Accept-Language header, no language
cookie) gets the API's messages in the language of their settings (``user.language``).
"""

from typing import Any

from django.conf import settings
from django.utils import translation
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts.models import User

from .selectors import active_suspension


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        result = super().authenticate(request)
        if result is not None:
            user = result[0]
            named = "HTTP_ACCEPT_LANGUAGE" in request.META or settings.LANGUAGE_COOKIE_NAME in request.COOKIES
            if not named and isinstance(user, User) and user.language:
                translation.activate(user.language)
                request._request.LANGUAGE_CODE = user.language
        return result

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        user, token = super().authenticate_credentials(key)
        suspension = active_suspension(user_id=user.pk)
        if suspension is not None:
            raise exceptions.AuthenticationFailed(suspension.explain())
        return user, token
