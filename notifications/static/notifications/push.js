/* Push notifications on this device (the settings page's "Push" panel). Registers the site's
   service worker (/sw.js) and, on a click, asks the browser's permission, subscribes with the
   site's VAPID public key (the panel's data-push-key) and posts the subscription to the site;
   another click unsubscribes. The panel's words come from its data attributes (translated). */
"use strict";

(function () {
  const panel = document.querySelector("[data-push-panel]");
  if (!panel || !("serviceWorker" in navigator)) {
    if (panel) show("unsupported");
    return;
  }
  const key = panel.dataset.pushKey;
  const onButton = panel.querySelector(".push-on");
  const offButton = panel.querySelector(".push-off");
  const status = panel.querySelector(".push-status");

  function show(state) {
    const message = panel.dataset["msg" + state.charAt(0).toUpperCase() + state.slice(1)] || "";
    panel.querySelector(".push-status").textContent = message;
    panel.dataset.pushState = state;
  }

  function keyBytes(base64url) {
    const base64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }

  function sameKey(buffer) {
    if (!buffer) return false;
    const have = new Uint8Array(buffer);
    const want = keyBytes(key);
    return have.length === want.length && have.every((byte, i) => byte === want[i]);
  }

  function send(url, fields) {
    return fetch(url, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "X-CSRFToken": panel.dataset.csrf },
      credentials: "same-origin",
    });
  }

  async function post(url, fields) {
    const response = await send(url, fields);
    if (!response.ok) throw new Error("the site answered " + response.status);
    return response.json();
  }

  function offer(subscription) {
    const json = subscription.toJSON();
    return send(panel.dataset.subscribeUrl, { endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth });
  }

  async function taken(response) {
    if (response.status !== 409) return false;
    const answer = await response.json().catch(() => ({}));
    return answer.code === "endpoint_taken";
  }

  async function currentSubscription() {
    const registration = await navigator.serviceWorker.ready;
    return registration.pushManager ? registration.pushManager.getSubscription() : null;
  }

  async function subscribe() {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      show("denied");
      return;
    }
    const registration = await navigator.serviceWorker.ready;
    let subscription = await registration.pushManager.getSubscription();
    if (subscription && !sameKey(subscription.options.applicationServerKey)) {
      await subscription.unsubscribe(); // made for another key: push services would refuse it
      subscription = null;
    }
    const fresh = () => registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    if (!subscription) subscription = await fresh();
    let response = await offer(subscription);
    if (await taken(response)) {
      // Another account of this site subscribed this browser (a computer two people share): the
      // site keeps that one theirs, since anyone may know an endpoint. Only this browser can
      // give it up at its push service, and get a new endpoint for this account.
      await subscription.unsubscribe();
      response = await offer(await fresh());
    }
    if (!response.ok) throw new Error("the site answered " + response.status);
    show("on");
  }

  async function unsubscribe() {
    const subscription = await currentSubscription();
    if (subscription) {
      await post(panel.dataset.unsubscribeUrl, { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    show("off");
  }

  function guarded(action) {
    return async () => {
      onButton.disabled = offButton.disabled = true;
      try {
        await action();
      } catch (error) {
        show("failed");
      } finally {
        onButton.disabled = offButton.disabled = false;
        onButton.hidden = panel.dataset.pushState === "on";
        offButton.hidden = panel.dataset.pushState !== "on";
      }
    };
  }

  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => show("failed"));
  if (!key || !status || !onButton || !offButton) return; // push is off on this site
  if (!("PushManager" in window) || !("Notification" in window)) {
    // iOS and iPadOS 16.4+ push only to the site added to the home screen and opened from there.
    show(/iP(hone|ad|od)/.test(navigator.userAgent) || (navigator.maxTouchPoints > 1 && /Mac/.test(navigator.platform)) ? "homeScreen" : "unsupported");
    return;
  }
  onButton.addEventListener("click", guarded(subscribe));
  offButton.addEventListener("click", guarded(unsubscribe));
  // The site's list of this user's browsers: one it forgot (all devices stopped, or the push
  // service said the subscription is gone) is "off" here too, and the button subscribes again.
  const known = JSON.parse(document.getElementById("push-endpoints").textContent || "[]");
  currentSubscription().then(
    (subscription) => {
      const on =
        Boolean(subscription) &&
        Notification.permission === "granted" &&
        sameKey(subscription.options.applicationServerKey) &&
        known.includes(subscription.endpoint);
      show(on ? "on" : Notification.permission === "denied" ? "denied" : "off");
      onButton.hidden = on;
      offButton.hidden = !on;
    },
    () => show("unsupported"),
  );
})();
