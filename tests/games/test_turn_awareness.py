"""Your-turn awareness: the count of games waiting for a player's move (the header's counter and
the tab's title), the "next game waiting for you" button, "My games" with those waiting first,
the counter's fragment (``GET /games/turns/``) and the sound setting.

The count comes from the stored seats (``Seat.awaiting_move``, which the services copy from the
engine's ``waiting_for()``); the tests check it against the engine itself.
"""

import html
import json
import re
import time
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from durak_site import live
from games import selectors, services
from games.models import Game
from tests.factories import LONGER_DEAL, GameFactory, UserFactory, play_moves
from tests.security.test_stream import RedisTap, redis_url

pytestmark = pytest.mark.django_db

LOBBY = "/"


def game_between(first: User, second: User, *, move_time: timedelta | None = None) -> Game:
    """A running two-player game waiting for ``first`` (seat 0 leads in ``LONGER_DEAL``)."""
    game = GameFactory(creator=first, deal=LONGER_DEAL, move_time=move_time)
    services.game_join(user=second, game_id=game.pk)
    game.refresh_from_db()
    assert game.engine().waiting_for() == [0]
    return game


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def title(page: str) -> str:
    match = re.search(r"<title>(.*?)</title>", page, re.S)
    assert match
    return html.unescape(match.group(1))


def counter(page: str) -> str:
    """The header's counter element (its opening tag and content)."""
    match = re.search(r'<div id="turn-counter".*?</div>', page, re.S)
    assert match, "no counter on the page"
    return match.group(0)


def shown_count(page: str) -> int | None:
    """The count the counter shows, None while it is hidden (no game waits)."""
    element = counter(page)
    opening = element.split(">", 1)[0]
    count = int(re.search(r'data-count="(\d+)"', opening).group(1))  # type: ignore[union-attr]
    badge = re.search(r'<span class="badge turns-count"[^>]*>(\d+)</span>', element)
    if " hidden" in opening:
        assert count == 0 and badge is None and "<a" not in element  # nothing to tab to
        return None
    if count == 0:  # shown for the games where the player only may act (issue 29)
        assert badge is None and 'class="turns-optional"' in element
        return 0
    assert badge and int(badge.group(1)) == count
    return count


def next_game_link(page: str) -> int | None:
    """The game the "next game waiting for you" button leads to, None if there is none."""
    match = re.search(r'<p id="next-game"[^>]*>(.*?)</p>', page, re.S)
    assert match, "no next-game block on the page"
    link = re.search(r'<a class="button next-game-link" href="/games/(\d+)/">', match.group(1))
    assert (link is None) == (" hidden" in match.group(0).split(">", 1)[0])
    return int(link.group(1)) if link else None


# --- The selectors ---------------------------------------------------------------------------


def test_nothing_waits_for_a_new_player(django_assert_num_queries: Any) -> None:
    me = UserFactory()
    with django_assert_num_queries(1):
        turns = selectors.turns_waiting(user_id=me.pk)
    assert (turns.count, turns.first, turns.next_game()) == (0, (), None)


def test_only_running_games_waiting_for_my_move_count() -> None:
    me, other = UserFactory(), UserFactory()
    mine = game_between(me, other)
    game_between(other, me)  # waits for the other player
    GameFactory(creator=me, num_players=3)  # open
    finished = game_between(me, other)
    play_moves(finished, [me, other], 100)
    assert Game.objects.get(pk=finished.pk).status == Game.Status.FINISHED
    aborted = game_between(me, other)
    services.game_abort(game_id=aborted.pk)
    game_between(UserFactory(), UserFactory())  # somebody else's
    turns = selectors.turns_waiting(user_id=me.pk)
    assert (turns.count, turns.first) == (1, (mine.pk,))
    assert selectors.turns_waiting(user_id=other.pk).count == 1


