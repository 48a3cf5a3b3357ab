from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from . import selectors


def turns(request: HttpRequest) -> dict[str, Any]:
    """``turns_waiting`` for the header's counter, the tab's title and the "next game" buttons
    (``selectors.TurnsWaiting``; None for a visitor who is not logged in). Lazy, so its one query
    runs only when a template shows it (not for table partials)."""
    user: Any = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"turns": None}
    user_id = user.pk
    return {"turns": SimpleLazyObject(lambda: selectors.turns_waiting(user_id=user_id))}
