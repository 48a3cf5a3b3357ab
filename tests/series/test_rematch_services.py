"""A rematch by consent: an offer, every player's answer, one next game once all accepted."""

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games.exceptions import InvalidRules, NotAllowed, WrongStatus
from games.models import Game
from notifications.models import Kind, Notification, Preferences
from series import services
from series.models import RematchOffer, SeriesGame
from series.selectors import rematch_state
from tests.factories import UserFactory, started_game
from tests.stats.helpers import time_out

from .helpers import finished_game

pytestmark = pytest.mark.django_db


def test_the_next_game_starts_when_the_other_player_accepts() -> None:
    game, (alice, bob) = finished_game()
    offer = services.rematch_offer(user=alice, game_id=game.pk, games_agreed=3)
    assert offer.status == RematchOffer.Status.OPEN and offer.next_game is None
    assert not Game.objects.exclude(pk=game.pk).exists()  # nobody seated without asking
    state = rematch_state(game=game, viewer=bob)
    assert state.status == "open" and state.can_answer and not state.can_offer
    assert [(a.user, a.accepted) for a in state.answers] == [(alice, True), (bob, False)]
    assert offer.expires_at - offer.created_at == timedelta(days=1)

    offer = services.rematch_accept(user=bob, game_id=game.pk)
    assert offer.status == RematchOffer.Status.ACCEPTED and offer.next_game is not None
    following = offer.next_game
    assert following.status == Game.Status.ACTIVE and not following.first_game
    assert [seat.user for seat in following.seats.order_by("position")] == [alice, bob]
    assert following.preset == game.preset and following.rule_overrides == game.rule_overrides
    entry = SeriesGame.objects.get(game=following)
    assert entry.number == 2 and entry.series.games_agreed == 3
    for viewer in (alice, bob):
        assert rematch_state(game=game, viewer=viewer).next_game_id == following.pk
    # Accepting again changes nothing; offering again is refused.
    assert services.rematch_accept(user=bob, game_id=game.pk).next_game == following
    with pytest.raises(WrongStatus, match="started already"):
        services.rematch_offer(user=bob, game_id=game.pk)
    assert Game.objects.count() == 2


def test_the_others_are_notified_of_the_offer() -> None:
    game, (alice, bob, carol) = finished_game(players=3)
    services.rematch_offer(user=alice, game_id=game.pk, games_agreed=5)
    rows = Notification.objects.filter(game=game, params__rematch=5)
    assert sorted(row.user_id for row in rows) == sorted([bob.pk, carol.pk])
    assert {row.kind for row in rows} == {Kind.REMATCH}  # its own kind (issue 29), not an invitation
    assert {row.message for row in rows} == {
        f"{alice.username} offers a rematch after game {game.pk}. Proposed: a series of 5 games."
    }


def test_a_rematch_offer_follows_its_own_choices_not_the_invitations() -> None:
    game, (alice, bob, carol) = finished_game(players=3)
    Preferences.objects.create(user=bob, web_rematch=False, email_rematch=False, push_rematch=False)
    Preferences.objects.create(user=carol, web_invited=False, email_invited=False, push_invited=False)
    services.rematch_offer(user=alice, game_id=game.pk, games_agreed=3)
    offers = Notification.objects.filter(game=game, kind=Kind.REMATCH)
    assert [row.user_id for row in offers] == [carol.pk]
    assert offers.get().read_at is None


def test_a_decline_ends_the_offer_for_everyone_and_a_new_one_may_follow() -> None:
    game, (alice, bob, carol) = finished_game(players=3)
    services.rematch_offer(user=alice, game_id=game.pk, games_agreed=3)
    services.rematch_accept(user=bob, game_id=game.pk)
    assert rematch_state(game=game, viewer=carol).status == "open"
    offer = services.rematch_decline(user=carol, game_id=game.pk)
    assert offer.status == RematchOffer.Status.DECLINED and offer.decided_by == carol
    for viewer in (alice, bob, carol):
        state = rematch_state(game=game, viewer=viewer)
        assert state.status == "declined" and state.can_offer and not state.can_answer
    with pytest.raises(WrongStatus, match="declined"):
        services.rematch_accept(user=alice, game_id=game.pk)
    assert Game.objects.count() == 1
    again = services.rematch_offer(user=bob, game_id=game.pk, games_agreed=1)
    assert again.pk != offer.pk and again.status == RematchOffer.Status.OPEN


def test_the_offerer_may_withdraw_it() -> None:
    game, (alice, bob) = finished_game()
    services.rematch_offer(user=alice, game_id=game.pk)
    assert rematch_state(game=game, viewer=alice).can_withdraw
    services.rematch_decline(user=alice, game_id=game.pk)
    with pytest.raises(WrongStatus):
        services.rematch_accept(user=bob, game_id=game.pk)


