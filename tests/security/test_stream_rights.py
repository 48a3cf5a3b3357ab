"""An open live stream lasts no longer than its rights, and streams are bounded and cheap
(``durak_site.live``: issue 28).

Against the real site (gunicorn with a uvicorn worker, the Redis fan-out), with this test
process publishing on the same Redis when it changes rights through the services:

- A log-out, a new password, a suspension and a seat given up in a private game each end the
  open streams they concern (``stream-error`` ``revoked``), and opened again the stream is
  refused by the new rights; a log-out ends only that session's, a seat given up only the streams
  of that game.
- A user's and an address's open streams are capped; one more ends the oldest
  (``superseded``), also when the two are served by different web processes.
- A stream older than ``LIVE_STREAM_MAX_SECONDS`` ends (its page opens it again).
- An idle stream holds no thread of the web process.
"""

import asyncio
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.urls import reverse

from durak_site import live
from games import services
from games.models import Game
from moderation import services as moderation_services
from tests.factories import GameFactory, UserFactory, started_game
from tests.faults.conftest import Site, database_url_of_tests, login_session, site_env
from tests.security.test_stream import DEADLINE, SseReader, redis_url

StartSite = Callable[..., Site]


@pytest.fixture
def start_site(transactional_db: Any, tmp_path: Path, settings: Any) -> Iterator[StartSite]:
    """Starts a site under ASGI with the Redis fan-out (``extra`` added to its environment);
    this process publishes there too. Several share the Redis and the database, as the web
    processes of one deployment do."""
    settings.LIVE_REDIS_URL = redis_url()
    settings.LIVE_REDIS_CHANNEL = ""
    started: list[Site] = []

    def start(**extra: str) -> Site:
        logs = tmp_path / f"site-{len(started)}"
        logs.mkdir()
        served = Site(logs=logs, env=site_env(database_url_of_tests(), LIVE_REDIS_URL=redis_url(), **extra))
        started.append(served)
        served.start()
        return served

    try:
        yield start
    finally:
        for served in started:
            served.kill()


def stream_status(site: Site, session: str | None, channels: list[str]) -> int:
    """The status a new stream of ``channels`` gets (with the session cookie ``session``)."""
    cookies = {"sessionid": session} if session else {}
    with httpx.Client(base_url=site.url, cookies=cookies, timeout=httpx.Timeout(30.0)) as client:
        query = "&".join(f"channel={channel}" for channel in channels)
        with client.stream("GET", f"/live/?{query}") as answer:
            return answer.status_code


def ended(reader: SseReader, condition: str) -> None:
    """``reader``'s stream ended with a ``stream-error`` of ``condition``."""
    reader.wait_for("stream-error", f'"condition": "{condition}"')
    reader.thread.join(timeout=DEADLINE)
    assert not reader.thread.is_alive(), "the stream went on"


def still_open(reader: SseReader) -> None:
    assert reader.thread.is_alive(), reader.events
    assert not any(event == "stream-error" for event, _data in reader.events), reader.events


def opened(site: Site, session: str, channels: list[str]) -> SseReader:
    reader = SseReader(site, session, channels)
    reader.wait_for("stream-open")
    return reader


# --- Rights end streams ---------------------------------------------------------------------


def test_a_log_out_ends_the_sessions_streams_and_no_other(start_site: StartSite) -> None:
    site = start_site()
    game, (olga, _boris) = started_game()
    channels = [f"game-{game.pk}", f"game-{game.pk}-chat-players", f"user-{olga.pk}"]
    session, other_session = login_session(olga), login_session(olga)
    first, second = opened(site, session, channels), opened(site, session, channels)  # two tabs
    elsewhere = opened(site, other_session, channels)  # another browser
    try:
        with httpx.Client(base_url=site.url, cookies={"sessionid": session}, timeout=30) as client:
            assert client.get("/").status_code == 200
            answer = client.post(
                reverse("account_logout"), headers={"X-CSRFToken": client.cookies["csrftoken"]}
            )
            assert answer.status_code == 302, answer.text[:300]
        ended(first, "revoked")
        ended(second, "revoked")
        assert stream_status(site, session, channels) == 404  # an anonymous visitor's now
        time.sleep(1)  # the other browser's stream would have ended by now
        still_open(elsewhere)
    finally:
        for reader in (first, second, elsewhere):
            reader.close()


def test_a_new_password_ends_the_users_streams(start_site: StartSite) -> None:
    site = start_site()
    user = UserFactory()
    session = login_session(user)
    channels = [f"user-{user.pk}", live.LOBBY]
    reader = opened(site, session, channels)
    try:
        user.set_password("a new and long password")
        user.save()
        ended(reader, "revoked")
        assert stream_status(site, session, channels) == 404  # the old session is over
        assert stream_status(site, session, [live.LOBBY]) == 200
    finally:
        reader.close()


def test_a_suspension_ends_the_users_streams(start_site: StartSite) -> None:
    site = start_site()
    moderator = UserFactory()
    moderation_services.moderator_grant(user=moderator, actor=None, reason="streams test")
    moderator.refresh_from_db()
    game, (olga, _boris) = started_game()
    session = login_session(olga)
    channels = [f"game-{game.pk}", f"game-{game.pk}-chat-players", f"user-{olga.pk}"]
    reader = opened(site, session, channels)
    try:
        moderation_services.user_suspend(moderator=moderator, user=olga, duration=None, reason="test")
        ended(reader, "revoked")
        assert stream_status(site, session, channels) == 404
    finally:
        reader.close()


