from collections.abc import Callable
from typing import Any

from django.http import HttpRequest

from .models import Notification


def bell(request: HttpRequest) -> dict[str, Callable[[], int] | int]:
    """``unread_notifications`` for the header's bell: a callable, so the count query runs
    only when a template shows it (not for table partials)."""
    user: Any = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"unread_notifications": 0}
    return {
        "unread_notifications": lambda: Notification.objects.filter(user=user, read_at__isnull=True).count()
    }
