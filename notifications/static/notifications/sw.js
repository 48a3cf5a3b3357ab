/* The site's service worker, served at /sw.js so that its scope is the whole site
   (notifications.views.service_worker). It shows the pushes the server sends
   (notifications/push.py: a title, a sentence and the game's URL, never a card) and opens or
   focuses that game when one is clicked. It caches nothing and answers no request: every page
   still comes from the server. */
"use strict";

const ICON = "/static/icons/icon-192.png";
const BADGE = "/static/icons/badge-96.png";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/* A URL of this site: the push's own if it is one, else the lobby. */
function siteUrl(url) {
  try {
    const target = new URL(url || "/", self.location.origin);
    if (target.origin === self.location.origin) return target.href;
  } catch (error) {
    /* not a URL: the lobby */
  }
  return new URL("/", self.location.origin).href;
}

function pushData(event) {
  if (!event.data) return {};
  try {
    const data = event.data.json();
    return data && typeof data === "object" ? data : {};
  } catch (error) {
    return { body: event.data.text() };
  }
}

self.addEventListener("push", (event) => {
  const data = pushData(event);
  const tag = typeof data.tag === "string" && data.tag ? data.tag : "";
  const options = {
    body: typeof data.body === "string" ? data.body : "",
    icon: ICON,
    badge: BADGE,
    data: { url: siteUrl(data.url) },
  };
  if (tag) {
    // One notification per game: a newer one replaces it, and still rings.
    options.tag = tag;
    options.renotify = true;
  }
  const title = typeof data.title === "string" && data.title ? data.title : "durak online";
  event.waitUntil(self.registration.showNotification(title, options));
});

/* Focus a tab that shows the page already, else open it. */
async function openPage(url) {
  const target = siteUrl(url);
  const path = new URL(target).pathname;
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).pathname === path);
  if (open) return open.focus();
  return self.clients.openWindow(target);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openPage(event.notification.data && event.notification.data.url));
});
