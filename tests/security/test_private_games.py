"""Private means private: every URL that takes a game id, pointed at a private game that is
open, running or finished, answers anyone who is not its player, invitee or share-link holder
exactly what it answers for a game that does not exist (status, headers and body, apart from
the id), and no write of theirs (chat, join without the link, report, move, ...) changes a row.
Its players, invitees and link holders do get it.

The URLs come from the URLconf (every pattern with a ``game_id``), so a new one must say here
what to send it.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts.models import User
from chat.models import ChatMessage
from games import selectors, services, versions
from games.models import Game, Invitation, Move, Seat
from moderation import services as moderation_services
from moderation.models import Report
from notifications.models import Notification
from series import services as series_services
from series.models import Series, SeriesGame
from tests.factories import LONGER_DEAL, PASSWORD, play_moves
from tests.stats.helpers import DRAW_DEAL, DRAW_MOVES, play_script

from .test_access import url_patterns

pytestmark = pytest.mark.django_db

STATES = ["open", "running", "finished"]


@dataclass(frozen=True)
class Call:
    method: str
    query: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    api: bool = False


def _action(game: Game, *, api: bool) -> dict[str, Any]:
    """A move the game waits for (so only who asks can make it fail), else a plausible one."""
    action: dict[str, Any] = {"type": "take"}
    if game.status == Game.Status.ACTIVE and game.state is not None:
        engine = game.engine()
        action = engine.legal_json(engine.waiting_for()[0])[0]
    if api:
        return {
            "action": {k: v for k, v in action.items() if k != "player"},
            "expected_version": game.version,
        }
    return {"action": json.dumps(action), "expected_version": game.version}


def _markers(game: Game) -> list[Call]:
    from chat.selectors import chat_marker

    return [
        Call("GET"),
        *(
            Call("GET", f"channel={channel}&marker={chat_marker(game_id=game.pk, channel=channel)}")
            for channel in ChatMessage.Channel.values
        ),
    ]


#: What to send each URL that takes a game id (the game's current state decides the details).
CALLS: dict[str, Callable[[Game], list[Call]]] = {
    "games:detail": lambda g: [Call("GET"), Call("GET", "invite=guessed")],
    "games:poll": lambda g: [Call("GET", f"version={g.version}"), Call("GET", "version=-1")],
    "games:history": lambda g: [Call("GET", f"before={g.moves_made + 1}"), Call("GET", "before=2&seen=0")],
    "games:move": lambda g: [Call("POST", data=_action(g, api=False))],
    "games:presence": lambda g: [Call("POST", data={"visible": "1", "version": g.version})],
    "games:join": lambda g: [Call("POST"), Call("POST", data={"token": "guessed-token"})],
    "games:leave": lambda g: [Call("POST")],
    "games:resign": lambda g: [Call("POST", data={"expected_version": g.version})],
    "games:claim": lambda g: [Call("POST", data={"expected_version": g.version})],
    "games:start": lambda g: [Call("POST")],
    "games:fill_with_bots": lambda g: [Call("POST")],
    "games:invite": lambda g: [Call("POST", data={"username": "sam"})],
    "games:join_link": lambda g: [Call("GET")],  # pointed at a wrong token, see _url
    "chat:log": _markers,
    "chat:post": lambda g: [Call("POST", data={"text": "hello from outside"})],
    "series:rematch": lambda g: [Call("GET"), Call("GET", "state=none")],
    "series:rematch_offer": lambda g: [Call("POST", data={"games_agreed": "3"})],
    "series:rematch_accept": lambda g: [Call("POST")],
    "series:rematch_decline": lambda g: [Call("POST")],
    "replays:replay": lambda g: [Call("GET"), Call("GET", "step=1")],
    "replays:export": lambda g: [Call("GET")],
    "api:game": lambda g: [Call("GET", api=True)],
    "api:join": lambda g: [Call("POST", api=True)],
    "api:leave": lambda g: [Call("POST", api=True)],
    "api:resign": lambda g: [Call("POST", data={"expected_version": g.version}, api=True)],
    "api:claim": lambda g: [Call("POST", api=True)],
    "api:start": lambda g: [Call("POST", api=True)],
    "api:actions": lambda g: [Call("POST", data=_action(g, api=True), api=True)],
    "api:rematch_offer": lambda g: [Call("POST", data={"games_agreed": 3}, api=True)],
    "api:rematch_accept": lambda g: [Call("POST", api=True)],
    "api:rematch_decline": lambda g: [Call("POST", api=True)],
    "api:moves": lambda g: [Call("GET", api=True)],
    "api:wait": lambda g: [Call("GET", f"version={g.version}", api=True)],
}
#: URLs that name the game in their query string (given the game's id and its creator's).
QUERY_CALLS: dict[str, Callable[[int, int], list[Call]]] = {
    "moderation:report": lambda game_id, user_id: [
        Call("GET", f"game={game_id}"),
        Call("GET", f"user={user_id}&game={game_id}"),
        Call("POST", f"game={game_id}", {"reason": "cheating", "details": "they peek"}),
        Call("POST", f"user={user_id}&game={game_id}", {"reason": "abuse"}),
    ],
}

GAME_URLS = sorted({name for route, name, _ in url_patterns() if name and "<int:game_id>" in route})


def _url(name: str, game_id: int, call: Call) -> str:
    kwargs: dict[str, Any] = {} if name in QUERY_CALLS else {"game_id": game_id}
    if name == "games:join_link":
        kwargs["token"] = "guessed-token"
    return reverse(name, kwargs=kwargs) + (f"?{call.query}" if call.query else "")


def _send(client: Client, name: str, game_id: int, call: Call) -> Any:
    url = _url(name, game_id, call)
    if call.method == "GET":
        return client.get(url)
    if call.api:
        return client.post(url, json.dumps(call.data), content_type="application/json")
    return client.post(url, call.data)


def _normalised(response: Any, game_id: int) -> tuple[Any, ...]:
    """Everything a visitor can read of an answer, with the game's id blanked out."""

    def blank(text: str) -> str:
        return re.sub(rf"(?<!\w){game_id}(?!\w)", "<id>", text)

    return (
        response.status_code,
        response.get("Content-Type"),
        blank(unquote(response.get("Location", ""))),
        blank(response.content.decode(errors="replace")),
    )


