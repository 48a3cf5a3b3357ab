"""Quiet and coalesced notifications (issue 18): nothing is e-mailed about a game its player is
watching, the "your move"s of several games go as one e-mail, the "time almost up" reminders
escalate (50%, then 90% of a correspondence move time), and the open page reads the game's
notifications, so the bell does not grow while a player watches.

Where the e-mail path matters the real parts run: a Celery worker (and beat) as subprocesses,
delivering to an aiosmtpd server on localhost; the pages are Django's test client. The
coalescing window (``NOTIFY_COALESCE_SECONDS``) is a few seconds here; every wait is for a
condition, with a generous deadline. Run with ``-n 0`` or ``-p no:xdist`` (``celery_env``).
"""

import re
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game, Seat
from notifications import services as notification_services
from notifications.models import Kind, Notification, Preferences, PushSubscription
from tests.celery_processes import CeleryEnv, celery_env, wait_until
from tests.factories import LONGER_DEAL, GameFactory, UserFactory, started_game

from .conftest import Mailbox
from .push_service import PushService, vapid_keys
from .test_push import SUBJECT, service, subscribe

__all__ = ["celery_env", "service"]  # the fixtures, imported for the tests below

HTMX = {"HX-Request": "true"}
#: The coalescing window of these tests: long enough for a page to open after a commit on a
#: loaded machine, short enough to wait for.
WINDOW_SECONDS = 8
PATIENCE = 120


def start_mail_worker(celery_env: CeleryEnv, smtp_settings: Any, *, beat: bool = False) -> None:
    """A worker (and beat: the timeout sweep, which writes the reminders, every second) that
    delivers to the test's SMTP server, with the tests' coalescing window."""
    celery_env.env.update(
        DJANGO_SETTINGS_MODULE="tests.notifications.smtp_worker_settings",
        TEST_SMTP_PORT=str(smtp_settings.EMAIL_PORT),
        NOTIFY_COALESCE_SECONDS=str(WINDOW_SECONDS),
    )
    celery_env.start_worker()
    if beat:
        celery_env.start_beat()


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


class Page:
    """A player's open game page: opened once, then polled as its script does."""

    def __init__(self, user: User, game: Game) -> None:
        self.client = client_for(user)
        self.game_id = game.pk
        response = self.client.get(reverse("games:detail", args=[game.pk]))
        assert response.status_code == 200
        self.version = Game.objects.get(pk=game.pk).version

    def poll(self) -> int:
        url = reverse("games:poll", args=[self.game_id]) + f"?version={self.version}"
        response = self.client.get(url, headers=HTMX)
        assert response.status_code in (200, 204), response.status_code
        if response.status_code == 200:
            found = re.search(r"\?version=(\d+)", response.content.decode())
            assert found is not None
            self.version = int(found[1])
        return response.status_code


def first_move(game: Game, users: list[User]) -> Game:
    """The first legal action of the first player the engine waits for."""
    game.refresh_from_db()
    assert game.state is not None
    engine = game.engine()
    player = engine.waiting_for()[0]
    return services.make_move(
        user=users[player],
        game_id=game.pk,
        action=engine.legal_json(player)[0],
        expected_version=game.version,
    )


def unread(user: User) -> int:
    """The bell's count."""
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def decided(*notifications: Any) -> bool:
    """Every e-mail of these notifications sent or dropped (no longer pending)."""
    return not Notification.objects.filter(pk__in=[n.pk for n in notifications], email_pending=True).exists()