def test_an_offer_expires_after_a_day() -> None:
    game, (alice, bob) = finished_game()
    offer = services.rematch_offer(user=alice, game_id=game.pk)
    RematchOffer.objects.filter(pk=offer.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    state = rematch_state(game=game, viewer=bob)
    assert state.status == "expired" and state.can_offer and not state.can_answer
    with pytest.raises(WrongStatus, match="expired"):
        services.rematch_accept(user=bob, game_id=game.pk)
    assert Game.objects.count() == 1
    assert services.rematch_offer(user=bob, game_id=game.pk).status == RematchOffer.Status.OPEN


def test_refusals() -> None:
    game, (alice, bob) = finished_game()
    stranger = UserFactory()
    with pytest.raises(NotAllowed):
        services.rematch_offer(user=stranger, game_id=game.pk)
    for agreed in (0, 501):
        with pytest.raises(InvalidRules):
            services.rematch_offer(user=alice, game_id=game.pk, games_agreed=agreed)
    with pytest.raises(WrongStatus, match="No rematch"):
        services.rematch_accept(user=bob, game_id=game.pk)
    services.rematch_offer(user=alice, game_id=game.pk)
    with pytest.raises(WrongStatus, match="offered already"):
        services.rematch_offer(user=bob, game_id=game.pk)
    with pytest.raises(NotAllowed):
        services.rematch_accept(user=stranger, game_id=game.pk)
    running, users = started_game()
    with pytest.raises(WrongStatus):
        services.rematch_offer(user=users[0], game_id=running.pk)
    assert RematchOffer.objects.count() == 1


def test_a_series_that_goes_on_keeps_its_length() -> None:
    game, (alice, bob) = finished_game(move_time=timedelta(hours=1))
    services.rematch_offer(user=alice, game_id=game.pk, games_agreed=3)
    second = services.rematch_accept(user=bob, game_id=game.pk).next_game
    assert second is not None
    second = time_out(second)
    state = rematch_state(game=second, viewer=bob)
    assert (state.series_games, state.next_number) == (3, 3)
    services.rematch_offer(user=bob, game_id=second.pk, games_agreed=7)  # the length is agreed already
    third = services.rematch_accept(user=alice, game_id=second.pk).next_game
    entry = SeriesGame.objects.get(game=third)
    assert entry.number == 3 and entry.series.games_agreed == 3


def test_against_the_computer_the_next_game_starts_at_once() -> None:
    game, (alice, bot) = finished_game()
    bot.is_bot = True
    bot.save(update_fields=["is_bot"])
    offer = services.rematch_offer(user=alice, game_id=game.pk, games_agreed=1)
    assert offer.status == RematchOffer.Status.ACCEPTED and offer.next_game is not None
    assert not Notification.objects.filter(user=bot, params__rematch=1).exists()


def _at_once(calls: list[Any]) -> tuple[list[Any], list[BaseException]]:
    """Run the calls in threads released together; what each returned or raised."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = []
    errors: list[BaseException] = []

    def run(call: Any) -> None:
        try:
            barrier.wait(timeout=10)
            results.append(call())
        except BaseException as error:  # surfaced in the main thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results, errors


@pytest.mark.django_db(transaction=True)
def test_the_last_two_accepts_at_once_start_one_game() -> None:
    game, (alice, bob, carol) = finished_game(players=3)
    services.rematch_offer(user=alice, game_id=game.pk, games_agreed=3)
    results, errors = _at_once(
        [
            lambda: services.rematch_accept(user=bob, game_id=game.pk),
            lambda: services.rematch_accept(user=carol, game_id=game.pk),
        ]
    )
    assert not errors and len(results) == 2
    assert Game.objects.count() == 2
    offer = RematchOffer.objects.get()
    assert offer.status == RematchOffer.Status.ACCEPTED and offer.next_game is not None
    assert SeriesGame.objects.filter(number=2).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_accept_twice_at_once_starts_one_game() -> None:
    game, (alice, bob) = finished_game()
    services.rematch_offer(user=alice, game_id=game.pk)
    results, errors = _at_once([lambda: services.rematch_accept(user=bob, game_id=game.pk)] * 2)
    assert not errors
    assert {offer.next_game_id for offer in results} == {RematchOffer.objects.get().next_game_id}
    assert Game.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_offers_at_once_make_one_offer() -> None:
    game, (alice, bob) = finished_game()
    results, errors = _at_once(
        [
            lambda: services.rematch_offer(user=alice, game_id=game.pk),
            lambda: services.rematch_offer(user=bob, game_id=game.pk),
        ]
    )
    assert len(results) == 1 and len(errors) == 1 and isinstance(errors[0], WrongStatus)
    assert RematchOffer.objects.count() == 1 and Game.objects.count() == 1