@dataclass
class World:
    users: dict[str, User]
    games: dict[str, Game]
    clients: dict[str, Client]
    missing_id: int
    messages: dict[str, dict[str, str]]  # state -> channel -> text


def _client(user: User | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _private_game(olga: User, boris: User, inez: User, holders: list[Client], **options: Any) -> Game:
    """Olga's private game: Inez invited, the link holders opened its share link while it was
    open, and Boris joined by the link (which deals the cards of a two-player game)."""
    game = services.game_create(creator=olga, preset="classic", private=True, **options)
    services.game_invite(user=olga, game_id=game.pk, username=inez.username)
    game.refresh_from_db()
    for holder in holders:
        opened = holder.get(reverse("games:join_link", args=[game.pk, game.invite_token]))
        assert opened.status_code == 302, opened.status_code
    services.game_join(user=boris, game_id=game.pk, token=game.invite_token)
    game.refresh_from_db()
    return game


@pytest.fixture
def world() -> World:
    cache.clear()  # API throttle counters from other tests
    with connection.cursor() as cursor:  # game ids far from every other number on the pages
        cursor.execute("SELECT setval(pg_get_serial_sequence('games_game', 'id'), 700000)")
    users = {
        name: User.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("olga", "boris", "inez", "lena", "sam", "vera")
    }
    clients = {name: _client(user) for name, user in users.items()}
    clients["anonymous"] = _client()
    clients["anonymous link holder"] = _client()
    holders = [clients["lena"], clients["anonymous link holder"]]
    olga, boris, inez = users["olga"], users["boris"], users["inez"]
    games = {
        "open": _private_game(olga, boris, inez, holders, num_players=3),
        "running": _private_game(olga, boris, inez, holders, num_players=2, deal=LONGER_DEAL),
        "finished": _private_game(olga, boris, inez, holders, num_players=2, deal=DRAW_DEAL),
    }
    by_position = {s.position: s.user for s in games["running"].seats.select_related("user")}
    games["running"] = play_moves(games["running"], [by_position[0], by_position[1]], 1)
    by_position = {s.position: s.user for s in games["finished"].seats.select_related("user")}
    games["finished"] = play_script(games["finished"], [by_position[0], by_position[1]], DRAW_MOVES)
    assert [games[state].status for state in STATES] == ["open", "active", "finished"]
    # Vera holds the share link of another private game only, and tried a wrong one for these.
    decoy = services.game_create(creator=olga, preset="classic", num_players=2, private=True)
    assert (
        clients["vera"].get(reverse("games:join_link", args=[decoy.pk, decoy.invite_token])).status_code
        == 302
    )
    for game in games.values():
        clients["vera"].get(reverse("games:join_link", args=[game.pk, "wrong-token"]))
    messages = {}
    for state, game in games.items():
        messages[state] = {
            "players": f"players of the {state} game whisper",
            "spectators": f"link holders of the {state} game chat",
        }
        ChatMessage.objects.create(game=game, author=olga, channel="players", text=messages[state]["players"])
        ChatMessage.objects.create(
            game=game, author=users["lena"], channel="spectators", text=messages[state]["spectators"]
        )
    missing_id = Game.objects.order_by("-pk").values_list("pk", flat=True)[0] + 1000
    return World(users=users, games=games, clients=clients, missing_id=missing_id, messages=messages)


def fingerprint() -> dict[str, Any]:
    """Every row a visitor's request could change."""
    return {
        "games": sorted(
            Game.objects.values_list("pk", "status", "version", "private", "invite_token", "bot_level")
        ),
        "seats": sorted(Seat.objects.values_list("game_id", "user_id", "position", "result")),
        "moves": Move.objects.count(),
        "invitations": sorted(Invitation.objects.values_list("game_id", "user_id")),
        "chat": sorted(ChatMessage.objects.values_list("pk", "game_id", "channel", "text", "hidden_at")),
        "reports": Report.objects.count(),
        "series": (Series.objects.count(), SeriesGame.objects.count()),
        "notifications": sorted(Notification.objects.values_list("pk", "user_id", "read_at")),
    }


def test_every_url_that_takes_a_game_id_is_checked() -> None:
    assert len(GAME_URLS) >= 20, GAME_URLS
    assert set(GAME_URLS) == set(CALLS), (
        "Say in CALLS what to send each URL that takes a game id: "
        f"missing {sorted(set(GAME_URLS) - set(CALLS))}, gone {sorted(set(CALLS) - set(GAME_URLS))}"
    )


@pytest.fixture
def quick_wait(settings: Any) -> None:
    settings.API_WAIT_SECONDS = 0.5  # a wait the visitor may not see must not 204 after it


@pytest.mark.usefixtures("quick_wait")
@pytest.mark.parametrize("who", ["anonymous", "sam", "vera"])
@pytest.mark.parametrize("state", STATES)
def test_anyone_else_gets_what_a_missing_game_gives_and_changes_nothing(
    state: str, who: str, world: World
) -> None:
    """Anonymous visitors, a stranger, and a spectator who holds another game's link."""
    game = world.games[state]
    client = world.clients[who]
    calls = [(name, call, call) for name in GAME_URLS for call in CALLS[name](game)]
    for name, make in QUERY_CALLS.items():
        pairs = zip(make(game.pk, game.creator_id), make(world.missing_id, game.creator_id), strict=True)
        calls += [(name, call, missing_call) for call, missing_call in pairs]
    for name, call, missing_call in calls:
        cache.clear()  # throttles: many calls from one address
        before = fingerprint()
        answer = _send(client, name, game.pk, call)
        where = f"{who} {call.method} {_url(name, game.pk, call)} ({state})"
        assert fingerprint() == before, f"{where} changed rows"
        for text in world.messages[state].values():
            assert text not in answer.content.decode(errors="replace"), f"{where} shows the chat"
        missing = _send(client, name, world.missing_id, missing_call)
        assert _normalised(answer, game.pk) == _normalised(missing, world.missing_id), where
        assert answer.status_code in (302, 401, 404), where  # the log-in page first, or no game


def test_a_moderators_view_and_a_players_move_are_not_refused(world: World) -> None:
    """The refusals above are about who asks: the same move by the player it waits for works,
    and a moderator (who reads the game in the admin) may open its page and replay."""
    game = world.games["running"]
    assert game.state is not None
    mover = game.seats.get(position=game.engine().waiting_for()[0]).user
    response = _send(world.clients[mover.username], "games:move", game.pk, CALLS["games:move"](game)[0])
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).version == game.version + 1
    moderator = User.objects.create_user("mod", "mod@example.com", PASSWORD)
    moderation_services.moderator_grant(user=moderator, actor=None, reason="test moderator")
    moderator.refresh_from_db()
    client = _client(moderator)
    assert client.get(reverse("games:detail", args=[game.pk])).status_code == 200
    assert client.get(reverse("replays:replay", args=[world.games["finished"].pk])).status_code == 200


