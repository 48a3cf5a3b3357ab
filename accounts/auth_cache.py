"""Who is calling, without a query on most requests: the logged-in user's row and an API token,
kept in the shared cache for ``AUTH_CACHE_SECONDS`` and dropped the moment they change.

A page's user comes through the session (``SESSION_ENGINE`` ``cached_db``: the session from the
cache too) and the authentication backends' ``get_user`` (``moderation.backends``); an API call's
through ``api.authentication``'s token lookup. Both ask here first.

What keeps it right:

- only with a cache every process shares (``CACHE_URL``): ``AUTH_CACHE_SECONDS`` is 0 without
  one, and nothing is kept, since a change made in one process could not drop another's copy;
- every save or delete of a user or a token drops its entry (signals below), and so do the
  writes that bypass ``save()`` (``presence.touch``, ``games.reliability``: :func:`forget_user`);
  a password change, a deactivation, a revoked token or a suspension (which revokes every token
  and ends every session) therefore counts from the next request on;
- what is kept is the row alone: no permission cache, no related object. Permissions and groups
  are read when asked, as without the cache;
- a cache that cannot be reached misses (django-redis with ``IGNORE_EXCEPTIONS``, see
  ``durak_site.cache``): the request reads the database, as without the cache.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import partial
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from .models import ApiToken, User

#: Per-instance caches a row picks up once used (Django's permission caches, prefetches): never kept.
_NOT_KEPT = ("_perm_cache", "_user_perm_cache", "_group_perm_cache", "_prefetched_objects_cache")


def seconds() -> int:
    """How long an entry is kept (``AUTH_CACHE_SECONDS``); 0: nothing is kept."""
    return max(int(getattr(settings, "AUTH_CACHE_SECONDS", 0)), 0)


def _user_key(user_id: Any) -> str:
    return f"auth:user:{user_id}"


def _token_key(digest: str) -> str:
    return f"auth:token:{digest}"


def _bare(instance: Any) -> Any:
    """A copy of a model instance with its own fields only (no related object, no cache)."""
    bare = copy.copy(instance)
    for name in _NOT_KEPT:
        bare.__dict__.pop(name, None)
    bare._state = copy.copy(instance._state)
    bare._state.fields_cache = {}
    return bare


def cached_user(user_id: Any) -> User | None:
    """The user row kept for ``user_id``, if any."""
    if not seconds() or user_id is None:
        return None
    found = cache.get(_user_key(user_id))
    return found if isinstance(found, User) else None


def remember_user(user: User) -> None:
    """Keep ``user``'s row, just read from the database."""
    if seconds() and user.pk is not None:
        cache.set(_user_key(user.pk), _bare(user), seconds())


def forget_user(user_id: Any) -> None:
    """Drop the row kept for ``user_id`` (it changed)."""
    if seconds():
        cache.delete(_user_key(user_id))


def user_by_id(user_id: Any) -> User | None:
    """The user ``user_id`` (kept, else read and kept), None if there is none."""
    found = cached_user(user_id)
    if found is not None:
        return found
    try:
        found = User._default_manager.get(pk=user_id)
    except (User.DoesNotExist, ValueError, TypeError):
        return None
    remember_user(found)
    return found


def cached_token(digest: str) -> ApiToken | None:
    """The token row kept for ``digest`` (without its user), if any."""
    if not seconds():
        return None
    found = cache.get(_token_key(digest))
    return found if isinstance(found, ApiToken) else None


def remember_token(token: ApiToken) -> None:
    """Keep ``token``'s row (just read, or just noted as used), without its user."""
    if seconds():
        cache.set(_token_key(token.digest), _bare(token), seconds())


def _now_and_after_commit(drop: Callable[[], object]) -> None:
    """Drop an entry now and once more after the commit: a request in between could keep the
    row as it was before the change committed."""
    drop()
    transaction.on_commit(drop)


@receiver(post_save, sender=User)
@receiver(post_delete, sender=User)
def _user_changed(sender: Any, instance: User, **kwargs: Any) -> None:
    if seconds():
        _now_and_after_commit(partial(forget_user, instance.pk))


@receiver(post_save, sender=ApiToken)
@receiver(post_delete, sender=ApiToken)
def _token_changed(sender: Any, instance: ApiToken, **kwargs: Any) -> None:
    if seconds():
        _now_and_after_commit(partial(cache.delete, _token_key(instance.digest)))