def text_of(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


# Watching ---------------------------------------------------------------------------------


def test_a_player_watching_the_game_gets_no_email_for_it_and_the_bell_stays_read(
    celery_env: CeleryEnv, smtp: Mailbox, settings: Any
) -> None:
    """Both players sit on the page of a live game from before the deal to the end of several
    moves: the game started, and every "your move", is written under the bell already read and
    never e-mailed, though each e-mail waited its window and was decided by the worker."""
    settings.NOTIFY_COALESCE_SECONDS = WINDOW_SECONDS
    start_mail_worker(celery_env, settings)
    creator, joiner = UserFactory(), UserFactory()
    game = GameFactory(creator=creator, deal=LONGER_DEAL, move_time=timedelta(minutes=2))
    creators_page = Page(creator, game)
    assert creators_page.poll() == 204  # waiting for the second player, the page open
    services.game_join(user=joiner, game_id=game.pk)  # the deal
    joiners_page = Page(joiner, game)  # where the join button leads
    users = [creator, joiner]
    pages = [creators_page, joiners_page]
    for _ in range(6):
        for page in pages:
            page.poll()
        game = first_move(game, users)
    for page in pages:
        page.poll()

    written = list(Notification.objects.filter(game=game))
    kinds = {n.kind for n in written}
    assert {Kind.GAME_STARTED, Kind.YOUR_MOVE} <= kinds, kinds
    assert all(n.email_pending or n.emailed_at is None for n in written)
    wait_until(lambda: decided(*written), PATIENCE, "every e-mail decided by the worker")
    wait_until(lambda: decided(*Notification.objects.filter(game=game)), PATIENCE, "the last ones too")

    assert [str(m["Subject"]) for _rcpt, m in smtp.messages] == []
    assert not Notification.objects.filter(game=game, emailed_at__isnull=False).exists()
    assert unread(creator) == unread(joiner) == 0


@pytest.mark.django_db(transaction=True)
def test_a_player_who_opens_the_game_before_the_window_ends_gets_no_email(smtp: Mailbox) -> None:
    """The e-mail is decided when its task runs, not when the move is made: a player who opens
    the game in between gets none (here the task runs as soon as it is queued, in this
    process: the page is opened inside the move's transaction, before its commit queues it)."""
    game, users = started_game(deal=LONGER_DEAL)
    assert smtp.to(users[0].email, "Your move")  # away: the first turn is e-mailed
    second = game.seats.get(position=1)
    Seat.objects.filter(pk=second.pk).update(last_seen_at=timezone.now() - timedelta(minutes=10))
    with transaction.atomic():
        first_move(game, users)  # player 1 to move: e-mail queued at the commit
        Seat.objects.filter(pk=second.pk).update(last_seen_at=timezone.now())  # the page opened
    assert not smtp.to(users[1].email, "Your move")
    turn = Notification.objects.get(game=game, user=users[1], kind=Kind.YOUR_MOVE)
    assert turn.emailed_at is None and not turn.email_pending

    other, other_users = started_game(deal=LONGER_DEAL)
    Seat.objects.filter(game=other, position=1).update(last_seen_at=timezone.now() - timedelta(minutes=10))
    first_move(other, other_users)  # opened ten minutes ago, not since: e-mailed
    assert smtp.to(other_users[1].email, f"Your move in game {other.pk}")


# Coalescing -------------------------------------------------------------------------------


def test_a_player_away_gets_one_email_for_three_games_waiting_exactly_once(
    celery_env: CeleryEnv, smtp: Mailbox, settings: Any
) -> None:
    settings.NOTIFY_COALESCE_SECONDS = WINDOW_SECONDS
    start_mail_worker(celery_env, settings)
    away = UserFactory()
    games, opponents = [], []
    for _ in range(3):
        opponent = UserFactory()
        game = GameFactory(creator=opponent, deal=LONGER_DEAL, move_time=timedelta(days=1))
        services.game_join(user=away, game_id=game.pk)
        games.append(game)
        opponents.append(opponent)
    # The three opponents lead within one window (here in one commit): three "your move"s.
    with transaction.atomic():
        for game, opponent in zip(games, opponents, strict=True):
            first_move(game, [opponent, away])
    committed = timezone.now()
    turns = list(Notification.objects.filter(user=away, kind=Kind.YOUR_MOVE))
    assert sorted(n.game_id for n in turns) == sorted(g.pk for g in games)

    wait_until(lambda: decided(*turns), PATIENCE, "the three e-mails decided")
    wait_until(lambda: smtp.to(away.email, "our move"), PATIENCE, "the e-mail at the server")
    for turn in turns:  # each task ran: the others find theirs sent, the sweep nothing to do
        assert notification_services.email_notification(notification_id=turn.pk) is False
    assert notification_services.send_pending_emails() == 0

    [message] = smtp.to(away.email, "our move")  # "Your move in game N" or "It's your move in ..."
    assert message["Subject"] == "It's your move in 3 games"
    text = text_of(message)
    for game in games:
        assert f"https://durak.example/games/{game.pk}/" in text
    ids = "-".join(str(pk) for pk in sorted(n.pk for n in turns))
    assert message["Message-ID"] == f"<notifications-{ids}@durak.example>"
    sent = Notification.objects.filter(pk__in=[n.pk for n in turns])
    assert all(n.emailed_at is not None and not n.email_pending for n in sent)
    # It waited for the window: the first task was due that long after the commit.
    assert min(n.emailed_at for n in sent if n.emailed_at) >= committed + timedelta(
        seconds=WINDOW_SECONDS - 1
    )
    # Each opponent's own "your move" (to lead) was no longer due once they had led within the
    # window, and after leading they only may throw in: nothing waits for them (issue 29).
    for opponent in opponents:
        assert len(smtp.to(opponent.email, "Your move")) == 0


# Reminders --------------------------------------------------------------------------------


def set_turn(seat: Seat, *, started_minutes_ago: float, warn_now: bool = True) -> None:
    """Make the seat's turn of a one-hour move time look ``started_minutes_ago`` old."""
    now = timezone.now()
    started = now - timedelta(minutes=started_minutes_ago)
    Seat.objects.filter(pk=seat.pk).update(
        turn_started_at=started,
        deadline=started + timedelta(hours=1),
        warn_at=now - timedelta(seconds=1) if warn_now else None,
    )


def test_reminders_go_at_half_and_at_ninety_percent_once_each_and_not_after_the_game_was_opened(
    celery_env: CeleryEnv, smtp: Mailbox, settings: Any
) -> None:
    settings.NOTIFY_COALESCE_SECONDS = 1
    start_mail_worker(celery_env, settings, beat=True)
    game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(hours=1))
    seat = game.seats.get(user=users[0])  # to move
    assert seat.warn_at == seat.turn_started_at + timedelta(minutes=30)  # at half the move time
    watched, watched_users = started_game(deal=LONGER_DEAL, move_time=timedelta(hours=1))
    watched_seat = watched.seats.get(user=watched_users[0])

    page = client_for(watched_users[0]).get(reverse("games:detail", args=[watched.pk]))
    assert page.status_code == 200  # opened in this turn (which began 31 minutes ago)
    set_turn(watched_seat, started_minutes_ago=31)
    set_turn(seat, started_minutes_ago=31)
    wait_until(
        lambda: smtp.to(users[0].email, "Half of your move time is gone"), PATIENCE, "the 50% reminder"
    )
    celery_env.wait_for_sweeps(3)
    seat.refresh_from_db()
    assert seat.turn_started_at is not None
    assert seat.warn_at == seat.turn_started_at + timedelta(minutes=54)  # next: at 90%
    [half] = smtp.to(users[0].email, "Half of your move time is gone")
    assert f"Half of your time for this move in game {game.pk} is gone" in text_of(half)

    # 55 minutes into the turn: the 90% reminder is due (the 50% one is not sent again).
    Seat.objects.filter(pk=seat.pk).update(
        turn_started_at=timezone.now() - timedelta(minutes=55),
        deadline=timezone.now() + timedelta(minutes=5),
        warn_at=timezone.now() - timedelta(seconds=1),
    )
    set_turn(watched_seat, started_minutes_ago=55, warn_now=True)
    wait_until(lambda: smtp.to(users[0].email, "Time is almost up"), PATIENCE, "the 90% reminder")
    celery_env.wait_for_sweeps(3)
    assert sorted(str(m["Subject"]) for m in smtp.to(users[0].email)) == [
        f"Game {game.pk} has started",
        f"Half of your move time is gone in game {game.pk}",
        f"Time is almost up in game {game.pk}",
        f"Your move in game {game.pk}",
    ]
    reminders = Notification.objects.filter(game=game, kind=Kind.TIME_LOW)
    assert sorted(n.params["share"] for n in reminders) == [50, 90]
    assert Seat.objects.get(pk=seat.pk).warn_at is None

    # The player who opened their game after the turn began got neither.
    assert not Notification.objects.filter(game=watched, kind=Kind.TIME_LOW).exists()
    assert not smtp.to(watched_users[0].email, "time")
    assert not smtp.to(watched_users[0].email, "Time")
    assert Seat.objects.get(pk=watched_seat.pk).warn_at is None


