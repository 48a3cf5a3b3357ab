"""The live stream (``durak_site.live``, ``durak_site.channels``) tells nobody anything hidden.

- Who may read which channel: a private game's to nobody else (the answer of a missing game),
  a user's bell to that user alone, each chat's news to its own readers only (a spectator never
  learns when the players chat). Under the test client (WSGI) an allowed stream is a 204 and a
  refused one a 404, which is all these need.
- What is sent: every event of whole games, read both on Redis (every channel, as published)
  and through spectators' streams of the real site (gunicorn with a uvicorn worker), carries no
  card of any hand or of the stock and not the seed; two deals that differ only in one hand give
  a spectator the same events.
- A Redis that is down fails no move, and a process whose subscription is cut ends its streams
  (their pages poll) and takes new ones again once it has subscribed again.
"""

import json
import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from django.contrib.auth.models import Group, Permission
from django.test import Client
from django.urls import reverse

import durak
from accounts.models import User
from chat import services as chat_services
from durak_site import live
from games import services
from games.models import Game, Invitation
from moderation import services as moderation_services
from moderation.models import MODERATORS_GROUP
from tests.celery_processes import REDIS_HOST, REDIS_PORT, _redis_db
from tests.factories import GameFactory, UserFactory, started_game
from tests.faults.conftest import Site, database_url_of_tests, login_session, site_env
from tests.leaks import shows_number

# Two deals that differ in one card of the second hand (KS or JS), never played: the same moves
# (each time the first legal action of the player waited for) play both to the end.
HANDS = [["6S", "7D", "QC", "AH"], ["8S", "9D", "6C", "KS"]]
DEALS: dict[str, dict[str, Any]] = {
    "KS": {"hands": HANDS, "stock": ["10C", "9H"], "first_attacker": 0},
    "JS": {"hands": [HANDS[0], ["8S", "9D", "6C", "JS"]], "stock": ["10C", "9H"], "first_attacker": 0},
}
DEADLINE = 60.0


def redis_url() -> str:
    return f"redis://{REDIS_HOST}:{REDIS_PORT}/{_redis_db(os.environ.get('PYTEST_XDIST_WORKER', 'master'))}"


def stream_status(client: Client, *channels: str) -> tuple[int, str]:
    query = "&".join(f"channel={channel}" for channel in channels)
    answer = client.get(f"{reverse('live')}?{query}")
    return answer.status_code, answer.content.decode()


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- Who may read what ------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_private_games_channels_are_refused_like_a_missing_games() -> None:
    private = GameFactory(private=True)
    invitee = UserFactory()
    Invitation.objects.create(game=private, user=invitee, invited_by=private.creator)
    missing = private.pk + 1000
    for client in (Client(), logged_in(UserFactory())):
        for suffix in ("", "-chat-players", "-chat-spectators"):
            status, text = stream_status(client, f"game-{private.pk}{suffix}")
            missing_status, missing_text = stream_status(client, f"game-{missing}{suffix}")
            assert status == missing_status == 404
            assert text.replace(str(private.pk), "N") == missing_text.replace(str(missing), "N")
        assert stream_status(client, f"game-{private.pk}", "lobby")[0] == 404  # one refused: all
    assert stream_status(logged_in(private.creator), f"game-{private.pk}")[0] == 204
    assert stream_status(logged_in(invitee), f"game-{private.pk}")[0] == 204
    # The share link's holder, even anonymous, may watch it.
    holder = Client()
    holder.get(reverse("games:join_link", args=[private.pk, private.invite_token]))
    assert stream_status(holder, f"game-{private.pk}", f"game-{private.pk}-chat-spectators")[0] == 204


@pytest.mark.django_db
def test_each_chat_channel_only_to_its_readers_and_a_bell_only_to_its_user() -> None:
    game, (olga, boris) = started_game(deal=DEALS["KS"])
    spectator = UserFactory()
    players_chat, spectators_chat = f"game-{game.pk}-chat-players", f"game-{game.pk}-chat-spectators"
    for player in (olga, boris):
        assert (
            stream_status(logged_in(player), f"game-{game.pk}", players_chat, f"user-{player.pk}")[0] == 204
        )
        assert stream_status(logged_in(player), spectators_chat)[0] == 404
    for client in (logged_in(spectator), Client()):
        assert stream_status(client, f"game-{game.pk}", spectators_chat, "lobby")[0] == 204
        assert stream_status(client, players_chat)[0] == 404
    assert stream_status(logged_in(spectator), f"user-{spectator.pk}")[0] == 204
    assert stream_status(logged_in(spectator), f"user-{olga.pk}")[0] == 404
    assert stream_status(Client(), f"user-{olga.pk}")[0] == 404
    assert stream_status(Client(), "user-0", "game-x", "other")[0] == 404
    assert stream_status(Client())[0] == 400
    assert stream_status(Client(), *[f"game-{n}" for n in range(1, live.MAX_CHANNELS + 2)])[0] == 400


# --- What is sent -----------------------------------------------------------------------------


