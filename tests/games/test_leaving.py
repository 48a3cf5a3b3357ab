"""Leaving a running game: a player resigns, or claims a game without a clock that has waited
too long on the others. The services log both as moves; the engine decides."""

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.urls import reverse
from django.utils import formats, translation

from games import services
from games.exceptions import IllegalMove, NotAllowed, StaleVersion, WrongStatus
from games.models import Game, Seat
from tests.factories import LONGER_DEAL, backdate, started_game
from tests.games.test_services import snapshot

pytestmark = pytest.mark.django_db

DAYS = timedelta(days=1)


def waited(game: Game, days: float) -> None:
    """The game has waited ``days`` on the players it waits for (``backdate``)."""
    backdate(game, days=days)


def attack_once(game: Game, users: list[Any]) -> Game:
    # LONGER_DEAL: player 0 attacks with 6S and says "done"; the game then waits for player 1 alone.
    game = services.make_move(
        user=users[0],
        game_id=game.pk,
        action={"type": "attack", "cards": ["6S"]},
        expected_version=game.version,
    )
    return services.make_move(
        user=users[0], game_id=game.pk, action={"type": "pass"}, expected_version=game.version
    )


# Resigning


def test_a_player_resigns_and_is_the_fool_logged_as_their_choice() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    services.player_resign(user=users[1], game_id=game.pk, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert {s.position: s.result for s in game.seats.all()} == {0: Seat.Result.WON, 1: Seat.Result.FOOL}
    move = game.moves.get()
    assert move.position == 1 and move.action == {"type": "resign", "player": 1}
    assert game.engine().end == {"reason": "resign", "player": 1}
    call_command("check_replays", game.pk)


def test_a_resignation_against_an_old_version_or_twice_is_refused() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    old = game.version
    game = attack_once(game, users)
    before = snapshot(game)
    with pytest.raises(StaleVersion):
        services.player_resign(user=users[1], game_id=game.pk, expected_version=old)
    assert snapshot(game) == before
    services.player_resign(user=users[1], game_id=game.pk)
    with pytest.raises(WrongStatus):
        services.player_resign(user=users[1], game_id=game.pk)
    assert game.moves.count() == 3


def test_only_a_seated_player_resigns(user: Any) -> None:
    game, _users = started_game(deal=LONGER_DEAL)
    before = snapshot(game)
    with pytest.raises(NotAllowed):
        services.player_resign(user=user, game_id=game.pk)
    assert snapshot(game) == before


# Claiming


def test_a_claim_after_the_days_makes_the_waited_on_player_the_fool() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    game = attack_once(game, users)  # the game waits for player 1 now
    waited(game, 14.01)
    services.game_claim(user=users[0], game_id=game.pk, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert {s.position: s.result for s in game.seats.all()} == {0: Seat.Result.WON, 1: Seat.Result.FOOL}
    claim = game.moves.order_by("seq").last()
    assert claim is not None and claim.position == 0
    assert claim.action["type"] == "claim" and claim.action["player"] == 0
    assert 14 * 86400 <= claim.action["waited"] < 15 * 86400 and "clock" not in claim.action
    assert claim.events == [{"type": "game_over", "reason": "claim", "player": 1}]
    call_command("check_replays", game.pk)


def test_the_days_are_the_games_rules_option() -> None:
    game, users = started_game(deal=LONGER_DEAL, overrides={"claim_after_days": 3})
    waited(game, 2.9)
    with pytest.raises(IllegalMove, match="waited 3 days"):
        services.game_claim(user=users[1], game_id=game.pk)
    waited(game, 3.01)
    services.game_claim(user=users[1], game_id=game.pk)
    assert Seat.objects.get(game=game, position=0).result == Seat.Result.FOOL


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("too_early", "waited 14 days"),
        ("waited_on", "waiting for you"),
        ("clocked", "with a clock"),
    ],
)
def test_a_refused_claim_is_a_clear_400_and_changes_nothing(case: str, message: str) -> None:
    clock = timedelta(days=30) if case == "clocked" else None
    game, users = started_game(deal=LONGER_DEAL, move_time=clock)
    waited(game, 13.9 if case == "too_early" else 40)
    claimant = users[0] if case == "waited_on" else users[1]
    before = snapshot(game)
    with pytest.raises(IllegalMove, match=message) as refused:
        services.game_claim(user=claimant, game_id=game.pk)
    assert refused.value.status_code == 400
    assert snapshot(game) == before


def test_a_move_starts_the_wait_again() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    waited(game, 20)
    game = attack_once(game, users)  # player 0 moved: now the game waits for player 1, from now
    with pytest.raises(IllegalMove, match="waiting for you"):
        services.game_claim(user=users[1], game_id=game.pk)
    with pytest.raises(IllegalMove, match="waited 14 days"):
        services.game_claim(user=users[0], game_id=game.pk)


def test_a_claim_twice_applies_once() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    waited(game, 15)
    services.game_claim(user=users[1], game_id=game.pk)
    with pytest.raises(WrongStatus):
        services.game_claim(user=users[1], game_id=game.pk)
    assert game.moves.count() == 1


