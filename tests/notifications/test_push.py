"""Web push, delivered to a real push service on localhost (``push_service.PushService``): it
checks each push's VAPID signature and claims and decrypts its payload with the keys the test's
"browser" made, as a browser vendor's service and the browser behind it would.

Celery runs eagerly here (the tasks run at the commit, in this process), except in
``test_a_real_worker_sends_the_push``, where a worker subprocess consumes from Redis.
"""

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

import durak
from accounts.models import User
from games import services
from games.models import Game, Seat
from notifications import push, vapid
from notifications.models import Kind, Notification, Preferences, PushSubscription
from tests.celery_processes import CeleryEnv, celery_env, wait_until
from tests.factories import LONGER_DEAL, GameFactory, UserFactory
from tests.games.helpers import card_traces
from tests.leaks import shows_number

from .push_service import Browser, PushService, vapid_keys
from .test_emails import step

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["celery_env"]  # the fixture, imported for the last test

SUBJECT = "mailto:admin@durak.example"


@pytest.fixture
def service(settings: Any) -> Iterator[PushService]:
    public, private = vapid_keys()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY, settings.VAPID_SUBJECT = public, private, SUBJECT
    with PushService(public) as running:
        settings.WEB_PUSH_SERVICES = [running.origin]
        yield running


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def subscribe(user: User, browser: Browser) -> PushSubscription:
    """Subscribe as the settings page's script does: POST the subscription, logged in."""
    response = client_for(user).post(
        reverse("notifications:push_subscribe"), browser.subscription(), HTTP_USER_AGENT="TestBrowser/1.0"
    )
    assert response.status_code == 201, response.content
    return PushSubscription.objects.get(endpoint=browser.endpoint)


def start_game(creator: User, other: User, **kwargs: Any) -> Game:
    game = GameFactory(creator=creator, deal=LONGER_DEAL, **kwargs)
    services.game_join(user=other, game_id=game.pk)
    game.refresh_from_db()
    return game


def assert_holds_no_card(payload: dict[str, Any], game: Game) -> None:
    text = json.dumps(payload, ensure_ascii=False)
    for card in durak.deck(36):
        assert not re.search(rf"(?<![\w]){re.escape(card)}(?![\w])", text), f"{card} in {text}"
        for trace in card_traces(card):
            assert trace not in text, f"{card} as {trace!r} in {text}"
    assert not set("♠♥♦♣") & set(text), text
    assert not shows_number(text, game.seed), f"the seed in {text}"


def test_your_move_arrives_signed_and_decrypts_to_the_game_url_and_no_card(service: PushService) -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    browser = service.browser("alice-phone")
    subscription = subscribe(alice, browser)
    assert subscription.user == alice and subscription.user_agent == "TestBrowser/1.0"
    assert subscription.last_success is None

    game = start_game(alice, bob, seed=987_654_321)

    # Alice leads: "your move" is pushed (on by default); "game started" is not (off by default).
    [pushed] = service.to("alice-phone")
    assert not service.errors
    assert pushed.payload == {
        "title": f"Your move in game {game.pk} (alice, bob)",
        "body": pushed.payload["body"],
        "url": f"/games/{game.pk}/",
        "tag": f"game-{game.pk}",
    }
    assert pushed.payload["body"].startswith(f"Your move in game {game.pk}.")
    assert_holds_no_card(pushed.payload, game)
    assert pushed.claims["sub"] == SUBJECT and pushed.claims["aud"] == service.origin
    assert pushed.headers["urgency"] == "high" and pushed.headers["topic"] == f"game-{game.pk}"
    assert 0 < int(pushed.headers["ttl"]) <= 24 * 3600
    subscription.refresh_from_db()
    assert subscription.last_success is not None
    # Bob is not waited for, and has no browser subscribed.
    assert len(service.pushes) == 1


def test_the_push_is_in_the_readers_language(service: PushService) -> None:
    alice, bob = UserFactory(username="alice", language="ru"), UserFactory(username="bob")
    subscribe(alice, service.browser("alice"))
    game = start_game(alice, bob)
    [pushed] = service.to("alice")
    assert pushed.payload["title"] == f"Ваш ход в игре {game.pk} (alice, bob)"


