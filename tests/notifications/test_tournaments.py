# ruff: noqa: RUF001  (Russian text)
"""A tournament's notifications (``notifications.tournament_news``): registration open (the
creator's friends; an official one's earlier players too), starting soon (its players), a
round's game started (once per game, in place of its "game started"), the end with each
player's place, or the cancellation; each as its reader's preferences want, in their language,
mailed through a real SMTP server, the round's writes flat in its number of games."""

import json
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from accounts import relations
from accounts.computers import bot_number, computer_name
from accounts.models import User
from games.models import Game, Seat
from notifications import push, queue, tournament_news
from notifications import services as notification_services
from notifications.links import tournament_path
from notifications.models import Kind, Notification, Preferences
from tests.factories import UserFactory
from tests.tournaments.helpers import (
    finish_round,
    later,
    round_games,
    seated,
    started,
    tournament,
    with_players,
)
from tournaments import services as tournament_services
from tournaments.models import Player, Tournament

from .conftest import Mailbox

pytestmark = pytest.mark.django_db(transaction=True)

TOURNAMENT_KINDS = [
    Kind.TOURNAMENT_OPEN,
    Kind.TOURNAMENT_SOON,
    Kind.TOURNAMENT_ROUND,
    Kind.TOURNAMENT_ENDED,
]


def of_kind(kind: str, **filters: Any) -> list[Notification]:
    return list(Notification.objects.filter(kind=kind, **filters).select_related("user").order_by("user_id"))


def readers(kind: str, **filters: Any) -> set[int]:
    return {row.user_id for row in of_kind(kind, **filters)}


def befriend(a: User, b: User) -> None:
    request = relations.friend_request_send(sender=a, recipient=b)
    relations.friend_request_accept(user=b, request_id=request.pk)


def prefs(user: User, **choices: bool) -> None:
    Preferences.objects.update_or_create(user=user, defaults=choices)


def four_player_swiss(**fields: Any) -> tuple[Tournament, list[User]]:
    t = tournament(**fields)
    return t, with_players(t, 4)


# --- A round's games ------------------------------------------------------------------------


def test_each_player_hears_once_of_their_round_game_in_place_of_game_started() -> None:
    t, users = four_player_swiss()
    t = started(t)
    games = round_games(t)
    assert len(games) == 2
    rows = of_kind(Kind.TOURNAMENT_ROUND)
    assert sorted(row.user_id for row in rows) == sorted(user.pk for user in users)
    assert not Notification.objects.filter(kind=Kind.GAME_STARTED, game__in=games).exists()
    for game in games:
        first, second = seated(game)
        mine = Notification.objects.get(kind=Kind.TOURNAMENT_ROUND, user=first)
        assert mine.game_id == game.pk and mine.tournament_id == t.pk and mine.read_at is None
        assert mine.message == (
            f"Round 1 of the tournament “Autumn cup” has started: your game against {second.name}."
        )
        # One notification for the game under the bell: the round's (and a turn for who moves).
        about_game = Notification.objects.filter(user=first, game=game).exclude(kind=Kind.YOUR_MOVE)
        assert list(about_game.values_list("kind", flat=True)) == [Kind.TOURNAMENT_ROUND]


def test_the_next_round_is_told_with_its_number_and_an_ordinary_game_still_says_it_started() -> None:
    t, _users = four_player_swiss()
    t = started(t)
    finish_round(t)  # the last game's end queues the step (run at once here); beat's sweep would
    tournament_services.advance(tournament_id=t.pk, now=later(t))
    t.refresh_from_db()
    assert t.round_number == 2
    second_round = {row.user_id: row for row in of_kind(Kind.TOURNAMENT_ROUND, params__round=2)}
    assert len(second_round) == 4
    assert all(row.message.startswith("Round 2 of the tournament") for row in second_round.values())
    # A game outside any tournament keeps its "game started".
    from games import services as game_services

    a, b = UserFactory.create_batch(2)
    game = game_services.game_seated(players=[a, b], preset="classic")
    assert readers(Kind.GAME_STARTED, game=game) == {a.pk, b.pk}


def test_a_computer_opponent_is_named_and_a_computer_reads_nothing() -> None:
    t = tournament(rated=False)
    person = UserFactory()
    tournament_services.tournament_register(user=person, tournament_id=t.pk)
    tournament_services.tournament_add_computer(user=t.creator, tournament_id=t.pk, level="random")
    t = started(t)
    [row] = of_kind(Kind.TOURNAMENT_ROUND)
    assert row.user_id == person.pk
    [game] = round_games(t)
    bot = next(user for user in seated(game) if user.is_bot)
    assert bot.pk not in readers(Kind.TOURNAMENT_ROUND)
    name = computer_name(bot.bot_level, bot_number(bot.username))
    assert row.message == f"Round 1 of the tournament “Autumn cup” has started: your game against {name}."


