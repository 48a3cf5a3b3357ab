"""Two sites (or test runs) on one Redis database, each with its own ``REDIS_NAMESPACE``, keep
apart: one's cache clear leaves the other's keys, their wait slots and live channels differ, and
the broker's key prefix follows the namespace."""

import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.core.cache import caches
from django.test import override_settings

from durak_site import live
from durak_site.cache import redis_name
from tests.celery_processes import REDIS_HOST, REDIS_PORT, _redis_db

URL = f"redis://{REDIS_HOST}:{REDIS_PORT}/{_redis_db(os.environ.get('PYTEST_XDIST_WORKER', 'master'))}"


def redis_cache(prefix: str) -> dict[str, Any]:
    return {"BACKEND": "durak_site.cache.NamespacedRedisCache", "LOCATION": URL, "KEY_PREFIX": prefix}


@pytest.fixture
def raw() -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(URL)
    yield client
    for key in client.scan_iter(match="ns-test-*"):
        client.delete(key)


def test_a_cache_clear_removes_only_its_own_namespace(raw: redis.Redis) -> None:
    raw.set("ns-test-unrelated", "kept")  # a key of something else entirely on the same database
    with override_settings(CACHES={"default": redis_cache("ns-test-a"), "other": redis_cache("ns-test-b")}):
        mine, theirs = caches["default"], caches["other"]
        mine.set("version:7", 1)
        theirs.set("version:7", 2)
        assert mine.get("version:7") == 1 and theirs.get("version:7") == 2
        mine.clear()
        assert mine.get("version:7") is None
        assert theirs.get("version:7") == 2
    assert raw.get("ns-test-unrelated") == b"kept"


def test_a_prefix_with_glob_characters_clears_only_itself(raw: redis.Redis) -> None:
    with override_settings(
        CACHES={"default": redis_cache("ns-test-[a]*"), "other": redis_cache("ns-test-a")}
    ):
        caches["other"].set("key", "stays")
        caches["default"].set("key", "goes")
        caches["default"].clear()
        assert caches["default"].get("key") is None
        assert caches["other"].get("key") == "stays"


def test_wait_slots_the_live_channel_and_the_fanout_are_named_in_the_namespace() -> None:
    with override_settings(
        REDIS_NAMESPACE="", LIVE_REDIS_URL="redis://127.0.0.1:6379/4", LIVE_REDIS_CHANNEL=""
    ):
        assert redis_name("api-waits:5") == "api-waits:5"
        assert live.pubsub_channel() == "durak-live:4"
    with override_settings(
        REDIS_NAMESPACE="site-a", LIVE_REDIS_URL="redis://127.0.0.1:6379/4", LIVE_REDIS_CHANNEL=""
    ):
        assert redis_name("api-waits:5") == "site-a:api-waits:5"
        assert live.pubsub_channel() == "site-a:durak-live:4"
        assert live.fanout_name() == "site-a:durak-live-fanout"  # its name in CLIENT LIST
        with override_settings(LIVE_REDIS_CHANNEL="chosen"):
            assert live.pubsub_channel() == "chosen"


@pytest.mark.parametrize(
    ("namespace", "prefix", "expected"),
    [("", None, ""), ("site-a", None, "site-a:"), ("site-a", "own:", "own:")],
)
def test_the_brokers_key_prefix_follows_the_namespace(
    namespace: str, prefix: str | None, expected: str
) -> None:
    env = {**os.environ, "CELERY_BROKER_URL": URL, "REDIS_NAMESPACE": namespace}
    env.pop("CELERY_REDIS_KEY_PREFIX", None)
    if prefix is not None:
        env["CELERY_REDIS_KEY_PREFIX"] = prefix
    code = (
        "from durak_site import settings; print(settings.CELERY_BROKER_TRANSPORT_OPTIONS['global_keyprefix'])"
    )
    answer = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert answer.stdout.strip() == expected


@pytest.mark.parametrize(
    ("worker", "inherited", "kept"),
    [
        ("gw3", "test-main-41-abcdef12", False),  # the xdist controller's: every worker had it
        ("gw3", "test-gw3-41-abcdef12", True),  # the worker's own, in a process the worker started
        ("", "test-gw3-41-abcdef12", True),  # a process started without the worker's variable
    ],
)
def test_each_test_process_has_its_own_namespace(worker: str, inherited: str, kept: bool) -> None:
    env = {**os.environ, "REDIS_NAMESPACE": inherited, "PYTEST_XDIST_WORKER": worker}
    if not worker:
        del env["PYTEST_XDIST_WORKER"]
    code = "from durak_site import test_settings; print(test_settings.REDIS_NAMESPACE)"
    answer = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    namespace = answer.stdout.strip()
    assert (namespace == inherited) is kept
    assert namespace.startswith(f"test-{worker or 'gw3'}-")


def test_every_cache_object_of_a_process_shares_one_connection_pool() -> None:
    """Django makes a cache object per thread and request context; django-redis gives them one
    connection pool per location, instead of a new connection for most requests."""
    from concurrent.futures import ThreadPoolExecutor

    from durak_site.cache import NamespacedRedisCache

    def pool_of_a_new_cache(location: str = URL) -> object:
        return NamespacedRedisCache(location, {"KEY_PREFIX": "shared"}).client.get_client().connection_pool

    with ThreadPoolExecutor(max_workers=2) as pool:
        pools = {id(found) for found in pool.map(lambda _: pool_of_a_new_cache(), range(4))}
    assert len(pools) == 1
    assert pool_of_a_new_cache() is not pool_of_a_new_cache(URL + "?other=1")
