/* The site's service worker, served at /sw.js so that its scope is the whole site
   (notifications.views.service_worker; registered on every page by static/js/offline.js).

   - Pushes: it shows the pushes the server sends (notifications/push.py: a title, a sentence
     and the game's URL, never a card) and opens or focuses that game when one is clicked.
   - Offline (durak_site/offline.py): every page still comes from the server while there is a
     network. Of those pages it keeps a copy of each of the player's own tables (the server
     marks them "X-Offline-Copy: table"), for one reader at a time ("X-Durak-Reader": another
     reader, or none after a log-out, and every copy is thrown away first), and the stylesheets
     and images they need. Without a network, a kept table is shown read-only (no script, every
     control disabled) under the page's own notice "offline — this is the table as you last saw
     it"; any other page is /offline/, listing the tables kept. */
"use strict";

const ICON = "/static/icons/icon-192.png";
const BADGE = "/static/icons/badge-96.png";

const TABLES = "durak-tables"; // the reader's own tables, as they last saw them
const FILES = "durak-files-v1"; // /offline/ and the stylesheets and images of the pages kept
const OFFLINE_URL = "/offline/";
const READER = "/.reader"; // the reader the kept tables are for: an entry of TABLES, not a URL
const LOGOUT_PATH = "/accounts/logout/";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(FILES)
      .then((files) => files.add(OFFLINE_URL))
      .catch(() => undefined) // offline while installing: it is fetched with the next page
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith("durak-files-") && name !== FILES).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

/* A kept copy is found by its path alone: /games/7/?invite=x is the table of /games/7/. */
function pathKey(url) {
  const parsed = new URL(url);
  return parsed.origin + parsed.pathname;
}

async function keptReader() {
  const entry = await (await caches.open(TABLES)).match(READER, { ignoreVary: true });
  return entry ? entry.text() : null;
}

/* Keep copies for ``reader`` ("" for nobody): another reader's are thrown away first. */
async function readBy(reader) {
  if ((await keptReader()) === reader) return caches.open(TABLES);
  await caches.delete(TABLES);
  const tables = await caches.open(TABLES);
  await tables.put(READER, new Response(reader));
  return tables;
}

/* After a page came from the server: keep it if it is the reader's own table, else forget any
   copy of that path (a game the player has left, one that is gone); and keep /offline/ in the
   page's language. A server error changes nothing. */
async function remember(request, response) {
  if (!(response.headers.get("Content-Type") || "").startsWith("text/html")) return;
  if (response.status >= 500) return; // the server in trouble says nothing of who reads: keep all
  const reader = response.headers.get("X-Durak-Reader") || "";
  const tables = await readBy(reader);
  const key = pathKey(request.url);
  if (reader && response.ok && !response.redirected && response.headers.get("X-Offline-Copy") === "table") {
    await tables.put(key, response);
  } else {
    await tables.delete(key);
  }
  const language = response.headers.get("Content-Language");
  const files = await caches.open(FILES);
  const offline = await files.match(OFFLINE_URL, { ignoreVary: true });
  if (!offline || (language && offline.headers.get("Content-Language") !== language)) {
    await files.add(OFFLINE_URL).catch(() => undefined);
  }
}

function readOnly(html) {
  return html
    .replace(/<html\b([^>]*)\bclass="/i, '<html$1class="offline-copy ')
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<(button|input|select|textarea)\b/gi, "<$1 disabled")
    .replace(/ hidden data-offline-notice/g, " data-offline-notice");
}

function htmlResponse(html) {
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

async function keptTable(request) {
  if (!(await keptReader())) return null;
  const kept = await (await caches.open(TABLES)).match(pathKey(request.url), { ignoreVary: true });
  return kept ? htmlResponse(readOnly(await kept.text())) : null;
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/* /offline/, listing the tables kept (by their titles, as the pages had them). */
async function offlinePage() {
  const page = await (await caches.open(FILES)).match(OFFLINE_URL, { ignoreVary: true });
  if (!page) return Response.error();
  let html = await page.text();
  const items = [];
  if (await keptReader()) {
    const tables = await caches.open(TABLES);
    for (const request of await tables.keys()) {
      if (new URL(request.url).pathname === READER) continue;
      const kept = await (await tables.match(request, { ignoreVary: true })).text();
      // The page's own title, without what was current then: "(2) Your move · " and the site's name.
      const whole = (kept.match(/<title>([\s\S]*?)<\/title>/i) || [])[1] || new URL(request.url).pathname;
      const title = whole.trim().replace(/^\(\d+\)[^·]*·\s*/, "").replace(/\s*·\s*durak online$/, "");
      // The title is the page's own escaped text; the URL is this site's path.
      items.push(`<li><a href="${escapeHtml(new URL(request.url).pathname)}">${title}</a></li>`);
    }
  }
  if (items.length) {
    html = html
      .replace("<ul data-offline-list></ul>", `<ul data-offline-list>${items.join("")}</ul>`)
      .replace("data-offline-tables hidden", "data-offline-tables");
  }
  return htmlResponse(html);
}

async function navigate(event) {
  try {
    const response = await fetch(event.request);
    event.waitUntil(remember(event.request, response.clone()).catch(() => undefined));
    return response;
  } catch (error) {
    return (await keptTable(event.request)) || offlinePage();
  }
}

/* A stylesheet, font or image: from the server, kept for the copies; the kept one offline. */
async function file(event) {
  try {
    const response = await fetch(event.request);
    if (response.ok) {
      const copy = response.clone();
      event.waitUntil(caches.open(FILES).then((files) => files.put(event.request, copy)).catch(() => undefined));
    }
    return response;
  } catch (error) {
    return (await (await caches.open(FILES)).match(event.request, { ignoreVary: true })) || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (request.method === "GET") event.respondWith(navigate(event));
    else if (url.pathname === LOGOUT_PATH) event.waitUntil(caches.delete(TABLES)); // and the next page says so too
    return;
  }
  if (request.method === "GET" && url.pathname.startsWith("/static/") && ["style", "font", "image"].includes(request.destination)) {
    event.respondWith(file(event));
  }
});

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