def test_round_preferences_are_kept_and_nobody_gets_game_started_instead(smtp: Mailbox) -> None:
    t, users = four_player_swiss()
    quiet, no_mail, everything, _default = users
    prefs(quiet, web_tournament_round=False, email_tournament_round=False, push_tournament_round=False)
    prefs(no_mail, email_tournament_round=False)
    prefs(everything, push_tournament_round=False)
    t = started(t)
    assert readers(Kind.TOURNAMENT_ROUND) == {no_mail.pk, everything.pk, _default.pk}
    assert not Notification.objects.filter(kind=Kind.GAME_STARTED).exists()
    started_mail = [m for _rcpt, m in smtp.messages if "has started" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in started_mail) == sorted([everything.email, _default.email])
    assert all(str(m["Subject"]) == "Round 1 of Autumn cup has started" for m in started_mail)
    [mail] = smtp.to(everything.email, "Round 1")
    game = Notification.objects.get(kind=Kind.TOURNAMENT_ROUND, user=everything).game
    assert game is not None
    text = mail.get_body(preferencelist=("plain",))
    assert text is not None
    assert f"https://durak.example/games/{game.pk}/" in text.get_content()
    assert "Round 1 of the tournament “Autumn cup” has started: your game against" in text.get_content()


def test_a_players_round_games_of_three_tournaments_go_in_one_email(smtp: Mailbox, monkeypatch: Any) -> None:
    """The coalescing window (``NOTIFY_COALESCE_SECONDS``) is 0 in the tests, so each e-mail
    task would run at its commit: here they are held back, as a window holds them, and the first
    to run sends the one e-mail; the others then find theirs sent."""
    queued: list[int] = []
    monkeypatch.setattr(queue, "email_after_commit", queued.append)
    player = UserFactory()
    for name in ("Autumn cup", "Winter cup", "Spring cup"):
        t = tournament(name=name)
        tournament_services.tournament_register(user=player, tournament_id=t.pk)
        with_players(t, 1)
        started(t)
    mine = of_kind(Kind.TOURNAMENT_ROUND, user=player)
    assert len(mine) == 3 and {row.pk for row in mine} <= set(queued)
    for notification_id in queued:
        notification_services.email_notification(notification_id=notification_id)
    # Besides the "your move"s of the games where the player moves first (one e-mail each, or
    # one for several, as their own coalescing goes): one e-mail for the three rounds.
    mails = [m for m in smtp.to(player.email) if "tournament" in str(m["Subject"])]
    assert [str(m["Subject"]) for m in mails] == ["3 tournament games of yours have started"]
    [mail] = mails
    body = mail.get_body(preferencelist=("plain",))
    assert body is not None
    for row in mine:
        assert f"https://durak.example/games/{row.game_id}/" in body.get_content()
        assert row.params["name"] in body.get_content()
    assert not Notification.objects.filter(user=player, email_pending=True).exists()


def test_a_round_game_start_sent_before_the_round_is_told_is_not_mailed(smtp: Mailbox) -> None:
    """The e-mail of a tournament game's "game started" whose task runs before the round's
    receiver deleted the row (a worker quicker than the commit's own process) sends nothing."""
    t, _users = four_player_swiss()
    t = started(t)
    [game, _other] = round_games(t)
    row = Notification.objects.create(
        user=seated(game)[0], kind=Kind.GAME_STARTED, game=game, text="x", params={"game": game.pk}
    )
    Notification.objects.filter(pk=row.pk).update(email_pending=True)
    assert not notification_services.email_notification(notification_id=row.pk)
    assert smtp.to(seated(game)[0].email, "Game") == []


def test_the_round_receiver_costs_the_same_for_two_games_as_for_six(monkeypatch: Any) -> None:
    def cost(players: int) -> int:
        t = tournament()
        with_players(t, players)
        t = started(t)
        games = round_games(t)
        Notification.objects.filter(kind=Kind.TOURNAMENT_ROUND).delete()
        # The e-mail and push tasks queued after the commit (run at once in the tests) each
        # cost their own queries later, in a worker: not the receiver's.
        monkeypatch.setattr(queue, "email_after_commit", lambda *args, **kwargs: None)
        monkeypatch.setattr(queue, "push_after_commit", lambda *args, **kwargs: None)
        with CaptureQueriesContext(connection) as queries:
            written = tournament_news.round_opened(
                tournament=t, round_number=1, game_ids=[game.pk for game in games]
            )
        assert written == players
        return len(queries)

    # BEGIN, the seats (users, preferences, subscriptions), the DELETE of the "game started"s,
    # the INSERT, COMMIT, then the bells' counts (one statement).
    assert cost(4) == cost(12) == 6


