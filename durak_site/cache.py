"""The shared cache is django-redis (``settings.CACHES`` with ``CACHE_URL``), forgiving: with
``IGNORE_EXCEPTIONS`` a Redis outage turns reads into misses and drops writes, logged
(``DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS``). Nothing the site needs lives only in the cache (game
versions fall back to the database, throttle and rate-limit counters start again), the same rule
as for the Celery broker (``durak_site.celery.publish_on_commit``). django-redis keeps one
connection pool per process for each location, however many cache objects Django makes.

What the library leaves to us: this site's names in Redis under ``REDIS_NAMESPACE``, and a
``clear()`` that keeps to them.
"""

from __future__ import annotations

from django.conf import settings
from django_redis.cache import RedisCache


def redis_name(name: str) -> str:
    """``name`` as this site's key or channel in Redis: under ``REDIS_NAMESPACE`` when set."""
    namespace = settings.REDIS_NAMESPACE
    return f"{namespace}:{name}" if namespace else name


class NamespacedRedisCache(RedisCache):  # type: ignore[misc]  # django-redis is untyped for mypy
    def clear(self) -> None:
        """django-redis's ``clear`` empties the whole Redis database; with a ``KEY_PREFIX``
        (``REDIS_NAMESPACE``) only this site's keys go, and whatever else shares it stays. The
        prefix is matched literally (django-redis escapes ``*?[]`` in it)."""
        if self.key_prefix:
            self.delete_pattern("*")  # forgiving too: the library wraps it
        else:
            super().clear()