@pytest.mark.parametrize("who", ["olga", "boris", "inez", "lena", "anonymous link holder"])
@pytest.mark.parametrize("state", STATES)
def test_players_invitees_and_link_holders_see_it(state: str, who: str, world: World) -> None:
    game = world.games[state]
    client = world.clients[who]
    seated = game.seats.filter(user__username=who).exists()
    channel = "players" if seated else "spectators"
    page = client.get(reverse("games:detail", args=[game.pk]))
    assert page.status_code == 200, page.status_code
    poll = reverse("games:poll", args=[game.pk])
    assert client.get(poll, {"version": game.version}, headers={"HX-Request": "true"}).status_code == 204
    assert client.get(poll, {"version": game.version - 1}, headers={"HX-Request": "true"}).status_code == 200
    log = client.get(reverse("chat:log", args=[game.pk]))
    assert log.status_code == 200
    text = log.content.decode()
    assert world.messages[state][channel] in text
    assert world.messages[state]["spectators" if seated else "players"] not in text
    own = next(call for call in _markers(game)[1:] if f"channel={channel}&" in call.query)
    other = next(call for call in _markers(game)[1:] if f"channel={channel}&" not in call.query)
    assert _send(client, "chat:log", game.pk, own).status_code == 204
    # The other channel's marker tells nothing: the viewer's own log comes back.
    assert _send(client, "chat:log", game.pk, other).status_code == 200
    replayable = 200 if state == "finished" else 404
    assert client.get(reverse("replays:replay", args=[game.pk])).status_code == replayable
    assert client.get(reverse("replays:export", args=[game.pk])).status_code == replayable
    if who != "anonymous link holder":  # the API needs a log-in
        detail = client.get(reverse("api:game", args=[game.pk]))
        assert detail.status_code == 200 and detail.json()["id"] == game.pk
        assert client.get(reverse("api:moves", args=[game.pk])).status_code == 200
        changed = client.get(reverse("api:wait", args=[game.pk]), {"version": game.version - 1})
        assert changed.status_code == 200 and changed.json()["id"] == game.pk