def test_giving_up_a_seat_in_a_private_game_ends_that_games_streams(start_site: StartSite) -> None:
    site = start_site()
    game = GameFactory(private=True, num_players=3)
    joiner = UserFactory()
    # Through the share link's token, which the joiner's session does not keep: the seat is
    # their only right to the game.
    services.game_join(user=joiner, game_id=game.pk, token=game.invite_token)
    session = login_session(joiner)
    channels = [f"game-{game.pk}", f"game-{game.pk}-chat-players"]
    reader = opened(site, session, channels)
    lobby = opened(site, session, [live.LOBBY, f"user-{joiner.pk}"])
    try:
        services.game_leave(user=joiner, game_id=game.pk)
        assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
        ended(reader, "revoked")
        assert stream_status(site, session, [f"game-{game.pk}"]) == 404
        time.sleep(1)
        still_open(lobby)  # the user's other streams go on
    finally:
        reader.close()
        lobby.close()


def test_a_stream_whose_rights_were_read_before_a_revocation_ends_as_it_starts() -> None:
    """The revocation can arrive while the stream's request is still in its thread, after its
    channels were checked: the stream ends as soon as it starts."""

    async def scenario() -> tuple[str, str]:
        opening = live.Opening(
            channels=frozenset({"game-7"}),
            user_id=5,
            session="s",
            address="127.0.0.1",
            read_at=time.monotonic(),
        )
        live._open_streams.end(live.Revocation(user=5, game=7), live.REVOKED, remember=True)
        late, other = live.Stream(opening), live.Stream(opening)
        other.read_at = time.monotonic()  # read after the revocation: nothing to end
        for stream in (late, other):
            live._open_streams.add(stream)
            live._open_streams.remove(stream)
        return str(late.error), str(other.error)

    # In a thread of its own: a browser test before this one in the same process leaves
    # Playwright's event loop running in this thread, and asyncio.run refuses to nest.
    with ThreadPoolExecutor(max_workers=1) as pool:
        late, other = pool.submit(asyncio.run, scenario()).result(timeout=30)
    assert "revoked" in late
    assert other == ""


# --- Caps and lifetime --------------------------------------------------------------------------


def test_one_stream_over_a_users_cap_ends_their_oldest_in_any_process(start_site: StartSite) -> None:
    first_site = start_site(LIVE_STREAMS_PER_USER="2")
    second_site = start_site(LIVE_STREAMS_PER_USER="2")
    user = UserFactory()
    session = login_session(user)
    channels = [f"user-{user.pk}"]
    oldest = opened(first_site, session, channels)
    middle = opened(first_site, session, channels)
    newest = None
    try:
        newest = opened(second_site, session, channels)
        ended(oldest, "superseded")
        time.sleep(1)
        still_open(middle)
        still_open(newest)
    finally:
        for reader in (oldest, middle, newest):
            if reader is not None:
                reader.close()


def test_one_stream_over_an_addresss_cap_ends_its_oldest(start_site: StartSite) -> None:
    site = start_site(LIVE_STREAMS_PER_ADDRESS="3")
    game, _players = started_game()
    channels = [f"game-{game.pk}", f"game-{game.pk}-chat-spectators"]
    # Anonymous spectators, each with a session of their own: only the address is the same.
    readers = [opened(site, login_session(UserFactory()), channels) for _ in range(3)]
    try:
        readers.append(opened(site, "", channels))
        ended(readers[0], "superseded")
        time.sleep(1)
        for reader in readers[1:]:
            still_open(reader)
    finally:
        for reader in readers:
            reader.close()


def test_a_stream_ends_after_its_longest_life(start_site: StartSite) -> None:
    site = start_site(LIVE_STREAM_MAX_SECONDS="2")
    reader = opened(site, "", [live.LOBBY])
    try:
        ended(reader, "expired")
    finally:
        reader.close()


# --- What a stream costs ------------------------------------------------------------------------


def worker_threads(site: Site) -> int:
    """The threads of the site's one web process (gunicorn's worker, the master's child)."""
    assert site.process is not None
    children = Path(f"/proc/{site.process.pid}/task/{site.process.pid}/children").read_text().split()
    assert len(children) == 1, children
    return len(os.listdir(f"/proc/{children[0]}/task"))


def test_idle_streams_hold_no_thread_of_the_web_process(start_site: StartSite) -> None:
    site = start_site(LIVE_STREAMS_PER_ADDRESS="100")
    game, _players = started_game()
    channels = [f"game-{game.pk}", f"game-{game.pk}-chat-spectators"]
    first = opened(site, "", channels)  # the process has started what it keeps (its pools)
    readers = [first]
    try:
        time.sleep(2)
        before = worker_threads(site)
        readers += [opened(site, "", channels) for _ in range(40)]
        # A request's thread is let go as its stream starts: wait until the count settles.
        deadline = time.monotonic() + DEADLINE
        while (threads := worker_threads(site)) > before + 10 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert threads <= before + 10, f"{before} threads before 40 more streams, {threads} with them"
        for reader in readers:
            still_open(reader)
    finally:
        for reader in readers:
            reader.close()