def test_the_earliest_deadline_comes_first_then_the_longest_wait(django_assert_num_queries: Any) -> None:
    me = UserFactory()
    untimed_older = game_between(me, UserFactory())
    untimed_newer = game_between(me, UserFactory())
    a_day = game_between(me, UserFactory(), move_time=timedelta(days=1))
    an_hour = game_between(me, UserFactory(), move_time=timedelta(hours=1))
    with django_assert_num_queries(1):
        turns = selectors.turns_waiting(user_id=me.pk)
    assert turns.count == 4
    assert turns.first == (an_hour.pk, a_day.pk)
    assert turns.next_game() == an_hour.pk
    assert turns.next_game(excluding=an_hour.pk) == a_day.pk
    assert turns.next_game(excluding=a_day.pk) == an_hour.pk
    # The order "My games" lists them in is the same.
    listed = [game.pk for game in selectors.user_games(user=me)]
    assert listed == [an_hour.pk, a_day.pk, untimed_older.pk, untimed_newer.pk]


@pytest.mark.parametrize("games", [1, 25])
def test_the_count_is_one_query_whatever_the_number_of_games(
    games: int, django_assert_num_queries: Any
) -> None:
    me = UserFactory()
    for _ in range(games):
        game_between(me, UserFactory(), move_time=timedelta(days=3))
    with django_assert_num_queries(1):
        turns = selectors.turns_waiting(user_id=me.pk)
    assert turns.count == games and len(turns.first) == min(games, 2)
    nobody = UserFactory()
    with django_assert_num_queries(1):
        assert selectors.turns_waiting_counts(user_ids=[me.pk, nobody.pk]) == {me.pk: games, nobody.pk: 0}


def test_the_count_agrees_with_the_engine_also_for_throw_ins() -> None:
    """After every move of three-player games, each player's count is the number of running
    games that cannot go on without their seat (the engine's ``must_act()``: the defender while
    cards lie unbeaten; else the attackers whose "done" closes the bout), and the games where
    they only may throw in are counted apart."""
    players = UserFactory.create_batch(3)
    games = []
    for seed in (11, 12, 13):
        game = GameFactory(creator=players[0], num_players=3, seed=seed)
        for user in players[1:]:
            services.game_join(user=user, game_id=game.pk)
        games.append(game)
    several_needed = may_only = 0
    for _step in range(25):
        expected = dict.fromkeys((user.pk for user in players), 0)
        optional = dict.fromkeys((user.pk for user in players), 0)
        for game in games:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                continue
            engine = game.engine()
            seated = {seat.position: seat.user_id for seat in game.seats.all()}
            needed = engine.must_act()
            several_needed += len(needed) > 1
            for position in needed:
                expected[seated[position]] += 1
            for position in set(engine.waiting_for()) - set(needed):
                optional[seated[position]] += 1
                may_only += 1
        assert selectors.turns_waiting_counts(user_ids=list(expected)) == expected
        for user in players:
            turns = selectors.turns_waiting(user_id=user.pk)
            assert (turns.count, turns.optional) == (expected[user.pk], optional[user.pk])
        for game in games:
            by_position = {seat.position: seat.user for seat in game.seats.select_related("user")}
            play_moves(game, [by_position[p] for p in range(3)], 1)
    assert several_needed > 0  # a bout beaten, waiting for two attackers' "done", was met
    assert may_only > 0  # an attacker who may throw in while the defender must act was met


