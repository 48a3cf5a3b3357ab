"""A push reaches Chromium's service worker, shows a notification, and clicking it opens the game.

What is real: the site's service worker (/sw.js, registered by the settings page's script), its
``push`` and ``notificationclick`` handlers, the payload (``notifications.push.push_for`` of
the player's real "your move"), Chromium showing the notification and handling the click.

What stands in for something:

- the push service: Chromium's own (Google's) is out of reach here, so the payload is handed to
  the worker through the DevTools protocol (``ServiceWorker.deliverPushMessage``), which fires
  the same ``push`` event as a push service's message, unencrypted (the server's encryption is
  tested against a local push service in ``tests/notifications/test_push.py``);
- the desktop: the notification is shown by a desktop's notification daemon on a private D-Bus
  session bus (``notification_daemon``), which records it, and clicking it is that daemon's
  ``ActionInvoked`` signal, what a desktop sends when a person clicks a notification. Chromium
  turns it into a trusted ``notificationclick``, which may open a window; a click dispatched from
  script may not, so this is the only way to see the handler open the game.

Headless Chromium draws no notification of its own, so there is no screenshot of one: the
settings page with its push column and panel goes to ``test-artifacts/browser/push-settings.png``
(``docs/screenshots/push-settings.png`` is a copy).
"""

import os
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import BrowserType, expect

from notifications import push
from notifications.models import Kind, Notification
from tests.celery_processes import wait_until
from tests.factories import LONGER_DEAL, started_game
from tests.notifications.push_service import vapid_keys

from .notification_daemon import session_bus

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1100, "height": 900}
NOTIFICATIONS = """navigator.serviceWorker.ready
  .then((registration) => registration.getNotifications())
  .then((shown) => shown.map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data.url})))"""


def test_a_pushed_your_move_shows_a_notification_and_clicking_it_opens_the_game(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    live_server: Any,
    settings: Any,
    tmp_path: Path,
    artifacts: Path,
) -> None:
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = vapid_keys()
    game, (alice, _bob) = started_game(deal=LONGER_DEAL)
    pushed = push.push_for(Notification.objects.get(user=alice, game=game, kind=Kind.YOUR_MOVE))
    game_url = f"{live_server.url}/games/{game.pk}/"
    client = Client()
    client.force_login(alice, backend="moderation.backends.ModelBackend")

    with session_bus() as desktop:
        # A persistent profile: Chromium hands the clicks of an off-the-record one to nobody.
        context = browser_type.launch_persistent_context(
            str(tmp_path / "profile"),
            **browser_type_launch_args,
            env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": desktop.address},
            viewport=DESKTOP,
            locale="en-GB",
        )
        try:
            context.grant_permissions(["notifications"], origin=live_server.url)
            session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
            name = django_settings.SESSION_COOKIE_NAME
            context.add_cookies([{"name": name, "value": session, "url": live_server.url}])
            page = context.pages[0] if context.pages else context.new_page()
            devtools = context.new_cdp_session(page)
            registrations: dict[str, str] = {}
            devtools.on(
                "ServiceWorker.workerRegistrationUpdated",
                lambda event: registrations.update(
                    {r["scopeURL"]: r["registrationId"] for r in event["registrations"] if not r["isDeleted"]}
                ),
            )
            devtools.send("ServiceWorker.enable")

            # The settings page registers the worker for the whole site, and offers push.
            page.goto(live_server.url + "/notifications/settings/")
            assert (
                page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)") == live_server.url + "/"
            )
            expect(page.locator(".push-status")).to_have_text("This device gets no push notifications.")
            expect(page.get_by_role("button", name="Send push notifications to this device")).to_be_visible()
            expect(page.get_by_role("columnheader", name="Push")).to_be_visible()
            expect(page.get_by_role("checkbox", name="your move: push")).to_be_checked()
            page.screenshot(path=artifacts / "push-settings.png", full_page=True)

            scope = wait_until(
                lambda: registrations.get(live_server.url + "/"), 30, "the worker's registration"
            )
            devtools.send(
                "ServiceWorker.deliverPushMessage",
                {"origin": live_server.url, "registrationId": scope, "data": pushed.payload()},
            )
            shown = desktop.wait_for(pushed.title)
            assert pushed.title == f"Your move in game {game.pk} ({alice.name}, {_bob.name})"
            assert pushed.body in shown.body
            assert page.evaluate(NOTIFICATIONS) == [
                {"title": pushed.title, "body": pushed.body, "tag": f"game-{game.pk}", "url": game_url}
            ]

            with context.expect_page(timeout=30_000) as opened:
                desktop.click(shown)
            game_page = opened.value
            expect(game_page).to_have_url(game_url)
            expect(game_page.locator("h1.game-title")).to_contain_text(f"Game {game.pk}")
            wait_until(lambda: page.evaluate(NOTIFICATIONS) == [], 30, "the clicked notification to close")
        finally:
            context.close()