def test_a_gone_subscription_is_deleted_and_a_delivered_one_records_its_success(service: PushService) -> None:
    alice, bob = UserFactory(), UserFactory()
    _gone, _expired, working = (
        subscribe(alice, service.browser(name)) for name in ("gone", "expired", "working")
    )
    service.answers.update({"gone": 410, "expired": 404})

    start_game(alice, bob)

    assert [len(service.to(name)) for name in ("gone", "expired", "working")] == [1, 1, 1]
    assert set(PushSubscription.objects.filter(user=alice)) == {working}
    working.refresh_from_db()
    assert working.last_success is not None


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_from_the_push_service_is_never_followed(service: PushService, status: int) -> None:
    # A push service (or anything at an allowed origin) that names another address must not
    # make the worker post there: the push is refused, as any other answer that is no success.
    alice, bob = UserFactory(), UserFactory()
    subscription = subscribe(alice, service.browser("moved"))
    public, _private = vapid_keys()
    with PushService(public) as elsewhere:
        elsewhere.browser("moved")
        service.redirects["moved"] = (status, f"{elsewhere.origin}/push/moved")
        start_game(alice, bob)
        assert service.requests == ["/push/moved"]  # asked once, as for any push
        assert elsewhere.requests == []
    assert PushSubscription.objects.filter(pk=subscription.pk).exists()  # not gone: it may answer later


def test_no_push_for_a_kind_the_user_turned_off(service: PushService) -> None:
    alice, bob = UserFactory(), UserFactory()
    Preferences.objects.create(user=alice, push_your_move=False, push_game_started=True)
    Preferences.objects.create(user=bob, push_game_started=False)
    subscribe(alice, service.browser("alice"))
    subscribe(bob, service.browser("bob"))

    game = start_game(alice, bob)

    # The tasks ran at the commit of the join (eagerly): everything that was sent has arrived.
    assert [p.payload["title"] for p in service.to("alice")] == [
        f"Game {game.pk} has started ({alice.name}, {bob.name})"
    ]
    assert service.to("bob") == []
    assert Notification.objects.filter(user=alice, kind=Kind.YOUR_MOVE).exists()  # still under the bell


def test_push_only_notifications_are_kept_already_read(service: PushService) -> None:
    alice, bob = UserFactory(), UserFactory()
    Preferences.objects.create(user=alice, web_your_move=False, email_your_move=False)
    subscribe(alice, service.browser("alice"))
    start_game(alice, bob)
    assert len(service.to("alice")) == 1
    notification = Notification.objects.get(user=alice, kind=Kind.YOUR_MOVE)
    assert notification.read_at is not None  # the bell does not count it


def test_a_turn_push_is_dropped_once_the_player_has_moved(service: PushService) -> None:
    alice, bob = UserFactory(), UserFactory()
    subscription = subscribe(alice, service.browser("alice"))
    game = start_game(alice, bob)
    notification = Notification.objects.get(user=alice, kind=Kind.YOUR_MOVE)
    assert len(service.to("alice")) == 1
    while Seat.objects.get(game=game, user=alice).awaiting_move:  # Alice leads, then Bob answers
        step(game, [alice, bob])
    assert not push.deliver(notification_id=notification.pk, subscription_id=subscription.pk)
    assert len(service.to("alice")) == 1


def test_a_push_service_that_cannot_take_it_now_is_retried_later(service: PushService) -> None:
    alice, bob = UserFactory(), UserFactory()
    Preferences.objects.create(user=alice, push_your_move=False)  # no push while the game starts
    subscription = subscribe(alice, service.browser("alice"))
    start_game(alice, bob)
    Preferences.objects.filter(user=alice).update(push_your_move=True)
    notification = Notification.objects.get(user=alice, kind=Kind.YOUR_MOVE)
    for status in (503, 429):
        service.answers["alice"] = status
        with pytest.raises(push.PushServiceUnavailable):
            push.deliver(notification_id=notification.pk, subscription_id=subscription.pk)
    assert PushSubscription.objects.filter(pk=subscription.pk, last_success=None).exists()
    service.answers["alice"] = 201
    assert push.deliver(notification_id=notification.pk, subscription_id=subscription.pk)
    assert len(service.to("alice")) == 3