@pytest.mark.django_db
def test_a_live_game_has_no_reminders() -> None:
    game, _users = started_game(deal=LONGER_DEAL, move_time=timedelta(minutes=2))
    assert not game.seats.filter(warn_at__isnull=False).exists()


# The open page reads the game's notifications --------------------------------------------


@pytest.mark.django_db
def test_the_poll_marks_the_games_notifications_read_once_the_version_moved() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    started_game(deal=LONGER_DEAL, creator=users[1])  # another game, its notifications unread
    elsewhere_unread = unread(users[1]) - Notification.objects.filter(user=users[1], game=game).count()
    assert elsewhere_unread > 0
    page = Page(users[1], game)  # opening the page reads what there is
    assert unread(users[1]) == elsewhere_unread
    Seat.objects.filter(game=game).update(last_seen_at=timezone.now() - timedelta(minutes=10))
    first_move(game, users)  # player 1 to move: a new "your move" under the bell
    assert Notification.objects.filter(user=users[1], game=game, kind=Kind.YOUR_MOVE, read_at=None).exists()
    assert page.poll() == 200  # the page shows the move: it reads the notification
    assert unread(users[1]) == elsewhere_unread  # the other game's stay unread
    assert page.poll() == 204
    assert unread(users[0]) > 0  # not watching: theirs stay too