def race(game: Game, users: list[Any]) -> dict[str, str]:
    """Player 0's attack and player 1's claim, both against the game's version, released at once."""
    version = game.version
    barrier = threading.Barrier(2)
    outcomes: dict[str, str] = {}
    errors: list[BaseException] = []

    def run(name: str) -> None:
        try:
            barrier.wait(timeout=30)
            if name == "move":
                services.make_move(
                    user=users[0],
                    game_id=game.pk,
                    action={"type": "attack", "cards": ["6S"]},
                    expected_version=version,
                )
            else:
                services.game_claim(user=users[1], game_id=game.pk, expected_version=version)
            outcomes[name] = "applied"
        except (StaleVersion, WrongStatus, IllegalMove) as error:
            outcomes[name] = type(error).__name__
        except BaseException as error:  # surfaced in the main thread below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(name,)) for name in ("move", "claim")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_a_claim_and_a_move_at_once_exactly_one_wins() -> None:
    """The row lock puts one after the other; the loser is refused and leaves no trace."""
    for _round in range(3):
        game, users = started_game(deal=LONGER_DEAL)
        waited(game, 15)
        version = game.version
        outcomes = race(game, users)
        assert list(outcomes.values()).count("applied") == 1, outcomes
        game.refresh_from_db()
        assert game.version == version + 1 and game.moves.count() == 1
        kind = game.moves.get().action["type"]
        if outcomes["claim"] == "applied":
            assert kind == "claim" and game.status == Game.Status.FINISHED
            assert outcomes["move"] in ("StaleVersion", "WrongStatus")
        else:
            assert kind == "attack" and game.status == Game.Status.ACTIVE
            assert outcomes["claim"] == "StaleVersion"


def test_an_old_game_stored_before_the_option_replays_and_claims() -> None:
    """Rules and states stored before ``claim_after_days`` existed lack it: they play 14 days."""
    game, users = started_game(deal=LONGER_DEAL)
    game = attack_once(game, users)
    rules = {k: v for k, v in game.rules.items() if k != "claim_after_days"}
    assert "claim_after_days" not in game.state["rules"]
    Game.objects.filter(pk=game.pk).update(rules=rules)
    call_command("check_replays", game.pk)
    waited(game, 15)
    services.game_claim(user=users[0], game_id=game.pk)
    call_command("check_replays", game.pk)


# The table


def page(client: Any, game: Game, user: Any) -> str:
    client.force_login(user)
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    return str(response.content.decode())


def test_the_table_offers_resign_with_a_confirm_and_no_claim_before_a_day(client: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    html = page(client, game, users[1])
    assert '<details class="leave-confirm resign">' in html
    assert reverse("games:resign", args=[game.pk]) in html
    assert "claim-line" not in html and reverse("games:claim", args=[game.pk]) not in html


def test_the_claim_line_names_the_date_in_the_readers_language(client: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    waited(game, 9.5)
    users[1].time_zone = "Europe/Moscow"
    users[1].language = "ru"
    users[1].save()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    html = page(client, game, users[1])
    name = users[0].username
    assert f"Игра ждёт хода уже 9 дней: {name}." in html
    assert game.started_at is not None
    possible = game.started_at + 14 * DAYS
    with translation.override("ru"):
        when = formats.date_format(possible.astimezone(users[1].tz), "DATETIME_FORMAT")
    assert f"Забрать игру можно с {when}" in html  # noqa: RUF001
    assert "2026" in when or "2027" in when
    assert reverse("games:claim", args=[game.pk]) not in html  # not yet: no button
    # The waited-on player sees no claim at all.
    client.logout()
    assert "claim-line" not in page(client, game, users[0])


def test_the_claim_button_posts_and_ends_the_game(client: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    waited(game, 15)
    html = page(client, game, users[1])
    assert '<details class="leave-confirm claim">' in html
    response = client.post(reverse("games:claim", args=[game.pk]), {"expected_version": game.version})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_refused_claim_on_the_page_is_a_400_with_the_reason(client: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    waited(game, 2)
    before = snapshot(game)
    client.force_login(users[1])
    response = client.post(reverse("games:claim", args=[game.pk]), {"expected_version": game.version})
    assert response.status_code == 400
    assert "waited 14 days" in response.content.decode()
    assert snapshot(game) == before
    response = client.post(reverse("games:resign", args=[game.pk]), {"expected_version": "x"})
    assert response.status_code == 400
    assert snapshot(game) == before


def test_a_claimed_game_replays_on_its_replay_page(client: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    waited(game, 15)
    services.game_claim(user=users[1], game_id=game.pk)
    client.force_login(users[0])
    response = client.get(reverse("replays:replay", args=[game.pk]) + "?step=1")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"{users[1].username} claims the game." in html
    export = client.get(reverse("replays:export", args=[game.pk])).json()
    assert export["moves"][-1]["type"] == "claim" and export["result"]["end"]["reason"] == "claim"


def test_the_players_are_told_the_game_was_claimed_in_their_language() -> None:
    from notifications.messages import notification_text
    from notifications.models import Kind, Notification

    game, users = started_game(deal=LONGER_DEAL)
    waited(game, 15)
    services.game_claim(user=users[1], game_id=game.pk)
    fool = Notification.objects.get(user=users[0], kind=Kind.GAME_FINISHED)
    other = Notification.objects.get(user=users[1], kind=Kind.GAME_FINISHED)
    assert "was claimed" in notification_text(fool.kind, fool.params, users[0])
    with translation.override("ru"):
        told = notification_text(other.kind, other.params, users[1])
    assert f"вы победили, {users[0].username} слишком долго не делает ход и остаётся дураком" in told
