"""Authentication backends that refuse suspended users (the name django-axes counts a failed
log-in under is ``accounts.lockout``'s).

``authenticate()`` returns nobody for a suspended user, wherever it is called: the site's
log-in (allauth), the API's token endpoint, anything else. The log-in form
(``moderation.forms.LoginForm``) then tells them why and until when.
"""

from typing import Any

from allauth.account.auth_backends import AuthenticationBackend
from django.contrib.auth import backends

from accounts import auth_cache

from .selectors import active_suspension


def _not_suspended(user: Any) -> Any:
    return user if user is not None and active_suspension(user_id=user.pk) is None else None


class _KeptUser:
    """``get_user``, which runs on every request of a logged-in user, from the row kept in the
    shared cache when there is one (``accounts.auth_cache``), else from the database. It does not
    look at suspensions: a suspension ends the user's sessions itself (services.user_suspend)."""

    def get_user(self, user_id: Any) -> Any:
        user = auth_cache.user_by_id(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None  # type: ignore[attr-defined]


class ModelBackend(_KeptUser, backends.ModelBackend):
    def authenticate(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        return _not_suspended(super().authenticate(request, *args, **kwargs))


class AllauthBackend(_KeptUser, AuthenticationBackend):  # type: ignore[misc]
    def authenticate(self, request: Any, **credentials: Any) -> Any:
        return _not_suspended(super().authenticate(request, **credentials))
