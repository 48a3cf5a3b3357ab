"""The settings page's push panel, on a browser another account of the site subscribed first.

The site keeps that subscription its first account's (anyone may know an endpoint: it is no
proof of being the browser), and answers 409; the panel's script then gives the subscription
up at the push service and subscribes again, which only the browser itself can do, and posts
the new endpoint: the second account gets its pushes, the first's row stays theirs (the push
service answers its next push 410, and it goes).

What stands in for something: the browser's push service. Chromium's own (Google's) is out of
reach here, so ``PushManager.subscribe`` and ``getSubscription`` are replaced, before the page's
script runs, by ones that hand out subscriptions at ``https://push.example`` (an allowed push
service for this test) with keys a ``push_service.Browser`` made. The script, the view and the
database are real.
"""

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from notifications import push
from notifications.models import PushSubscription
from tests.browser.test_chat_moderation import log_in
from tests.factories import UserFactory
from tests.notifications import push_service

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT_MS = 15_000
SERVICE = "https://push.example"

FAKE_PUSH_SERVICE = """
(() => {
  const [key, first, fresh] = %s;
  const bytes = (text) => Uint8Array.from(
    atob((text + "=".repeat((4 - (text.length %% 4)) %% 4)).replace(/-/g, "+").replace(/_/g, "/")),
    (c) => c.charCodeAt(0),
  ).buffer;
  window.fakePush = { unsubscribed: [], subscribed: 0 };
  const make = ({ endpoint, p256dh, auth }) => ({
    endpoint,
    options: { userVisibleOnly: true, applicationServerKey: bytes(key) },
    toJSON: () => ({ endpoint, keys: { p256dh, auth } }),
    unsubscribe: async () => {
      window.fakePush.unsubscribed.push(endpoint);
      current = null;
      return true;
    },
  });
  let current = make(first);
  PushManager.prototype.getSubscription = async function () { return current; };
  PushManager.prototype.subscribe = async function () {
    window.fakePush.subscribed += 1;
    current = make(fresh);
    return current;
  };
})();
"""


def test_a_browser_another_account_subscribed_subscribes_afresh_for_this_one(
    browser: Browser, live_server: Any, settings: Any
) -> None:
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = push_service.vapid_keys()
    settings.WEB_PUSH_SERVICES = [SERVICE]
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    shared = push_service.Browser(endpoint=f"{SERVICE}/push/shared")
    renewed = push_service.Browser(endpoint=f"{SERVICE}/push/renewed")
    push.subscribe(user=alice, **shared.subscription())

    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
    try:
        context.grant_permissions(["notifications"], origin=live_server.url)
        context.add_init_script(
            FAKE_PUSH_SERVICE
            % json.dumps([settings.VAPID_PUBLIC_KEY, shared.subscription(), renewed.subscription()])
        )
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        log_in(page, live_server.url, bob.username, "/notifications/settings/")
        status = page.locator(".push-status")
        expect(status).to_have_text("This device gets no push notifications.")  # it is Alice's

        page.get_by_role("button", name="Send push notifications to this device").click()

        expect(status).to_have_text("This device gets push notifications.")
        assert page.evaluate("window.fakePush") == {"unsubscribed": [shared.endpoint], "subscribed": 1}
        assert sorted(PushSubscription.objects.values_list("user", "endpoint", "p256dh")) == sorted(
            [(alice.pk, shared.endpoint, shared.p256dh), (bob.pk, renewed.endpoint, renewed.p256dh)]
        )
    finally:
        context.close()