class SseReader:
    """A spectator's stream of the real site, read in a thread: ``(event, data)`` pairs."""

    def __init__(self, site: Site, session: str, channels: list[str]) -> None:
        self.events: list[tuple[str, str]] = []
        self.raw: list[str] = []
        self.client = httpx.Client(base_url=site.url, timeout=httpx.Timeout(10.0, read=None))
        self.client.cookies.set("sessionid", session)
        self.url = "/live/?" + "&".join(f"channel={channel}" for channel in channels)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        event = ""
        try:
            with self.client.stream("GET", self.url) as answer:
                assert answer.status_code == 200, answer.read()
                for line in answer.iter_lines():
                    self.raw.append(line)
                    if line.startswith("event: "):
                        event = line.removeprefix("event: ")
                    elif line.startswith("data:"):
                        self.events.append((event, line.removeprefix("data:").strip()))
        except (httpx.HTTPError, RuntimeError):
            pass  # closed by the test

    def wait_for(self, event: str, data: str = "", timeout: float = DEADLINE) -> None:
        deadline = time.monotonic() + timeout
        while not any(e == event and data in d for e, d in self.events):
            assert time.monotonic() < deadline, f"no {event} {data} in {self.events}"
            time.sleep(0.02)

    def close(self) -> None:
        self.client.close()
        self.thread.join(timeout=10)


class RedisTap:
    """Every message the site publishes on its pub/sub channel, read in a thread."""

    def __init__(self) -> None:
        self.messages: list[str] = []
        self.pubsub = redis.Redis.from_url(redis_url()).pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(live.pubsub_channel())
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self.stopped.is_set():
            message = self.pubsub.get_message(timeout=0.1)
            if message is not None:
                self.messages.append(message["data"].decode())

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=10)
        self.pubsub.close()


@pytest.fixture
def site(transactional_db: Any, tmp_path: Path, settings: Any) -> Iterator[Site]:
    """The site under ASGI with the Redis fan-out, started; this process publishes there too."""
    settings.LIVE_REDIS_URL = redis_url()
    settings.LIVE_REDIS_CHANNEL = ""
    served = Site(logs=tmp_path, env=site_env(database_url_of_tests(), LIVE_REDIS_URL=redis_url()))
    served.start()
    try:
        yield served
    finally:
        served.kill()


def play_to_the_end(game: Game, users: list[User], chat_at: int) -> int:
    """Each time the first legal action of the player waited for, through the services (this
    process publishes); at move ``chat_at`` a player and a spectator post in their chats.
    Returns the final version."""
    spectator = UserFactory()
    for number in range(200):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game.version
        if number == chat_at:
            chat_services.chat_post(user=users[0], game=game, text="psst, 9H")
            chat_services.chat_post(user=spectator, game=game, text="go on")
        assert game.state is not None
        engine = game.engine()
        player = engine.waiting_for()[0]
        services.make_move(
            user=users[player],
            game_id=game.pk,
            action=engine.legal_json(player)[0],
            expected_version=game.version,
        )
    raise AssertionError("the game did not end")


CARD = re.compile(r"(?<![0-9A-Za-z])(?:[2-9]|10|[JQKA])[SHDC](?![0-9A-Za-z])")


def assert_no_card_or_seed(texts: list[str], game: Game, where: str) -> None:
    every_card = {card for hand in (game.deal or {}).get("hands", []) for card in hand}
    every_card |= set((game.deal or {}).get("stock", []))
    for text in texts:
        assert not CARD.search(text), f"{where}: a card in {text!r}"
        for card in every_card:
            assert card not in text and durak.pretty(card) not in text, f"{where}: {card} in {text!r}"
        assert not shows_number(text, game.seed), f"{where}: the seed in {text!r}"
        for key in ('"hands"', '"stock"', '"seed"', '"deal"', '"state"', '"hand"', '"cards"'):
            assert key not in text, f"{where}: {key} in {text!r}"


def test_no_event_of_whole_games_carries_a_card_and_a_spectator_hears_the_same_of_both_deals(
    site: Site,
) -> None:
    tap = RedisTap()
    heard: dict[str, list[tuple[str, str]]] = {}
    try:
        for name, deal in DEALS.items():
            game, users = started_game(deal=deal)
            watcher = UserFactory()
            channels = [f"game-{game.pk}", f"game-{game.pk}-chat-spectators", f"user-{watcher.pk}"]
            reader = SseReader(site, login_session(watcher), channels)
            players = [
                SseReader(site, login_session(user), [f"game-{game.pk}", f"user-{user.pk}"]) for user in users
            ]
            try:
                for stream in (reader, *players):
                    stream.wait_for("stream-open")
                final = play_to_the_end(game, users, chat_at=3)
                game.refresh_from_db()
                assert game.status == Game.Status.FINISHED
                reader.wait_for("game", f'"version":{final}}}')
                for stream in players:
                    stream.wait_for("game", f'"version":{final}}}')
                    stream.wait_for("bell")
            finally:
                for stream in (reader, *players):
                    stream.close()
            texts = [data for _event, data in reader.events] + [
                data for stream in players for _event, data in stream.events
            ]
            assert_no_card_or_seed(texts, game, f"the streams of deal {name}")
            # The spectator heard the game's versions and the spectators' chat, nothing else.
            kinds = {event for event, _data in reader.events} - {"stream-open", "keep-alive"}
            assert kinds == {"game", "chat"}, reader.events
            assert all('"players"' not in data for _event, data in reader.events), reader.events
            heard[name] = [
                (event, data.replace(f'"game":{game.pk},', '"game":G,'))
                for event, data in reader.events
                if event not in ("keep-alive",)
            ]
        assert heard["KS"] == heard["JS"]
        assert len([event for event, _data in heard["KS"] if event == "game"]) >= 15
    finally:
        tap.close()
    assert tap.messages, "nothing was published"
    published = [json.loads(message) for message in tap.messages]
    assert {message["type"] for message in published} >= {"game", "chat", "bell"}
    for game in Game.objects.exclude(deal=None):
        assert_no_card_or_seed(tap.messages, game, "Redis")