@pytest.mark.django_db
def test_the_bell_does_not_grow_while_the_players_watch_and_does_for_one_away() -> None:
    game, users = started_game(players=3, seed=7)
    pages = [Page(user, game) for user in users[:2]]  # the third player is away
    for _ in range(12):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        game = first_move(game, users)
        assert unread(users[0]) == unread(users[1]) == 0  # written read: they are watching
        for page in pages:
            page.poll()
        assert unread(users[0]) == unread(users[1]) == 0
    assert unread(users[2]) > 0


# Pushes: the same policy -----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_pushes_are_quiet_while_watching_and_reminders_go_by_push_instead_of_email(
    service: PushService, smtp: Mailbox
) -> None:
    """Tasks run at the commit here (eagerly, no window): a player watching the game is pushed
    nothing about it; a "time almost up" reminder reaches a player who chose push by push alone."""
    alice, bob = UserFactory(), UserFactory()
    subscribe(alice, service.browser("alice"))
    game = GameFactory(creator=alice, seed=11, move_time=timedelta(hours=1))
    services.game_join(user=bob, game_id=game.pk)
    users = [seat.user for seat in game.seats.order_by("position")]
    game = first_move(game, users)
    while not game.seats.get(user=alice).awaiting_move:
        game = first_move(game, users)
    # Alice away: her turn is pushed.
    assert [p.payload["title"] for p in service.to("alice")] == [
        f"Your move in game {game.pk} ({users[0].name}, {users[1].name})"
    ]
    assert smtp.to(alice.email, "Your move")

    page = Page(alice, game)
    seat = game.seats.get(user=alice)
    turns = 0
    for _ in range(40):
        was_waiting = seat.awaiting_move
        game = first_move(game, users)
        page.poll()
        seat.refresh_from_db()
        turns += seat.awaiting_move and not was_waiting
        if turns >= 2 and seat.awaiting_move:
            break
    assert game.status == Game.Status.ACTIVE and seat.awaiting_move
    assert turns >= 2  # she had turns while she watched...
    assert len(service.to("alice")) == 1  # ...and no push for them
    assert len(smtp.to(alice.email, "Your move")) == 1

    # Away (for 40 minutes): the reminder at half her time goes to her browser, not by e-mail.
    Seat.objects.filter(pk=seat.pk).update(last_seen_at=timezone.now() - timedelta(minutes=40))
    set_turn(seat, started_minutes_ago=31)
    assert notification_services.send_time_warnings() == 1
    [reminder] = [p for p in service.to("alice") if "Half of your move time" in p.payload["title"]]
    assert reminder.payload["url"] == f"/games/{game.pk}/"
    assert not smtp.to(alice.email, "Half of your move time")
    assert Notification.objects.filter(game=game, user=alice, kind=Kind.TIME_LOW, read_at=None).exists()


