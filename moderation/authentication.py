"""The API's token authentication, refusing the tokens of suspended users with the reason."""

from typing import Any

from rest_framework import authentication, exceptions

from .selectors import active_suspension


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        user, token = super().authenticate_credentials(key)
        suspension = active_suspension(user_id=user.pk)
        if suspension is not None:
            raise exceptions.AuthenticationFailed(suspension.explain())
        return user, token