# --- Registration ---------------------------------------------------------------------------


def test_registration_open_is_told_to_the_creators_friends_only() -> None:
    creator, friend, other_friend, stranger, blocked = UserFactory.create_batch(5)
    befriend(creator, friend)
    befriend(other_friend, creator)
    befriend(creator, blocked)
    relations.block(blocker=blocked, blocked=creator)
    now = timezone.now()
    t = tournament(creator=creator, registration_opens_at=now, starts_at=now + timedelta(days=2))
    tournament_services.sweep(now=now + timedelta(seconds=1))
    rows = of_kind(Kind.TOURNAMENT_OPEN)
    assert {row.user_id for row in rows} == {friend.pk, other_friend.pk}
    assert all(row.tournament_id == t.pk and row.game_id is None for row in rows)
    assert rows[0].message.startswith("Registration for the tournament “Autumn cup” is open: it starts on ")
    # Told once: the next sweep writes nothing more.
    tournament_services.sweep(now=now + timedelta(seconds=2))
    assert len(of_kind(Kind.TOURNAMENT_OPEN)) == 2
    assert stranger.pk not in readers(Kind.TOURNAMENT_OPEN)


def test_an_official_tournament_is_told_to_earlier_players_as_well() -> None:
    earlier = tournament(name="Last year")
    veterans = with_players(earlier, 3)
    newcomer, creator = UserFactory.create_batch(2)
    now = timezone.now()
    t = tournament(creator=creator, registration_opens_at=now, starts_at=now + timedelta(days=2))
    Tournament.objects.filter(pk=t.pk).update(official=True)
    tournament_services.sweep(now=now + timedelta(seconds=1))
    assert readers(Kind.TOURNAMENT_OPEN, tournament=t) == {user.pk for user in veterans}
    assert newcomer.pk not in readers(Kind.TOURNAMENT_OPEN)


def test_the_opening_audience_is_bounded(monkeypatch: Any) -> None:
    monkeypatch.setattr(tournament_news, "OPENING_AUDIENCE_MAX", 3)
    earlier = tournament(name="Last year")
    with_players(earlier, 5)
    t = tournament()
    Tournament.objects.filter(pk=t.pk).update(official=True)
    t.refresh_from_db()
    assert tournament_news.registration_opened(tournament=t) == 3


def test_registration_open_is_not_mailed_by_default_but_when_chosen(smtp: Mailbox) -> None:
    creator, default, keen = UserFactory.create_batch(3)
    befriend(creator, default)
    befriend(creator, keen)
    prefs(keen, email_tournament_open=True)
    now = timezone.now()
    tournament(creator=creator, registration_opens_at=now, starts_at=now + timedelta(days=2))
    tournament_services.sweep(now=now + timedelta(seconds=1))
    assert readers(Kind.TOURNAMENT_OPEN) == {default.pk, keen.pk}
    assert smtp.to(default.email, "Registration") == []
    [mail] = smtp.to(keen.email, "Registration")
    assert str(mail["Subject"]) == "Registration is open: Autumn cup"
    text = mail.get_body(preferencelist=("plain",))
    assert text is not None
    t = Tournament.objects.get()
    assert f"Open the tournament: https://durak.example{tournament_path(t.pk)}" in text.get_content()


def test_starting_soon_is_told_to_the_registered_players(smtp: Mailbox) -> None:
    t, users = four_player_swiss()
    withdrawn, *staying = users
    tournament_services.tournament_unregister(user=withdrawn, tournament_id=t.pk)
    bystander = UserFactory()
    tournament_services.sweep(now=t.starts_at - timedelta(minutes=30))
    assert readers(Kind.TOURNAMENT_SOON) == {user.pk for user in staying}
    assert bystander.pk not in readers(Kind.TOURNAMENT_SOON)
    assert len(smtp.to(staying[0].email, "Autumn cup starts soon")) == 1


# --- The end --------------------------------------------------------------------------------