def test_the_attacker_who_just_led_is_not_waited_for_but_may_throw_in_apart() -> None:
    """Issue 29: after leading, the attacker may throw in more while the defender must act. The
    counter and "Next game waiting for you" leave that game out; it is shown apart, quieter."""
    me, other = UserFactory(), UserFactory()
    led = game_between(me, other)
    waiting = game_between(me, UserFactory())
    play_moves(led, [me, other], 1)  # I lead 6♠; the defender holds the 6♣: I may throw in later
    engine = Game.objects.get(pk=led.pk).engine()
    assert engine.waiting_for() == [0, 1] and engine.must_act() == [1]
    turns = selectors.turns_waiting(user_id=me.pk)
    assert (turns.count, turns.first, turns.optional) == (1, (waiting.pk,), 1)
    client = client_for(me)
    lobby = client.get(LOBBY).content.decode()
    assert shown_count(lobby) == 1 and title(lobby).startswith("(1) Your move")
    assert "may throw in: 1 game" in counter(lobby)
    assert 'data-optional="1"' in counter(lobby)
    on_waiting = client.get(reverse("games:detail", args=[waiting.pk])).content.decode()
    assert next_game_link(on_waiting) is None  # the game I led in goes on without me
    listed = {game.pk: game for game in selectors.user_games(user=me)}
    assert (listed[led.pk].my_turn, listed[led.pk].my_option) == (False, True)
    assert (listed[waiting.pk].my_turn, listed[waiting.pk].my_option) == (True, False)
    my_games = lobby.split('id="my-games-title"', 1)[1].split("</section>", 1)[0]
    assert my_games.index(f"/games/{waiting.pk}/") < my_games.index(f"/games/{led.pk}/")
    assert 'class="badge optional"' in my_games
    assert selectors.turns_waiting(user_id=other.pk).count == 1  # the defender must act
    services.make_move(
        user=other,
        game_id=led.pk,
        action={"type": "defend", "player": 1, "target": "6S", "card": "8S"},
        expected_version=Game.objects.get(pk=led.pk).version,
    )
    # Everything beaten: the bout cannot close without my "done" (or a throw-in).
    turns = selectors.turns_waiting(user_id=me.pk)
    assert (turns.count, turns.optional) == (2, 0)
    with translation.override("ru"):
        client.cookies["django_language"] = "ru"
        services.make_move(
            user=me,
            game_id=waiting.pk,
            action={"type": "attack", "player": 0, "cards": ["6S"]},
            expected_version=Game.objects.get(pk=waiting.pk).version,
        )
        russian = client.get(LOBBY, headers={"Accept-Language": "ru"}).content.decode()
    assert "можно подкинуть: 1 игра" in counter(russian)


def test_my_games_put_those_waiting_for_me_first_by_deadline() -> None:
    me = UserFactory()
    theirs = game_between(UserFactory(), me, move_time=timedelta(minutes=30))
    open_game = GameFactory(creator=me, num_players=3)
    slow = game_between(me, UserFactory(), move_time=timedelta(days=7))
    fast = game_between(me, UserFactory(), move_time=timedelta(hours=1))
    listed = list(selectors.user_games(user=me))
    assert [game.pk for game in listed] == [fast.pk, slow.pk, theirs.pk, open_game.pk]
    assert [game.my_turn for game in listed] == [True, True, False, False]
    assert listed[0].my_deadline is not None and listed[0].my_deadline < listed[1].my_deadline
    assert listed[2].my_deadline is None


# --- The pages -------------------------------------------------------------------------------


def test_no_game_waiting_shows_no_counter_no_title_and_no_button() -> None:
    me, other = UserFactory(), UserFactory()
    game = game_between(other, me)
    client = client_for(me)
    lobby = client.get(LOBBY).content.decode()
    assert shown_count(lobby) is None
    assert title(lobby) == "Lobby · durak online"
    assert next_game_link(lobby) is None
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert shown_count(page) is None and not title(page).startswith("(")
    assert next_game_link(page) is None


def test_one_game_waiting() -> None:
    me = UserFactory()
    game = game_between(me, UserFactory())
    client = client_for(me)
    lobby = client.get(LOBBY).content.decode()
    assert shown_count(lobby) == 1
    assert title(lobby) == "(1) Your move · Lobby · durak online"
    assert next_game_link(lobby) == game.pk
    assert "your move: 1 game waiting" in counter(lobby)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert shown_count(page) == 1
    assert title(page) == f"(1) Your move · Game {game.pk} · durak online"
    assert next_game_link(page) is None  # the only one is on the screen
    assert 'src="/static/js/turns.js"' in page


def test_two_games_waiting() -> None:
    me = UserFactory()
    later = game_between(me, UserFactory(), move_time=timedelta(days=1))
    sooner = game_between(me, UserFactory(), move_time=timedelta(hours=2))
    client = client_for(me)
    lobby = client.get(LOBBY).content.decode()
    assert shown_count(lobby) == 2
    assert title(lobby).startswith("(2) Your move · ")
    assert "your move: 2 games waiting" in counter(lobby)
    assert next_game_link(lobby) == sooner.pk
    on_sooner = client.get(reverse("games:detail", args=[sooner.pk])).content.decode()
    assert next_game_link(on_sooner) == later.pk
    on_later = client.get(reverse("games:detail", args=[later.pk])).content.decode()
    assert next_game_link(on_later) == sooner.pk
    # The lobby's "My games": both first, the sooner deadline on top.
    my_games = lobby.split('id="my-games-title"', 1)[1].split("</section>", 1)[0]
    assert my_games.index(f"/games/{sooner.pk}/") < my_games.index(f"/games/{later.pk}/")
    with translation.override("ru"):
        client.cookies["django_language"] = "ru"
        russian = client.get(LOBBY, headers={"Accept-Language": "ru"}).content.decode()
    assert title(russian).startswith("(2) Ваш ход · ")
    assert "ваш ход: 2 игры ждут" in counter(russian)