# --- When Redis fails -------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_move_succeeds_while_the_live_redis_is_down(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    game, users = started_game(deal=DEALS["KS"])
    engine = game.engine()
    player = engine.waiting_for()[0]
    moved = services.make_move(
        user=users[player],
        game_id=game.pk,
        action=engine.legal_json(player)[0],
        expected_version=game.version,
    )
    assert moved.version == game.version + 1
    assert "live stream unavailable" in caplog.text


def fanout_clients(client: redis.Redis) -> list[dict[str, Any]]:
    """This test process's site's fan-out connections: named in its ``REDIS_NAMESPACE``, so
    another test run's site on the same Redis database is not counted."""
    return [entry for entry in client.client_list() if entry.get("name") == live.fanout_name()]


def test_a_lost_subscription_ends_the_streams_and_new_ones_come_once_it_is_back(site: Site) -> None:
    game, users = started_game(deal=DEALS["KS"])
    session = login_session(users[1])
    first = SseReader(site, session, [f"game-{game.pk}"])
    try:
        first.wait_for("stream-open")
        admin = redis.Redis.from_url(redis_url())
        subscribers = fanout_clients(admin)
        assert len(subscribers) == 1, subscribers
        admin.client_kill_filter(_id=subscribers[0]["id"])
        first.wait_for("stream-error", "unavailable")  # its page polls from here
        first.thread.join(timeout=DEADLINE)
        assert not first.thread.is_alive(), "the stream did not end"
    finally:
        first.close()
    deadline = time.monotonic() + DEADLINE
    # Subscribed, not only connected: a client is listed before its SUBSCRIBE is through.
    while not any(int(entry.get("sub", 0)) >= 1 for entry in fanout_clients(admin)):
        assert time.monotonic() < deadline, "the site did not subscribe again"
        time.sleep(0.1)
    second = SseReader(site, session, [f"game-{game.pk}"])
    try:
        second.wait_for("stream-open")
        engine = game.engine()
        player = engine.waiting_for()[0]
        services.make_move(
            user=users[player],
            game_id=game.pk,
            action=engine.legal_json(player)[0],
            expected_version=game.version,
        )
        second.wait_for("game", f'"version":{game.version + 1}}}')
    finally:
        second.close()


def test_a_dead_live_redis_does_not_silence_another_one(settings: Any) -> None:
    """The pause after a failed publish belongs to the Redis that failed (an earlier test's dead
    URL once silenced the next test's events for five seconds)."""
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"
    settings.LIVE_REDIS_CHANNEL = ""
    live.send(live.game_channel(1), "game", {"game": 1, "version": 1})
    settings.LIVE_REDIS_URL = redis_url()
    tap = RedisTap()
    try:
        time.sleep(0.2)  # the tap's subscription is in place before the event is published
        live.send(live.game_channel(1), "game", {"game": 1, "version": 2})
        deadline = time.monotonic() + DEADLINE
        while not tap.messages and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        tap.close()
    assert [json.loads(text)["channel"] for text in tap.messages] == [live.game_channel(1)]


def test_a_moderator_hiding_a_message_tells_that_chats_readers_without_its_text(
    transactional_db: Any, settings: Any
) -> None:
    settings.LIVE_REDIS_URL = redis_url()
    settings.LIVE_REDIS_CHANNEL = ""
    game, users = started_game(deal=DEALS["KS"])
    message = chat_services.chat_post(user=users[0], game=game, text="rude words")
    moderator = UserFactory()
    moderator.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    moderator.user_permissions.add(Permission.objects.get(codename="hide_message"))
    tap = RedisTap()
    try:
        time.sleep(0.2)  # the tap's subscription is in place before the hide is published
        moderation_services.message_hide(
            moderator=User.objects.get(pk=moderator.pk), message=message, reason="abuse"
        )
        deadline = time.monotonic() + DEADLINE
        while not tap.messages and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        tap.close()
    events = [json.loads(text) for text in tap.messages]
    assert {"channel": live.chat_channel(game.pk, "players"), "type": "chat"} in [
        {"channel": event["channel"], "type": event["type"]} for event in events
    ]
    assert not any("rude" in text for text in tap.messages)
