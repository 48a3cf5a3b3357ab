import html
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import durak
from durak_site import engine_text
from games.models import Game, Move, Seat
from tests.factories import (
    LONGER_DEAL,
    SHORT_DEAL,
    GameFactory,
    UserFactory,
    play_moves,
    started_game,
)
from tests.games.helpers import action_buttons, version_on_page

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def detail_url(game: Game) -> str:
    return reverse("games:detail", args=[game.pk])


def move_url(game: Game) -> str:
    return reverse("games:move", args=[game.pk])


# Lobby and create


def test_lobby_for_a_visitor_lists_open_games_and_invites_to_log_in(client: Client) -> None:
    game = GameFactory(preset="black_book", overrides={"deck_size": 52}, num_players=3)
    page = client.get("/").content.decode()
    assert f"Game {game.pk}" in page
    # The preset and the changed option in words (durak_site.engine_text), not as code names.
    assert html.escape(engine_text.preset_name("black_book")) in page
    assert html.escape(f"{engine_text.option_name('deck_size')}: 52") in page
    assert "sign up" in page
    assert "Open the game" not in page


def test_lobby_offers_join_only_for_open_games_i_do_not_sit_in(user: Any) -> None:
    mine, other = GameFactory(creator=user), GameFactory()
    page = client_for(user).get("/").content.decode()
    assert reverse("games:join", args=[other.pk]) in page
    assert reverse("games:join", args=[mine.pk]) not in page
    assert f'<a href="{detail_url(mine)}">your game</a>' in page


def test_lobby_create_form_offers_every_preset_and_option(user: Any) -> None:
    page = client_for(user).get("/").content.decode()
    for name in durak.PRESETS:
        assert f'value="{name}"' in page
    for option in durak.Rules.describe_options():
        assert f'name="opt_{option["name"]}"' in page


def test_lobby_lists_my_games_waiting_for_me_first(user: Any) -> None:
    waiting_game, _ = started_game(deal=LONGER_DEAL, creator=user)  # user leads: my move
    other = UserFactory()
    not_waiting, _ = started_game(deal=LONGER_DEAL, creator=other)
    open_game = GameFactory(creator=user, num_players=3)
    # In ``not_waiting`` the user sits at position 1, whose turn it is not.
    Seat.objects.filter(game=not_waiting, position=1).update(user=user)
    page = client_for(user).get("/").content.decode()
    mine = page.split("My games")[1].split("Open games")[0]
    assert mine.index(f"Game {waiting_game.pk}<") < mine.index(f"Game {not_waiting.pk}<")
    assert f"Game {open_game.pk}<" in mine
    assert mine.count("your move") == 1