def test_an_away_player_gets_one_push_for_three_games(celery_env: CeleryEnv, settings: Any) -> None:
    public, private = vapid_keys()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY, settings.VAPID_SUBJECT = public, private, SUBJECT
    settings.NOTIFY_COALESCE_SECONDS = WINDOW_SECONDS
    with PushService(public) as service:
        settings.WEB_PUSH_SERVICES = [service.origin]
        celery_env.env.update(
            VAPID_PUBLIC_KEY=public,
            VAPID_PRIVATE_KEY=private,
            VAPID_SUBJECT=SUBJECT,
            WEB_PUSH_SERVICES=service.origin,
            NOTIFY_COALESCE_SECONDS=str(WINDOW_SECONDS),
        )
        celery_env.start_worker()
        away = UserFactory()
        subscription = subscribe(away, service.browser("away"))
        games, opponents = [], []
        for _ in range(3):
            opponent = UserFactory()
            game = GameFactory(creator=opponent, deal=LONGER_DEAL, move_time=timedelta(days=1))
            services.game_join(user=away, game_id=game.pk)
            games.append(game)
            opponents.append(opponent)
        with transaction.atomic():  # three "your move"s within one window
            for game, opponent in zip(games, opponents, strict=True):
                first_move(game, [opponent, away])
        [pushed] = service.wait_for(1, timeout=PATIENCE)
        sends = "Task notifications.tasks.send_push["
        wait_until(
            lambda: celery_env.log("worker").count(sends) >= 2 * 3,  # three received, three done
            PATIENCE,
            "the three push tasks run",
        )
        assert not service.errors
        assert pushed.payload["title"] == "It's your move in 3 games"
        for game in games:
            assert f"Your move in game {game.pk}." in pushed.payload["body"]
        assert pushed.payload["url"] == "/"
        assert len(service.to("away")) == 1
        assert PushSubscription.objects.filter(pk=subscription.pk, last_success__isnull=False).exists()


@pytest.mark.django_db(transaction=True)
def test_a_push_meeting_an_email_claim_of_the_same_player_waits_and_carries_every_game(
    service: PushService,
) -> None:
    """The e-mail and the push tasks of a "your move" run side by side (the same countdown).
    An e-mail claim holds the player's rows for a moment while it claims them; a push that
    skipped those rows carried fewer games and the skipped ones went again as pushes of their
    own. The two claims take turns: the push waits, then carries all three games at once."""
    import threading

    from django.db import connection

    from notifications import policy, push

    away = UserFactory()
    Preferences.objects.create(user=away, push_your_move=False)  # the tasks run at once here
    subscription = subscribe(away, service.browser("away"))
    games = []
    for _ in range(3):
        opponent = UserFactory()
        game = GameFactory(creator=opponent, deal=LONGER_DEAL, move_time=timedelta(days=1))
        services.game_join(user=away, game_id=game.pk)
        first_move(game, [opponent, away])
        games.append(game)
    Preferences.objects.filter(user=away).update(push_your_move=True)  # as if the window ended now
    rows = list(Notification.objects.filter(user=away, kind=Kind.YOUR_MOVE).order_by("pk"))
    assert len(rows) == 3 and not service.to("away")
    holding, release = threading.Event(), threading.Event()

    def email_claim() -> None:  # what services._claim_your_moves does, stopped before its commit
        try:
            with transaction.atomic():
                policy.your_move_claims_take_turns(user_id=away.pk)
                list(Notification.objects.filter(pk__in=[rows[1].pk, rows[2].pk]).select_for_update())
                holding.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    holder = threading.Thread(target=email_claim)
    holder.start()
    try:
        assert holding.wait(timeout=30)
        threading.Timer(1.0, release.set).start()  # the claim commits a moment later
        later = push.deliver_to_browsers(notification_id=rows[0].pk, written_at=None)
    finally:
        release.set()
        holder.join(timeout=30)
    assert later == []
    [pushed] = service.to("away")
    assert pushed.payload["title"] == "It's your move in 3 games"
    for game in games:
        assert f"Your move in game {game.pk}." in pushed.payload["body"]
    for row in rows[1:]:  # their own tasks push nothing more
        assert push.deliver_to_browsers(notification_id=row.pk, written_at=None) == []
    assert len(service.to("away")) == 1
    assert PushSubscription.objects.filter(pk=subscription.pk, last_success__isnull=False).exists()