def test_a_turn_push_waits_for_the_email_claim_holding_its_row(service: PushService) -> None:
    """The email task of the same "your move" runs beside the push's (the same countdown) and
    holds the row for a moment while it claims the email: the push waits, it is not dropped."""
    import threading

    from django.db import connection, transaction

    alice, bob = UserFactory(), UserFactory()
    Preferences.objects.create(user=alice, push_your_move=False)  # no push while the game starts
    subscription = subscribe(alice, service.browser("alice"))
    start_game(alice, bob)
    Preferences.objects.filter(user=alice).update(push_your_move=True)
    notification = Notification.objects.get(user=alice, kind=Kind.YOUR_MOVE)
    locked, done = threading.Event(), threading.Event()

    def email_claim() -> None:
        try:
            with transaction.atomic():
                Notification.objects.select_for_update().get(pk=notification.pk)
                locked.set()
                done.wait(timeout=1.0)  # the claim's transaction, still open when the push decides
        finally:
            connection.close()

    holder = threading.Thread(target=email_claim)
    holder.start()
    try:
        assert locked.wait(timeout=30)
        assert push.deliver(notification_id=notification.pk, subscription_id=subscription.pk)
    finally:
        done.set()
        holder.join(timeout=30)
    [pushed] = service.to("alice")
    assert pushed.payload["tag"] == f"game-{notification.game_id}" and not service.errors


def test_nothing_is_sent_with_a_transaction_open(service: PushService) -> None:
    from django.db import transaction

    alice, bob = UserFactory(), UserFactory()
    subscription = subscribe(alice, service.browser("alice"))
    start_game(alice, bob)
    notification = Notification.objects.get(user=alice, kind=Kind.YOUR_MOVE)
    with transaction.atomic(), pytest.raises(RuntimeError, match="no transaction open"):
        push.deliver(notification_id=notification.pk, subscription_id=subscription.pk)
    assert len(service.to("alice")) == 1


def test_no_card_and_no_seed_in_any_push_of_a_whole_game(service: PushService) -> None:
    alice, bob = UserFactory(), UserFactory()
    for user in (alice, bob):
        Preferences.objects.create(user=user, **{f"push_{kind}": True for kind in Kind.values})
        subscribe(user, service.browser(user.username))
    game = start_game(alice, bob, seed=123_456_789)
    for _ in range(200):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        step(game, [alice, bob])
    assert game.status == Game.Status.FINISHED
    kinds_seen = {p.payload["title"].split(" (")[0] for p in service.pushes}
    assert f"Game {game.pk} is over" in kinds_seen and f"Game {game.pk} has started" in kinds_seen
    assert f"Your move in game {game.pk}" in kinds_seen
    assert len(service.pushes) > 4 and not service.errors
    for pushed in service.pushes:
        assert_holds_no_card(pushed.payload, game)
        assert set(pushed.payload) == {"title", "body", "url", "tag"}


def test_subscribing_refuses_what_is_not_a_subscription_and_changes_nothing(service: PushService) -> None:
    alice = UserFactory()
    good = service.browser("alice").subscription()
    url = reverse("notifications:push_subscribe")
    client = client_for(alice)
    bad = [
        {},
        {**good, "endpoint": "http://127.0.0.1:6379/"},  # not the push service: the worker would post there
        {**good, "endpoint": "https://fcm.googleapis.com.evil.example/x"},
        {**good, "endpoint": "not a url"},
        {**good, "endpoint": service.origin + "/" + "x" * 1000},
        {**good, "p256dh": "AAAA"},
        {**good, "p256dh": "BA" + "A" * 85},  # 65 bytes, not a point on the curve
        {**good, "auth": "c2hvcnQ"},
        {**good, "auth": "!!not base64!!"},
    ]
    for data in bad:
        response = client.post(url, data)
        assert response.status_code == 400, data
        assert response.json()["detail"] == "not a push subscription"
    assert not PushSubscription.objects.exists()
    assert client.get(url).status_code == 405
    assert Client().post(url, good).status_code == 302  # to the log-in page
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post(url, good).status_code == 403
    assert not PushSubscription.objects.exists()


TAKEN = {"detail": "this browser gets push notifications for another account", "code": "endpoint_taken"}


