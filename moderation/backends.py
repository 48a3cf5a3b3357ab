"""Authentication backends that refuse suspended users, and the user name django-axes counts.

``authenticate()`` returns nobody for a suspended user, wherever it is called: the site's
log-in (allauth), the API's token endpoint, anything else. The log-in form
(``moderation.forms.LoginForm``) then tells them why and until when.
"""

from typing import Any

from allauth.account.auth_backends import AuthenticationBackend
from django.contrib.auth import backends

from .selectors import active_suspension


def _not_suspended(user: Any) -> Any:
    return user if user is not None and active_suspension(user_id=user.pk) is None else None


# Only authenticate() looks at suspensions, not get_user(): that runs on every request of a
# logged-in user, and a suspension ends the user's sessions itself (services.user_suspend).
class ModelBackend(backends.ModelBackend):
    def authenticate(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        return _not_suspended(super().authenticate(request, *args, **kwargs))


class AllauthBackend(AuthenticationBackend):  # type: ignore[misc]
    def authenticate(self, request: Any, **credentials: Any) -> Any:
        return _not_suspended(super().authenticate(request, **credentials))


def axes_username(request: Any, credentials: dict[str, Any] | None) -> str | None:
    """The name a log-in attempt is for: allauth passes ``username`` or ``email``, the API
    ``username``; a form post that never reached ``authenticate`` has ``login``."""
    credentials = credentials or {}
    name = credentials.get("username") or credentials.get("email")
    if not name and request is not None and hasattr(request, "POST"):
        name = request.POST.get("login") or request.POST.get("username")
    return str(name).lower() if name else None
