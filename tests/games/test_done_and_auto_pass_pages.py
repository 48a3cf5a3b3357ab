"""The table's "Done" button and its "Pass on throw-ins" toggle, without JavaScript.

Everyone allowed to throw in is offered "Done" and waited for, whatever they hold (durak/game.py):
the button reads «Бито» in Russian once every card is beaten, «Пас» while the defender takes.
"Pass on throw-ins" (the engine's ``auto_pass``) is a standing choice posted through the move form's path: the
engine logs it like a move, and the bout no longer waits for that player's "done".
"""

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

import durak
from games import services
from games.models import Game, Move
from games.presentation import build_table
from tests.factories import started_game
from tests.games.helpers import action_buttons, preference_buttons, version_on_page

pytestmark = pytest.mark.django_db

# Three players, hearts trump (the 9H face up). Player 0 leads 6S at player 1; player 2 holds no
# six, which nobody else can know: he is waited for to say "done" like player 0.
THREE_DEAL: dict[str, Any] = {
    "hands": [["6S", "7D", "QC"], ["8S", "9D", "6C"], ["10D", "KS", "10S"]],
    "stock": ["AH", "6D", "9H"],
    "first_attacker": 0,
}


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(client: Client, game: Game, language: str = "en") -> str:
    response = client.get(reverse("games:detail", args=[game.pk]), headers={"Accept-Language": language})
    assert response.status_code == 200
    return response.content.decode()


def post(client: Client, game: Game, action: str, version: int) -> None:
    response = client.post(
        reverse("games:move", args=[game.pk]), {"action": action, "expected_version": version}
    )
    assert response.status_code == 302, response.content.decode()[:500]


def engine_of(game: Game) -> durak.Game:
    game.refresh_from_db()
    assert game.state is not None
    return game.engine()


def view_with(table: list[list[str | None]], taking: bool) -> dict[str, Any]:
    return {
        "hand": ["QC"],
        "hand_sizes": [3, 2, 3],
        "table": table,
        "attacker": 0,
        "defender": 1,
        "taking": taking,
        "over": False,
        "waiting_for": [0],
        "actions": [{"type": "pass", "player": 0}],
        "auto_pass": [],
        "finished": [],
    }


def test_done_reads_bito_once_every_card_is_beaten_and_pas_while_the_defender_takes() -> None:
    names = {0: "anna", 1: "ben", 2: "carla"}
    beaten = view_with([["6S", "8S"]], taking=False)
    taking = view_with([["6S", None]], taking=True)
    unbeaten = view_with([["6S", None]], taking=False)
    for view in (beaten, taking, unbeaten):
        (button,) = build_table(view, names, me=0).other_buttons
        assert (button.label, button.kind) == ("Done", "pass")
        assert button.hint == "Nothing more from me until a new card lands on the table."
    with translation.override("ru"):
        assert [b.label for b in build_table(beaten, names, me=0).other_buttons] == ["Бито"]
        assert [b.label for b in build_table(taking, names, me=0).other_buttons] == ["Пас"]
        assert [b.label for b in build_table(unbeaten, names, me=0).other_buttons] == ["Пас"]


def test_everyone_allowed_to_throw_in_gets_done_whatever_they_hold() -> None:
    game, users = started_game(players=3, deal=THREE_DEAL)
    services.make_move(
        user=users[0],
        game_id=game.pk,
        action={"type": "attack", "cards": ["6S"]},
        expected_version=game.version,
    )
    game.refresh_from_db()
    holder, empty_handed = page(client_for(users[0]), game), page(client_for(users[2]), game)
    # player 0 holds no other six either; player 2 none at all: the same button for both
    assert action_buttons(holder) == action_buttons(empty_handed) == [{"type": "pass"}]
    assert ">Done</button>" in empty_handed
    assert "Waiting for" not in empty_handed and "Your move." in empty_handed
    post(client_for(users[2]), game, '{"type": "pass"}', version_on_page(empty_handed))
    assert engine_of(game).passed == {2}


def test_the_toggle_posts_through_the_move_path_and_the_bout_stops_waiting() -> None:
    game, users = started_game(players=3, deal=THREE_DEAL)
    carla = client_for(users[2])
    seen = page(carla, game)
    assert preference_buttons(seen) == [{"type": "auto_pass", "on": True}]
    assert ">Pass on throw-ins</button>" in seen
    assert "When on, no bout waits for you to throw in" in seen  # what it does, in one line
    post(carla, game, '{"on": true, "type": "auto_pass"}', version_on_page(seen))
    assert engine_of(game).auto_pass == {2}
    assert Move.objects.filter(game=game, position=2, action__type="auto_pass").count() == 1

    seen = page(carla, game)
    assert preference_buttons(seen) == [{"type": "auto_pass", "on": False}]
    assert (
        ">Stop passing on throw-ins</button>" in seen
        and "You pass on throw-ins: no bout waits for you" in seen
    )
    others = page(client_for(users[0]), game)
    assert "passes on throw-ins" in others  # public: the others see it
    assert f"{users[2].name} passes on throw-ins." in others  # the history says it in the same words
    assert "You pass on throw-ins." in seen

    services.make_move(
        user=users[0],
        game_id=game.pk,
        action={"type": "attack", "cards": ["6S"]},
        expected_version=game.version,
    )
    assert engine_of(game).waiting_for() == [0, 1]  # not carla
    assert action_buttons(page(carla, game)) == []

    seen = page(carla, game)
    post(carla, game, '{"on": false, "type": "auto_pass"}', version_on_page(seen))
    assert engine_of(game).waiting_for() == [0, 1, 2]
    assert action_buttons(page(carla, game)) == [{"type": "pass"}]


def test_the_toggle_in_russian_and_for_whom_it_is_not_offered() -> None:
    game, users = started_game(players=3, deal=THREE_DEAL)
    seen = page(client_for(users[1]), game, "ru")
    assert ">Не подкидывать</button>" in seen  # noqa: RUF001 (Russian)
    assert "Если включить, ни один ход не будет ждать ваших подкидываний" in seen
    assert "Pass on throw-ins" not in seen and "Не ждать, подкину ли я" not in seen  # noqa: RUF001
    # a spectator has no seat and no toggle
    assert preference_buttons(page(Client(), game)) == []