def test_another_account_cannot_take_a_browser_over(service: PushService) -> None:
    """Whoever learns a browser's endpoint (it is a URL at the push service, not a secret) and
    posts it with keys of their own would otherwise receive... nothing, but the owner would lose
    their pushes and the other account's would go to the owner's browser."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    Preferences.objects.create(user=bob, push_game_started=True)
    browser = service.browser("alice-phone")
    subscribe(alice, browser)
    url = reverse("notifications:push_subscribe")
    theirs = Browser(endpoint=browser.endpoint)  # Alice's endpoint, keys Bob made
    for data in (theirs.subscription(), browser.subscription()):  # even with her very keys
        response = client_for(bob).post(url, data)
        assert response.status_code == 409, response.content
        assert response.json() == TAKEN
    assert list(PushSubscription.objects.values_list("user", "p256dh", "auth")) == [
        (alice.pk, browser.p256dh, browser.auth)
    ]

    start_game(alice, bob)  # Alice leads; Bob would be told the game started, had he a browser

    [pushed] = service.to("alice-phone")  # hers, decrypted with her keys, and nothing of Bob's
    assert pushed.payload["title"].startswith("Your move") and not service.errors


def test_a_browser_that_makes_new_keys_stays_subscribed(service: PushService) -> None:
    alice, bob = UserFactory(), UserFactory()
    first = subscribe(alice, service.browser("alice"))
    renewed = Browser(endpoint=first.endpoint)  # the browser rotated its keys, same endpoint
    service.browsers["alice"] = renewed
    second = subscribe(alice, renewed)
    assert (second.pk, second.created) == (first.pk, first.created)
    assert (second.p256dh, second.auth) == (renewed.p256dh, renewed.auth)
    start_game(alice, bob)
    assert len(service.to("alice")) == 1 and not service.errors


def test_two_accounts_subscribing_one_browser_at_once_leave_it_one_owner(service: PushService) -> None:
    """Bob's request reads no row yet (Alice's is not committed), so it inserts, and waits on
    the endpoint's unique index for Alice's transaction: when that commits, Bob's insert fails
    and his request answers that the browser is taken, not a 500."""
    import threading

    from django.db import connection, transaction

    alice, bob = UserFactory(), UserFactory()
    browser = service.browser("shared")
    inserted, commit = threading.Event(), threading.Event()
    answers: list[Any] = []

    def alice_subscribes() -> None:
        try:
            with transaction.atomic():
                push.subscribe(user=alice, **browser.subscription())
                inserted.set()
                commit.wait(timeout=60)
        finally:
            connection.close()

    def bob_subscribes() -> None:
        try:
            answers.append(
                client_for(bob).post(reverse("notifications:push_subscribe"), browser.subscription())
            )
        finally:
            connection.close()

    def bob_waits_on_the_index() -> bool:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND query LIKE %s",
                ['INSERT INTO "notifications_pushsubscription"%'],
            )
            return bool(cursor.fetchone()[0])

    first, second = threading.Thread(target=alice_subscribes), threading.Thread(target=bob_subscribes)
    first.start()
    try:
        assert inserted.wait(timeout=60)
        second.start()
        wait_until(bob_waits_on_the_index, 60, "Bob's insert to wait for Alice's")
    finally:
        commit.set()
        first.join(timeout=60)
    second.join(timeout=60)
    [answer] = answers
    assert answer.status_code == 409 and answer.json() == TAKEN
    assert list(PushSubscription.objects.values_list("user", "p256dh")) == [(alice.pk, browser.p256dh)]


def test_only_its_owner_can_forget_a_browser(service: PushService) -> None:
    alice, bob = UserFactory(), UserFactory()
    browser = service.browser("shared")
    subscribe(alice, browser)
    forget = reverse("notifications:push_unsubscribe")
    assert client_for(bob).post(forget, {"endpoint": browser.endpoint}).json() == {"devices": 0}
    assert PushSubscription.objects.filter(user=alice).count() == 1
    assert client_for(alice).post(forget, {}).status_code == 400
    assert client_for(alice).post(forget, {"endpoint": browser.endpoint}).json() == {"devices": 0}
    assert not PushSubscription.objects.exists()


def test_forgetting_every_device_from_the_settings_page(service: PushService) -> None:
    alice = UserFactory()
    for name in ("phone", "laptop"):
        subscribe(alice, service.browser(name))
    client = client_for(alice)
    page = client.get(reverse("notifications:settings")).content.decode()
    assert "2 devices get your push notifications." in page
    assert f'data-push-key="{vapid.vapid_public_key()}"' in page
    response = client.post(reverse("notifications:push_unsubscribe"), {"all": "1"}, follow=True)
    assert "No device of yours gets push notifications now." in response.content.decode()
    assert not PushSubscription.objects.exists()


def test_a_user_has_at_most_so_many_browsers(service: PushService, monkeypatch: Any) -> None:
    monkeypatch.setattr(push, "MAX_SUBSCRIPTIONS_PER_USER", 3)
    alice = UserFactory()
    for number in range(5):
        subscribe(alice, service.browser(f"b{number}"))
    assert sorted(PushSubscription.objects.values_list("endpoint", flat=True)) == sorted(
        service.browsers[f"b{number}"].endpoint for number in (2, 3, 4)
    )


def test_the_settings_page_has_a_push_column_and_saves_it(service: PushService) -> None:
    alice = UserFactory()
    client = client_for(alice)
    page = client.get(reverse("notifications:settings")).content.decode()
    assert '<th scope="col">Push</th>' in page
    for kind in Kind.values:
        assert f'name="push_{kind}"' in page
    data = {"push_game_finished": "on", "web_your_move": "on", "time_zone": "UTC", "language": "en"}
    data["confirm_moves"] = "never"
    assert client.post(reverse("notifications:settings"), data).status_code == 302
    prefs = Preferences.objects.get(user=alice)
    assert prefs.push_game_finished and not prefs.push_your_move and not prefs.push_time_low


def test_without_vapid_keys_push_is_off_and_the_settings_page_says_so(settings: Any) -> None:
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    alice = UserFactory()
    client = client_for(alice)
    page = client.get(reverse("notifications:settings")).content.decode()
    assert "Push notifications are off on this site." in page
    browser = Browser(endpoint="https://fcm.googleapis.com/fcm/send/abc")
    response = client.post(reverse("notifications:push_subscribe"), browser.subscription())
    assert response.status_code == 409
    assert not PushSubscription.objects.exists()
    assert not push.wanted(Kind.YOUR_MOVE, Preferences(user=alice))


def test_keys_that_do_not_match_turn_push_off(settings: Any) -> None:
    public, _ = vapid_keys()
    _, private = vapid_keys()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    assert not vapid.enabled()
    settings.VAPID_PRIVATE_KEY = "not a key"
    assert not vapid.enabled()


def test_make_vapid_keys_prints_a_pair_that_signs_pushes(capsys: Any, settings: Any) -> None:
    call_command("make_vapid_keys", "--subject", SUBJECT)
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.splitlines())
    assert set(lines) == {"VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT"}
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = (
        lines["VAPID_PUBLIC_KEY"],
        lines["VAPID_PRIVATE_KEY"],
    )
    assert lines["VAPID_SUBJECT"] == SUBJECT
    assert vapid.enabled()
    with PushService(lines["VAPID_PUBLIC_KEY"]) as service:
        settings.WEB_PUSH_SERVICES = [service.origin]
        alice, bob = UserFactory(), UserFactory()
        subscribe(alice, service.browser("alice"))
        start_game(alice, bob)
        assert len(service.to("alice")) == 1 and not service.errors


def test_the_service_worker_and_the_manifest_are_served_from_the_root() -> None:
    static_url = "/" + settings.STATIC_URL.strip("/") + "/"
    client = Client()
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Service-Worker-Allowed"] == "/"
    assert 'addEventListener("push"' in worker.content.decode()
    assert 'addEventListener("notificationclick"' in worker.content.decode()
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert data["display"] == "standalone" and data["start_url"] == "/" and data["scope"] == "/"
    purposes = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes
    for icon in data["icons"]:
        assert icon["src"].startswith(static_url) and finders.find(icon["src"].removeprefix(static_url)), icon
    page = client.get(reverse("account_login")).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="apple-mobile-web-app-capable" content="yes">' in page
    assert 'rel="apple-touch-icon"' in page


def test_a_real_worker_sends_the_push(celery_env: CeleryEnv, settings: Any) -> None:
    public, private = vapid_keys()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY, settings.VAPID_SUBJECT = public, private, SUBJECT
    with PushService(public) as service:
        settings.WEB_PUSH_SERVICES = [service.origin]
        celery_env.env.update(
            VAPID_PUBLIC_KEY=public,
            VAPID_PRIVATE_KEY=private,
            VAPID_SUBJECT=SUBJECT,
            WEB_PUSH_SERVICES=service.origin,
        )
        celery_env.start_worker()
        alice, bob = UserFactory(), UserFactory()
        subscription = subscribe(alice, service.browser("alice"))
        game = start_game(alice, bob)
        try:
            [pushed] = service.wait_for(1, timeout=120)
        except AssertionError as error:
            raise AssertionError(f"{error}\nworker log:\n{celery_env.log('worker')[-4000:]}") from None
        assert pushed.payload["url"] == f"/games/{game.pk}/" and not service.errors
        wait_until(
            lambda: PushSubscription.objects.filter(pk=subscription.pk, last_success__isnull=False).exists(),
            60,
            "the worker to record the delivery",
        )
        celery_env.wait_for_log("worker", "notifications.tasks.send_push[")