def test_create_game_from_the_form(user: Any) -> None:
    response = client_for(user).post(
        reverse("games:create"),
        {
            "preset": "perevodnoy",
            "num_players": "3",
            "opt_deck_size": "52",
            "opt_multi_card_attack": "false",
            "opt_max_attack": "none",
            "opt_hand_size": "",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == detail_url(game)
    assert game.creator == user
    assert game.rule_overrides == {"deck_size": 52, "multi_card_attack": False, "max_attack": None}
    assert game.rules == durak.Rules.preset("perevodnoy", **game.rule_overrides).to_dict()


def test_create_game_with_rules_the_engine_refuses_shows_the_reason(user: Any) -> None:
    response = client_for(user).post(reverse("games:create"), {"preset": "durak24", "num_players": "6"})
    assert response.status_code == 400
    assert not Game.objects.exists()
    assert 'class="errorlist' in response.content.decode()


def test_create_needs_a_login(client: Client) -> None:
    response = client.post(reverse("games:create"), {"preset": "classic", "num_players": "2"})
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]
    assert not Game.objects.exists()


# Join, leave, start


def test_join_leave_and_start_through_the_pages() -> None:
    game = GameFactory(num_players=3)
    creator, joiner = client_for(game.creator), client_for(UserFactory())
    page = joiner.get(detail_url(game)).content.decode()
    assert "Take a seat" in page
    response = joiner.post(reverse("games:join", args=[game.pk]))
    assert response.status_code == 302
    assert game.seats.count() == 2
    assert "Start now with 2 players" in creator.get(detail_url(game)).content.decode()
    response = joiner.post(reverse("games:leave", args=[game.pk]))
    assert response["Location"] == reverse("games:lobby")
    assert game.seats.count() == 1
    joiner.post(reverse("games:join", args=[game.pk]))
    creator.post(reverse("games:start", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_refused_join_shows_a_message() -> None:
    game, _ = started_game()
    outsider = client_for(UserFactory())
    response = outsider.post(reverse("games:join", args=[game.pk]), follow=True)
    assert "not open for joining" in response.content.decode()


def test_pages_of_a_missing_game_are_404(user: Any) -> None:
    client = client_for(user)
    assert client.get(reverse("games:detail", args=[987654])).status_code == 404
    assert client.get(reverse("games:poll", args=[987654])).status_code == 404
    assert client.post(reverse("games:join", args=[987654])).status_code == 404
    assert (
        client.post(
            reverse("games:move", args=[987654]),
            {"expected_version": "0", "action": '{"type":"take"}'},
        ).status_code
        == 404
    )


# The game page


def test_game_page_shows_my_hand_the_table_and_only_legal_controls() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    page = client_for(users[0]).get(detail_url(game)).content.decode()
    assert "Your move." in page
    for card in LONGER_DEAL["hands"][0]:
        assert f'data-pick="{card}"' in page
    engine = game.engine()
    expected = [{k: v for k, v in a.items() if k != "player"} for a in engine.legal_json(0)]
    assert action_buttons(page) == expected
    assert 'data-card="9H"' in page  # the face-up trump
    assert "Stock: 2" in page
    assert page.count('class="card back') >= 4  # the opponent's four cards


def test_opponent_sees_whose_move_it_is_in_words_and_no_controls() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    page = client_for(users[1]).get(detail_url(game)).content.decode()
    assert f"Waiting for {users[0].username}." in page
    assert action_buttons(page) == []


def test_defend_buttons_sit_on_their_attack_card() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    play_moves(game, users, 1)  # attack 6S
    page = client_for(users[1]).get(detail_url(game)).content.decode()
    pair = page.split('class="pair"')[1].split("</div>")[0]
    assert 'data-card="6S"' in pair
    assert "Beat 6♠ with 8♠" in pair
    assert "Take the cards" in page


def test_htmx_request_gets_only_the_table_partial() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    response = client_for(users[0]).get(detail_url(game), headers=HTMX)
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="table"')
    assert "<html" not in page


# Moves


def test_move_without_javascript_redirects_to_the_page() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    client = client_for(users[0])
    page = client.get(detail_url(game)).content.decode()
    response = client.post(
        move_url(game),
        {
            "expected_version": version_on_page(page),
            "action": '{"type": "attack", "cards": ["6S"]}',
        },
    )
    assert response.status_code == 302
    assert response["Location"] == detail_url(game)
    assert Move.objects.filter(game=game).count() == 1


def test_move_with_htmx_returns_the_new_table() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    response = client_for(users[0]).post(
        move_url(game),
        {"expected_version": game.version, "action": '{"type": "attack", "cards": ["6S"]}'},
        headers=HTMX,
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="table"')
    # the defender must answer; the attacker may still throw in or say done
    assert f"Your move. ({users[1].username} may act too.)" in page


@pytest.mark.parametrize("htmx", [False, True])
def test_illegal_move_shows_the_engine_message_in_place_and_changes_nothing(htmx: bool) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    response = client_for(users[0]).post(
        move_url(game),
        {"expected_version": game.version, "action": '{"type": "attack", "cards": ["KS"]}'},
        headers=HTMX if htmx else {},
    )
    assert response.status_code == 400
    assert 'class="error" role="alert"' in response.content.decode()
    assert not Move.objects.exists()
    game_after = Game.objects.get(pk=game.pk)
    assert (game_after.version, game_after.state) == (game.version, game.state)


@pytest.mark.parametrize("htmx", [False, True])
def test_stale_move_shows_a_message_and_the_current_table(htmx: bool) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    stale = game.version
    play_moves(game, users, 2)  # attack, defence: now player 1 leads
    game.refresh_from_db()
    response = client_for(users[0]).post(
        move_url(game),
        {"expected_version": stale, "action": '{"type": "pass"}'},
        headers=HTMX if htmx else {},
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert "moved on since you looked" in page
    assert f'name="expected_version" value="{game.version}"' in page
    assert Move.objects.filter(game=game).count() == 2


def test_garbled_move_post_is_a_400() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    client = client_for(users[0])
    assert client.post(move_url(game), {"expected_version": "x", "action": "{}"}).status_code == 400
    assert client.post(move_url(game), {"expected_version": "1", "action": "not json"}).status_code == 400
    assert not Move.objects.exists()


def test_spectator_cannot_move() -> None:
    game, _ = started_game(deal=LONGER_DEAL)
    response = client_for(UserFactory()).post(
        move_url(game), {"expected_version": game.version, "action": '{"type": "take"}'}
    )
    assert response.status_code == 403
    assert not Move.objects.exists()


def test_anonymous_move_goes_to_login() -> None:
    game, _ = started_game(deal=LONGER_DEAL)
    response = Client().post(move_url(game), {"expected_version": game.version, "action": '{"type": "take"}'})
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


# Polling


def test_poll_answers_204_from_the_version_alone(django_assert_num_queries: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    client = client_for(users[1])
    url = reverse("games:poll", args=[game.pk]) + f"?version={game.version}"
    # The page's first poll marks the seat seen (session, user, seat: games.services.SEEN_REFRESH);
    # the polls after it, for half a minute, read the version alone.
    assert client.get(url, headers=HTMX).status_code == 204
    with django_assert_num_queries(1):
        response = client.get(url, headers=HTMX)
    assert response.status_code == 204
    assert response.content == b""


def test_poll_returns_the_table_once_the_version_moved() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    client = client_for(users[1])
    url = reverse("games:poll", args=[game.pk]) + f"?version={game.version}"
    game = play_moves(game, users, 1)
    response = client.get(url, headers=HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="table"')
    assert "Beat 6♠ with 8♠" in page
    assert f"?version={game.version}" in page


def test_finished_game_stops_polling() -> None:
    game, users = started_game(deal=SHORT_DEAL)
    play_moves(game, users, 5)
    page = client_for(users[0]).get(detail_url(game)).content.decode()
    table_tag = page[page.index('<div id="table"') :].split(">", 1)[0]
    assert "hx-trigger" not in table_tag  # the chat under the table still polls: players say "gg"
    assert "you are the fool" in page


# Whole game and query counts


def test_two_players_finish_a_whole_game_through_the_pages() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    clients = [client_for(user) for user in users]
    for _ in range(100):
        pages = [client.get(detail_url(game)).content.decode() for client in clients]
        if "The game is over" in pages[0]:
            break
        mover = next(i for i, page in enumerate(pages) if action_buttons(page))
        assert "Your move." in pages[mover]
        response = clients[mover].post(
            move_url(game),
            {
                "expected_version": version_on_page(pages[mover]),
                "action": json.dumps(action_buttons(pages[mover])[0]),
            },
        )
        assert response.status_code == 302, response.content.decode()
    else:
        pytest.fail("the game did not end")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    fool = game.engine().loser
    assert fool is not None
    assert game.seats.get(position=fool).result == Seat.Result.FOOL
    assert "you are the fool" in pages[fool]
    assert f"{users[fool].username} is the fool" in pages[1 - fool]
    assert Move.objects.filter(game=game).count() == game.version - 1  # the join that dealt


@pytest.mark.parametrize("moves", [0, 30])
def test_game_page_and_poll_queries_do_not_grow_with_moves(
    moves: int, django_assert_max_num_queries: Any
) -> None:
    game, users = started_game(players=3, seed=99)
    game = play_moves(game, users, moves)
    assert Move.objects.filter(game=game).count() == moves
    client = client_for(users[0])
    # The full page also records the visit (seat, read notifications), counts the bell's unread and
    # the games waiting for the user's move (the header's counter); every table reads the last move
    # once (told in words for the live region).
    # The player's private notes about the others at the table (issue 30): one query for all seats.
    # 10, plus the SAVEPOINT/RELEASE pair of seat_seen's atomic block inside the test's transaction.
    with django_assert_max_num_queries(12):
        assert client.get(detail_url(game)).status_code == 200
    with django_assert_max_num_queries(7):
        assert client.get(detail_url(game), headers=HTMX).status_code == 200
    # A poll that gets a new table also reads the game's notifications (SKIP LOCKED: one UPDATE
    # plus the SAVEPOINT/RELEASE pair inside the test's transaction); the seat, seen just now, is
    # not written.
    with django_assert_max_num_queries(10):
        response = client.get(reverse("games:poll", args=[game.pk]) + "?version=0", headers=HTMX)
        assert response.status_code == 200
    with django_assert_max_num_queries(1):
        response = client.get(reverse("games:poll", args=[game.pk]) + f"?version={game.version}")
        assert response.status_code == 204


def test_create_form_handles_rank_lists_and_skips_unknown_kinds(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.forms import GameCreateForm

    options = [
        *durak.Rules.describe_options(),
        {"name": "lucky", "type": "ranks", "choices": ["6", "7", "A"], "default": [], "help": ""},
        {"name": "mystery", "type": "colour", "choices": None, "default": None, "help": ""},
    ]
    monkeypatch.setattr(durak.Rules, "describe_options", staticmethod(lambda: options))
    form = GameCreateForm({"preset": "classic", "num_players": "2", "opt_lucky": ["6", "A"]})
    assert "opt_mystery" not in form.fields
    assert form.is_valid(), form.errors
    assert form.overrides() == {"lucky": ["6", "A"]}