def test_a_spectator_never_sees_the_players_turns() -> None:
    alice, bob = UserFactory(), UserFactory()
    game = game_between(alice, bob)
    game_between(bob, alice)  # both players have a game waiting for them
    url = reverse("games:detail", args=[game.pk])
    spectator = client_for(UserFactory())
    page = spectator.get(url).content.decode()
    assert shown_count(page) is None and not title(page).startswith("(")
    assert 'id="next-game"' not in page
    anonymous = Client().get(url).content.decode()
    assert 'id="turn-counter"' not in anonymous and 'id="next-game"' not in anonymous
    assert title(anonymous) == f"Game {game.pk} · durak online"
    assert "turns.js" not in anonymous
    # A spectator who has a game of their own waiting sees their own count, and no "next game"
    # button on a game they only watch.
    watcher = UserFactory()
    own = game_between(watcher, UserFactory())
    page = client_for(watcher).get(url).content.decode()
    assert shown_count(page) == 1 and 'id="next-game"' not in page
    assert client_for(watcher).get(LOBBY).content.decode().count(f'href="/games/{own.pk}/"') >= 2


def test_the_header_costs_one_query_more_at_most(django_assert_max_num_queries: Any) -> None:
    me = UserFactory()
    for _ in range(3):
        game_between(me, UserFactory())
    client = client_for(me)
    client.get("/leaderboard/")
    with django_assert_max_num_queries(1):
        selectors.turns_waiting(user_id=me.pk)
    # The table partial renders no header: no count query there.
    game = Game.objects.filter(seats__user=me).first()
    assert game is not None
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("games:detail", args=[game.pk]), headers={"HX-Request": "true"})
    assert not [q for q in queries.captured_queries if "OVER ()" in q["sql"]]
    with CaptureQueriesContext(connection) as queries:
        client.get(LOBBY)
    assert len([q for q in queries.captured_queries if "OVER ()" in q["sql"]]) == 1


# --- The fragment ----------------------------------------------------------------------------


def test_the_fragment_answers_the_count_and_the_next_game(django_assert_max_num_queries: Any) -> None:
    me = UserFactory()
    first = game_between(me, UserFactory(), move_time=timedelta(hours=1))
    second = game_between(me, UserFactory(), move_time=timedelta(days=1))
    client = client_for(me)
    url = reverse("games:turns")
    with django_assert_max_num_queries(3):  # session, user, the count
        response = client.get(url)
    assert response.status_code == 200
    fragment = response.content.decode()
    assert shown_count(fragment) == 2
    assert 'id="next-game"' not in fragment
    fragment = client.get(url, {"current": ""}).content.decode()  # the lobby's button
    assert shown_count(fragment) == 2 and next_game_link(fragment) == first.pk
    fragment = client.get(url, {"current": first.pk}).content.decode()
    assert next_game_link(fragment) == second.pk
    fragment = client.get(url, {"current": second.pk}).content.decode()
    assert next_game_link(fragment) == first.pk
    services.make_move(
        user=me, game_id=first.pk, action={"type": "attack", "cards": ["6S"]}, expected_version=first.version
    )
    services.game_abort(game_id=second.pk)
    fragment = client.get(url, {"current": first.pk}).content.decode()
    # After an attack the bout goes on without the attacker (issue 29): only the defender must
    # act, the attacker may throw in, shown apart.
    assert shown_count(fragment) == 0 and next_game_link(fragment) is None
    assert 'data-optional="1"' in counter(fragment)


@pytest.mark.parametrize("current", ["abc", "-1", "1.5", "²", "9" * 40])
def test_the_fragment_refuses_a_current_game_that_is_no_number(current: str) -> None:
    me = UserFactory()
    game_between(me, UserFactory())
    response = client_for(me).get(reverse("games:turns"), {"current": current})
    assert response.status_code == 400
    assert "number" in response.content.decode()


