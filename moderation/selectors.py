"""Reads for moderation: a user's sanction in force, the report queue."""

from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from .models import Sanction


def active_sanction(*, user_id: Any, kind: str, now: datetime | None = None) -> Sanction | None:
    """The sanction of ``kind`` in force for the user that lasts longest (one indexed query)."""
    now = now or timezone.now()
    return (
        Sanction.objects.filter(user_id=user_id, kind=kind, starts_at__lte=now)
        .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=now))
        .order_by("-ends_at")  # NULL (for good) sorts first in descending order on PostgreSQL
        .first()
    )


def active_suspension(*, user_id: Any) -> Sanction | None:
    return active_sanction(user_id=user_id, kind=Sanction.Kind.SUSPEND)


def active_mute(*, user_id: Any) -> Sanction | None:
    return active_sanction(user_id=user_id, kind=Sanction.Kind.MUTE)


def why_muted(user_id: Any) -> str | None:
    """What a muted user is told when they would post (``chat.restrictions``), else None."""
    mute = active_mute(user_id=user_id)
    return None if mute is None else mute.explain()
