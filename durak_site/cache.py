"""Django's Redis cache, forgiving: with Redis down, reads miss and writes are dropped (logged).

Nothing the site needs lives only in the cache (game versions fall back to the database, throttle
and rate-limit counters start again), so a cache outage must not turn into errors: the same rule as
for the Celery broker (``durak_site.celery.publish_on_commit``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


class ForgivingRedisCache(RedisCache):
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
        return self._forgive("clear", False, super().clear)
