"""Django's Redis cache, forgiving: with Redis down, reads miss and writes are dropped (logged).

Nothing the site needs lives only in the cache (game versions fall back to the database, throttle
and rate-limit counters start again), so a cache outage must not turn into errors: the same rule as
for the Celery broker (``durak_site.celery.publish_on_commit``).
"""

from __future__ import annotations

import logging
import threading
from functools import cached_property
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


def redis_name(name: str) -> str:
    """``name`` as this site's key or channel in Redis: under ``REDIS_NAMESPACE`` when set."""
    namespace = settings.REDIS_NAMESPACE
    return f"{namespace}:{name}" if namespace else name


#: The Redis clients of this process, one per location and options (see ``_cache``).
_clients: dict[tuple[str, ...], RedisCacheClient] = {}
_clients_lock = threading.Lock()


class ForgivingRedisCache(RedisCache):
    @cached_property
    def _cache(self) -> RedisCacheClient:
        """One client, and so one set of connection pools, per process for each location and
        options. Django makes a cache object per thread and per request context (an ASGI
        request's task has its own), and each of Django's own would open pools of its own: a
        new connection to Redis for most requests."""
        made = vars(self)  # what RedisCache.__init__ set (not in Django's type stubs)
        servers, options = made["_servers"], made["_options"]
        key = (*servers, repr(sorted(options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = made["_class"](servers, **options)
        return client

    def _forgive(self, operation: str, default: Any, call: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return call(*args, **kwargs)
        except RedisError as error:
            logger.warning("cache unavailable (%s): %s", operation, error)
            return default

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._forgive("get", default, super().get, key, default, version)

    def get_many(self, keys: Any, version: Any = None) -> Any:
        return self._forgive("get_many", {}, super().get_many, keys, version)

    def has_key(self, key: Any, version: Any = None) -> Any:
        return self._forgive("has_key", False, super().has_key, key, version)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._forgive("set", None, super().set, key, value, timeout, version)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._forgive("add", False, super().add, key, value, timeout, version)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._forgive("set_many", list(data), super().set_many, data, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._forgive("touch", False, super().touch, key, timeout, version)

    def delete(self, key: Any, version: Any = None) -> Any:
        return self._forgive("delete", False, super().delete, key, version)

    def delete_many(self, keys: Any, version: Any = None) -> Any:
        return self._forgive("delete_many", None, super().delete_many, keys, version)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        # A counter that cannot be read is treated as missing, like a key that expired.
        try:
            return super().incr(key, delta, version)
        except RedisError as error:
            logger.warning("cache unavailable (incr): %s", error)
            raise ValueError(f"Key '{key}' not found (cache unavailable)") from error

    def clear(self) -> Any:
        """Django's ``clear`` empties the whole Redis database; with a ``KEY_PREFIX``
        (``REDIS_NAMESPACE``) only this site's keys go, and whatever else shares it stays."""
        if not self.key_prefix:
            return self._forgive("clear", False, super().clear)
        return self._forgive("clear", False, self._clear_own_keys)

    def _clear_own_keys(self) -> bool:
        client = self._cache.get_client(write=True)
        pattern = f"{glob_escape(self.key_prefix)}:*"
        batch: list[bytes] = []
        for key in client.scan_iter(match=pattern, count=500):
            batch.append(key)
            if len(batch) == 500:
                client.delete(*batch)
                batch.clear()
        if batch:
            client.delete(*batch)
        return True


def glob_escape(text: str) -> str:
    """``text`` matched literally in a Redis ``SCAN MATCH`` pattern."""
    return "".join(f"\\{char}" if char in "*?[]\\" else char for char in text)