def test_the_end_tells_each_player_their_place_in_their_language(smtp: Mailbox) -> None:
    t = tournament(rounds=1)
    users = with_players(t, 4)
    User.objects.filter(pk=users[0].pk).update(language="ru")
    t = started(t)
    finish_round(t)
    tournament_services.advance(tournament_id=t.pk, now=later(t))
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    ranks = dict(Player.objects.filter(tournament=t).values_list("user_id", "final_rank"))
    rows = of_kind(Kind.TOURNAMENT_ENDED)
    assert {row.user_id for row in rows} == {user.pk for user in users}
    english = {"1": "1st", "2": "2nd", "3": "3rd", "4": "4th"}
    for row in rows:
        rank = ranks[row.user_id]
        assert rank is not None
        if row.user_id == users[0].pk:
            with translation.override("ru"):
                assert row.message == f"Турнир «Autumn cup» окончен: вы заняли {rank}-е место из 4."
        else:
            assert row.message == (
                f"The tournament “Autumn cup” has ended: you finished {english[str(rank)]} of 4."
            )
    assert len(smtp.to(users[0].email, "Турнир «Autumn cup» окончен")) == 1
    assert len(smtp.to(users[1].email, "Autumn cup has ended")) == 1


def test_a_cancelled_tournament_is_told_to_its_players() -> None:
    t, users = four_player_swiss()
    tournament_services.tournament_cancel(user=t.creator, tournament_id=t.pk)
    rows = of_kind(Kind.TOURNAMENT_ENDED)
    assert {row.user_id for row in rows} == {user.pk for user in users}
    assert {row.message for row in rows} == {"The tournament “Autumn cup” was cancelled."}


# --- Pushes, the bell, the settings ---------------------------------------------------------


def test_a_rounds_push_names_the_tournament_and_the_opponent_and_nothing_else() -> None:
    t, _users = four_player_swiss()
    t = started(t)
    row = of_kind(Kind.TOURNAMENT_ROUND)[0]
    game = Game.objects.get(pk=row.game_id)
    payload = json.loads(push.push_for(row).payload())
    assert set(payload) == {"title", "body", "url", "tag"}
    assert payload["url"] == f"/games/{game.pk}/"
    assert payload["body"] == row.message
    names = [
        seat.user.name for seat in Seat.objects.filter(game=game).select_related("user").order_by("position")
    ]
    # What the bell shows, and the players' names: never a card, the stock or the seed.
    assert payload["title"] == f"Round 1 of Autumn cup has started ({', '.join(names)})"
    assert payload["tag"] == f"game-{game.pk}"
    assert push.push_for(row).urgency == "high"
    ended = Notification(user=row.user, kind=Kind.TOURNAMENT_ENDED, tournament=t)
    ended.set_params({"tournament": t.pk, "name": t.name, "cancelled": True})
    ended.save()
    payload = json.loads(push.push_for(ended).payload())
    assert (
        payload["url"] == tournament_path(t.pk)
        and payload["body"] == "The tournament “Autumn cup” was cancelled."
    )


def test_the_bell_links_to_the_tournament_and_opening_goes_there() -> None:
    t, users = four_player_swiss()
    tournament_services.tournament_cancel(user=t.creator, tournament_id=t.pk)
    client = Client()
    client.force_login(users[0])
    page = client.get(reverse("notifications:list")).content.decode()
    assert "The tournament “Autumn cup” was cancelled." in page
    assert "Open the tournament" in page
    row = Notification.objects.get(user=users[0], kind=Kind.TOURNAMENT_ENDED)
    response = client.post(reverse("notifications:read", args=[row.pk]), {"open": "1"})
    assert response.status_code == 302 and response["Location"] == tournament_path(t.pk)


def test_the_settings_page_offers_each_tournament_kind_on_each_channel() -> None:
    user = UserFactory()
    client = Client()
    client.force_login(user)
    page = client.get(reverse("notifications:settings")).content.decode()
    for kind in TOURNAMENT_KINDS:
        for channel in ("web", "email", "push"):
            assert f'name="{channel}_{kind}"' in page
    assert "Tournament round started" in page
    defaults = Preferences(user=user)
    assert not defaults.wants_email(Kind.TOURNAMENT_OPEN) and defaults.wants_web(Kind.TOURNAMENT_OPEN)
    assert defaults.wants_email(Kind.TOURNAMENT_ROUND) and defaults.wants_push(Kind.TOURNAMENT_ROUND)


def test_the_settings_page_in_russian_names_the_tournament_kinds() -> None:
    user = UserFactory(language="ru")
    client = Client()
    client.force_login(user)
    page = client.get(reverse("notifications:settings"), headers={"accept-language": "ru"}).content.decode()
    assert "Начался тур турнира" in page and "Турнир окончен" in page