def test_a_link_holder_may_chat_as_a_spectator_and_an_invitee_may_join(world: World) -> None:
    game = world.games["running"]
    lena = world.clients["lena"]
    assert lena.post(reverse("chat:post", args=[game.pk]), {"text": "go olga"}).status_code == 302
    assert ChatMessage.objects.filter(game=game, channel="spectators", text="go olga").exists()
    assert (
        world.clients["anonymous link holder"]
        .post(reverse("chat:post", args=[game.pk]), {"text": "anyone?"})
        .status_code
        == 302
    )  # to the log-in page: watching needs no account, chatting does
    assert not ChatMessage.objects.filter(text="anyone?").exists()
    open_game = world.games["open"]
    assert world.clients["inez"].post(reverse("games:join", args=[open_game.pk])).status_code == 302
    assert open_game.seats.filter(user=world.users["inez"]).exists()


def test_only_the_right_token_opens_the_game_and_only_for_that_game(world: World) -> None:
    game = world.games["open"]
    sam = world.clients["sam"]
    wrong = sam.get(reverse("games:join_link", args=[game.pk, game.invite_token[:-1] + "x"]))
    missing = sam.get(reverse("games:join_link", args=[world.missing_id, game.invite_token]))
    assert _normalised(wrong, game.pk) == _normalised(missing, world.missing_id)
    assert sam.get(reverse("games:detail", args=[game.pk])).status_code == 404
    right = sam.get(reverse("games:join_link", args=[game.pk, game.invite_token]))
    assert right.status_code == 302
    assert right["Location"] == reverse("games:detail", args=[game.pk]) + f"?invite={game.invite_token}"
    assert sam.get(reverse("games:detail", args=[game.pk])).status_code == 200
    assert sam.get(reverse("games:detail", args=[world.games["running"].pk])).status_code == 404
    # ... and with the link the seat can be taken.
    assert sam.post(reverse("games:join", args=[game.pk]), {"token": game.invite_token}).status_code == 302
    assert game.seats.filter(user=world.users["sam"]).exists()