def test_the_fragment_is_for_logged_in_players_only() -> None:
    response = Client().get(reverse("games:turns"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Client().post(reverse("games:turns")).status_code == 405


# --- The sound setting -----------------------------------------------------------------------


def test_the_sound_is_off_by_default_and_turned_on_in_its_own_fieldset() -> None:
    me = UserFactory()
    game_between(me, UserFactory())
    client = client_for(me)
    assert 'data-sound=""' in counter(client.get(LOBBY).content.decode())
    settings_page = client.get("/notifications/settings/").content.decode()
    fieldset = re.search(r'<fieldset class="turn-sound">(.*?)</fieldset>', settings_page, re.S)
    assert fieldset and "Your turn" in fieldset.group(1) and 'name="turn_sound"' in fieldset.group(1)
    assert "checked" not in fieldset.group(1)
    data = {"display_name": "", "language": "en", "time_zone": "UTC", "confirm_moves": "correspondence"}
    assert client.post("/notifications/settings/", {**data, "turn_sound": "on"}).status_code == 302
    assert User.objects.get(pk=me.pk).turn_sound
    assert 'data-sound="/static/sounds/your-move.wav"' in counter(client.get(LOBBY).content.decode())
    assert client.post("/notifications/settings/", data).status_code == 302
    assert not User.objects.get(pk=me.pk).turn_sound
    with translation.override("ru"):
        client.cookies["django_language"] = "ru"
        russian = client.get("/notifications/settings/").content.decode()
    assert "Ваш ход" in russian and "звук, когда мой ход" in russian.lower()


def test_the_sound_file_is_a_short_wav() -> None:
    import wave
    from pathlib import Path

    from django.contrib.staticfiles import finders

    path = finders.find("sounds/your-move.wav")
    assert isinstance(path, str)
    with wave.open(path) as sound:
        seconds = sound.getnframes() / sound.getframerate()
    assert 0.1 < seconds < 1.0 and Path(path).stat().st_size < 50_000


@pytest.mark.django_db(transaction=True)
def test_every_player_whose_turn_flips_hears_the_new_count_on_their_channel(settings: Any) -> None:
    """A move that flips whom the game waits for sends each flipped player's counts, even when
    no bell row is written: here the defender, whose turn ends when they beat the attack."""
    settings.LIVE_REDIS_URL = redis_url()
    settings.LIVE_REDIS_CHANNEL = ""
    game = GameFactory(num_players=2, deal=LONGER_DEAL)
    services.game_join(user=UserFactory(), game_id=game.pk)
    game.refresh_from_db()
    users = {seat.position: seat.user for seat in game.seats.select_related("user")}
    engine = game.engine()
    attacker = engine.waiting_for()[0]
    game = services.make_move(
        user=users[attacker],
        game_id=game.pk,
        action=engine.legal_json(attacker)[0],
        expected_version=game.version,
    )
    engine = game.engine()
    defender = engine.defender
    assert defender is not None
    defence = next(action for action in engine.legal_json(defender) if action["type"] == "defend")
    tap = RedisTap()
    try:
        time.sleep(0.2)  # subscribed before the move publishes
        services.make_move(
            user=users[defender], game_id=game.pk, action=defence, expected_version=game.version
        )
        after = Game.objects.get(pk=game.pk).engine()
        flipped = {users[p].pk for p in users if (p in engine.waiting_for()) != (p in after.waiting_for())}
        assert live.user_channel(users[defender].pk) in {live.user_channel(pk) for pk in flipped}
        deadline = time.monotonic() + 60
        heard: dict[str, Any] = {}
        while time.monotonic() < deadline and not {live.user_channel(pk) for pk in flipped} <= heard.keys():
            for text in list(tap.messages):
                event = json.loads(text)
                if event["type"] == "bell":
                    heard[event["channel"]] = json.loads(event["data"])
            time.sleep(0.05)
    finally:
        tap.close()
    for pk in flipped:
        position = next(p for p, user in users.items() if user.pk == pk)
        assert heard[live.user_channel(pk)]["waiting"] == int(position in after.waiting_for())
