"""Who is a moderator: an active staff account in the Moderators group (or a superuser)."""

from typing import Any

from django.contrib.auth.models import Group

from .models import MODERATORS_GROUP


def is_moderator(user: Any) -> bool:
    if not (getattr(user, "is_authenticated", False) and user.is_active and user.is_staff):
        return False
    if user.is_superuser:
        return True
    return bool(user.groups.filter(name=MODERATORS_GROUP).exists())


def moderators_group() -> Group:
    """The group, made by migration ``moderation.0002``."""
    return Group.objects.get(name=MODERATORS_GROUP)