def test_the_cached_version_answers_no_poll_of_a_private_game(
    world: World, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """With the shared version cache on, a right guess of a private game's version is still a
    404 for a stranger: only a public game's poll is answered from the cache alone."""
    settings.GAME_VERSION_CACHE_SECONDS = 10
    game = world.games["running"]
    with django_capture_on_commit_callbacks(execute=True):
        versions.publish(game.pk, game.version)
    assert versions.cached(game.pk) == game.version
    poll = reverse("games:poll", args=[game.pk])
    assert world.clients["sam"].get(poll, {"version": game.version}).status_code == 404
    assert world.clients["boris"].get(poll, {"version": game.version}).status_code == 204


def test_a_private_games_chat_message_cannot_be_reported_or_quoted_by_others(world: World) -> None:
    message = ChatMessage.objects.get(game=world.games["running"], channel="spectators")
    missing_id = ChatMessage.objects.order_by("-pk").values_list("pk", flat=True)[0] + 1000
    url = reverse("moderation:report")
    for who in ("sam", "vera"):
        client = world.clients[who]
        before = fingerprint()
        for method in ("get", "post"):
            send = getattr(client, method)
            data = {"reason": "abuse"} if method == "post" else {}
            answer = send(f"{url}?message={message.pk}", data)
            missing = send(f"{url}?message={missing_id}", data)
            assert answer.status_code == missing.status_code == 404, who
            assert answer.content == missing.content
        assert fingerprint() == before
    assert world.clients["lena"].get(f"{url}?message={message.pk}").status_code == 200


def test_the_series_of_a_private_game_is_private_too(world: World) -> None:
    following = series_services.start_next_game(
        user=world.users["olga"], game_id=world.games["finished"].pk, games_agreed=3
    )
    series_id = following.series_entry.series_id
    missing_id = Series.objects.order_by("-pk").values_list("pk", flat=True)[0] + 1000
    for who in ("anonymous", "sam", "vera"):
        answer = world.clients[who].get(reverse("series:detail", args=[series_id]))
        missing = world.clients[who].get(reverse("series:detail", args=[missing_id]))
        assert answer.status_code == missing.status_code == 404, who
        assert answer.content == missing.content, who
    assert world.clients["boris"].get(reverse("series:detail", args=[series_id])).status_code == 200


# Lists: a private game appears, by id, link or result, only to whoever may open it.


def _names_a_game(text: str, game_ids: list[int]) -> list[int]:
    """The ids of ``game_ids`` that ``text`` names (as a number on its own: "#700002", a link)."""
    return [game_id for game_id in game_ids if re.search(rf"(?<!\d){game_id}(?!\d)", text)]


def _list_pages(world: World) -> list[str]:
    """Every page that lists games: the profiles of the private games' players (their recent
    games), with the head to head, the leaderboards, the lobby, the notifications, and the
    API's game list with each of its filters."""
    pages = []
    for name, other in (("olga", "boris"), ("boris", "olga"), ("inez", "olga")):
        profile = reverse("stats:profile", args=[name])
        pages += [profile, f"{profile}?vs={other}", f"{profile}?vs={other.upper()}"]
    pages += [
        reverse("stats:leaderboard"),
        reverse("stats:leaderboard") + "?mode=throw_in&players=2",
        reverse("games:lobby"),
        reverse("notifications:list"),
    ]
    games = reverse("api:games")
    pages += [games, f"{games}?status=finished", f"{games}?status=active", f"{games}?status=open"]
    pages += [f"{games}?mine=true", f"{games}?open_to_join=true", f"{games}?waiting_for_me=true"]
    return pages


@pytest.mark.parametrize("who", ["anonymous", "sam", "vera"])
def test_no_list_names_a_private_game_to_anyone_else(who: str, world: World) -> None:
    """Neither the open, the running nor the finished game: not in the profile's recent games of
    its players (before: the finished game's number, result and replay link were there for
    everyone), the head to head, the leaderboards, the lobby, the notifications or the API."""
    private_ids = [game.pk for game in world.games.values()]
    client = world.clients[who]
    for page in _list_pages(world):
        cache.clear()  # throttles: many calls from one address
        answer = client.get(page)
        assert answer.status_code in (200, 302, 401), (who, page, answer.status_code)
        text = answer.content.decode(errors="replace")
        assert _names_a_game(text, private_ids) == [], (who, page)
        for game_id in private_ids:
            assert reverse("replays:replay", args=[game_id]) not in text


@pytest.mark.parametrize("who", ["olga", "boris", "lena", "anonymous link holder"])
def test_who_may_open_the_finished_game_finds_it_in_its_players_recent_games(who: str, world: World) -> None:
    """Its players, and the holders of its share link: the filter hides it from no one else."""
    finished = world.games["finished"]
    for name in ("olga", "boris"):
        text = world.clients[who].get(reverse("stats:profile", args=[name]) + "?vs=inez").content.decode()
        assert reverse("games:detail", args=[finished.pk]) in text, (who, name)
        assert reverse("replays:replay", args=[finished.pk]) in text, (who, name)


def test_a_moderator_finds_it_too_and_the_api_lists_it_to_a_link_holder(world: World) -> None:
    finished = world.games["finished"]
    moderator = User.objects.create_user("mod", "mod@example.com", PASSWORD)
    moderation_services.moderator_grant(user=moderator, actor=None, reason="test moderator")
    profile = _client(User.objects.get(pk=moderator.pk)).get(reverse("stats:profile", args=["olga"]))
    assert reverse("games:detail", args=[finished.pk]) in profile.content.decode()
    # Lena opened the link in this session: the API's list agrees with its detail.
    listed = world.clients["lena"].get(reverse("api:games"), {"status": "finished"}).json()["results"]
    assert [game["id"] for game in listed] == [finished.pk]
    assert world.clients["lena"].get(reverse("api:game", args=[finished.pk])).status_code == 200


def test_a_series_lists_only_the_games_the_viewer_may_open(world: World) -> None:
    """Lena holds the link of the series's first game, not of the next one: she sees the first
    (its page, and it in the series) but the series names the next to its players only."""
    finished = world.games["finished"]
    following = series_services.start_next_game(user=world.users["olga"], game_id=finished.pk, games_agreed=3)
    series_url = reverse("series:detail", args=[following.series_entry.series_id])
    assert world.clients["lena"].get(reverse("games:detail", args=[following.pk])).status_code == 404
    for who in ("lena", "anonymous link holder"):
        page = world.clients[who].get(series_url)
        assert page.status_code == 200, who
        text = page.content.decode()
        assert reverse("games:detail", args=[finished.pk]) in text, who
        assert _names_a_game(text, [following.pk]) == [], who
    for who in ("olga", "boris"):
        text = world.clients[who].get(series_url).content.decode()
        assert _names_a_game(text, [finished.pk, following.pk]) == [finished.pk, following.pk], who


def test_visible_games_is_game_visible_to_in_sql(world: World) -> None:
    """The lists' filter and the pages' check agree for every viewer about every kind of game:
    public and private, open, running, finished and cancelled (its creator without a seat),
    another player's private game, for its players, invitees, link holders, strangers,
    anonymous visitors, a moderator, staff without the permission and an inactive moderator."""
    users, clients = world.users, world.clients
    services.game_create(creator=users["sam"], preset="classic", num_players=2)
    public_running = services.game_create(creator=users["vera"], preset="classic", num_players=2)
    services.game_join(user=users["sam"], game_id=public_running.pk)
    cancelled = services.game_create(creator=users["inez"], preset="classic", num_players=3, private=True)
    services.game_invite(user=users["inez"], game_id=cancelled.pk, username="vera")
    services.game_leave(user=users["inez"], game_id=cancelled.pk)
    moderator = User.objects.create_user("mod", "mod@example.com", PASSWORD)
    moderation_services.moderator_grant(user=moderator, actor=None, reason="test moderator")
    retired = User.objects.create_user("retired", "retired@example.com", PASSWORD)
    moderation_services.moderator_grant(user=retired, actor=None, reason="test moderator")
    User.objects.filter(pk=retired.pk).update(is_active=False)
    User.objects.create_user("staff", "staff@example.com", PASSWORD, is_staff=True)
    viewers: list[tuple[Any, Any]] = [
        (User.objects.get(username=name), clients[name].session) for name in users
    ]
    viewers += [(User.objects.get(username=name), Client().session) for name in ("mod", "retired", "staff")]
    viewers += [(AnonymousUser(), clients[name].session) for name in ("anonymous", "anonymous link holder")]
    assert Game.objects.filter(private=True).count() >= 5 and Game.objects.filter(private=False).count() >= 2
    everything = list(Game.objects.prefetch_related("seats", "invitations"))
    for user, session in viewers:
        shared = selectors.share_link_game_ids(session)
        listed = set(selectors.visible_games(Game.objects.all(), user=user, shared_game_ids=shared))
        allowed = {
            game
            for game in everything
            if selectors.game_visible_to(game=game, user=user, shared_game_ids=shared)
        }
        assert {game.pk for game in listed} == {game.pk for game in allowed}, getattr(
            user, "username", "anonymous"
        )
    by_name = {getattr(user, "username", ""): user for user, _session in viewers}
    mine = selectors.visible_games(Game.objects.all(), user=by_name["inez"], shared_game_ids=())
    assert mine.filter(pk=cancelled.pk).exists()  # the creator, whose seat is gone
    assert selectors.visible_games(
        Game.objects.all(), user=by_name["mod"], shared_game_ids=()
    ).count() == len(everything)
