/* Live pages (durak_site/live.py): one EventSource per tab, for the channels the page names —
   <body data-live-channels> (the user's bell) and every element's data-live-channel (a game's
   table, its chat, the lobby's lists). An event only says that something changed ("game 7 is at
   version 12"); the element that is out of date gets a "durak:changed" event, which its
   hx-trigger turns into the request it always made (the table poll with its version, the chat log
   with its marker), answered 204 when there is nothing new.

   While the stream is not open (not yet, cut, refused, or the server has none) the elements get
   "durak:poll" every data-live-poll seconds instead: the page polls as it did before the stream.
   With data-live-fanout="local" (neither Redis nor a socket folder: the server's other
   processes cannot reach this stream) it polls as well as listening. Each time the stream opens, the page asks once with
   what it has, so nothing said while it was away is missed. No inline script (CSP). */
(() => {
  const body = document.body;
  const url = body.dataset.live;
  const pollMs = Math.max(0.1, Number(body.dataset.livePoll) || 2) * 1000;
  const alwaysPoll = body.dataset.liveFanout === "local";
  const RETRY_MS = [1000, 2000, 5000, 10000, 30000];
  const SILENT_MS = 50000; // the server sends a keep-alive every 20 s
  const POLLED = '[hx-trigger*="durak:poll"]';

  let source = null;
  let open = false;
  let opened = 0; // how many times a stream opened on this page
  let subscribed = new Set();
  let retries = 0;
  let retryTimer = null;
  let lastHeard = 0;
  let parked = false; // superseded: polling, until the page is shown again
  const latest = new Map(); // channel -> the newest version heard
  const asked = new Map(); // channel -> the version its element last asked about
  const news = new Set(); // channels whose elements must ask (no version to compare)

  function pageChannels() {
    const channels = new Set((body.dataset.liveChannels || "").split(/\s+/).filter(Boolean));
    document.querySelectorAll("[data-live-channel]").forEach((el) => channels.add(el.dataset.liveChannel));
    return channels;
  }

  function busy(el) {
    return el.closest(".htmx-request") !== null || el.querySelector(".htmx-request") !== null;
  }

  function changed(el) {
    el.dispatchEvent(new CustomEvent("durak:changed", { bubbles: true }));
  }

  function behind(el) {
    const channel = el.dataset.liveChannel;
    if (news.has(channel)) return true;
    const known = latest.get(channel);
    if (known === undefined || !("version" in el.dataset)) return false;
    // Asked about this version already (and told 204): only a newer one asks again.
    return Number(el.dataset.version) < known && (asked.get(channel) ?? -1) < known;
  }

  // Tell every element that is behind what the stream said, unless it is asking already (a move
  // on its way, or the last "durak:changed"): it is looked at again once that answer is in.
  function check() {
    const told = new Set();
    document.querySelectorAll("[data-live-channel]").forEach((el) => {
      if (!behind(el) || busy(el)) return;
      told.add(el.dataset.liveChannel);
      changed(el);
    });
    told.forEach((channel) => {
      news.delete(channel);
      if (latest.has(channel)) asked.set(channel, latest.get(channel));
    });
  }

  function catchUp(everything) {
    const targets = everything ? document.querySelectorAll("[data-live-channel]") : document.querySelectorAll(POLLED);
    targets.forEach((el) => {
      if (!busy(el)) changed(el);
    });
  }

  function heard(event, handle) {
    lastHeard = Date.now();
    let data = null;
    try {
      data = event.data ? JSON.parse(event.data) : null;
    } catch (error) {
      return;
    }
    if (data) handle(data);
  }

  function bell(data) {
    document.dispatchEvent(new CustomEvent("durak:bell", { detail: data }));
    const link = document.querySelector(".site-header .bell");
    if (!link || !window.htmx) return;
    const badge = link.querySelector(".unread-count");
    const shown = badge ? Number(badge.textContent) || 0 : 0;
    if (shown === data.unread) return;
    // The header's own words (and plurals) come from the server: fetch the bell as a page draws it
    // (keeping this page's title, not the notifications page's).
    window.htmx.ajax("GET", link.getAttribute("href"), { target: link, select: ".site-header .bell", swap: "outerHTML ignoreTitle:true" });
  }

  function connect() {
    clearTimeout(retryTimer);
    retryTimer = null;
    parked = false;
    if (source) source.close();
    source = null;
    open = false;
    subscribed = pageChannels();
    if (!url || !window.EventSource || subscribed.size === 0) return;
    const query = Array.from(subscribed, (channel) => "channel=" + encodeURIComponent(channel)).join("&");
    const stream = new EventSource(url + "?" + query);
    source = stream;
    stream.addEventListener("stream-open", () => {
      open = true;
      retries = 0;
      lastHeard = Date.now();
      catchUp(opened > 0);
      opened += 1;
      document.dispatchEvent(new CustomEvent("durak:live", { detail: { open: true } }));
    });
    stream.addEventListener("keep-alive", () => {
      lastHeard = Date.now();
    });
    stream.addEventListener("game", (event) =>
      heard(event, (data) => {
        const channel = "game-" + data.game;
        latest.set(channel, Math.max(latest.get(channel) || 0, Number(data.version) || 0));
        check();
      }),
    );
    stream.addEventListener("chat", (event) =>
      heard(event, (data) => {
        news.add("game-" + data.game + "-chat-" + data.chat);
        check();
      }),
    );
    stream.addEventListener("rematch", (event) =>
      heard(event, (data) => {
        news.add("game-" + data.game + "-rematch");
        check();
      }),
    );
    stream.addEventListener("lobby", (event) =>
      heard(event, () => {
        news.add("lobby");
        check();
      }),
    );
    // A tournament's page: its version moved on (a registration, a round, its end), or a game of
    // it ended (no version: the results changed).
    stream.addEventListener("tournament", (event) =>
      heard(event, (data) => {
        const channel = "tournament-" + data.tournament;
        if ("version" in data) latest.set(channel, Math.max(latest.get(channel) || 0, Number(data.version) || 0));
        else news.add(channel);
        check();
      }),
    );
    // Play now (matchmaking): the user's place in the queue changed, or their game was found.
    stream.addEventListener("queue", (event) =>
      heard(event, (data) => {
        news.add("user-" + data.user);
        check();
      }),
    );
    stream.addEventListener("bell", (event) => heard(event, bell));
    stream.addEventListener("stream-error", (event) => {
      stream.close(); // refused, ended or the server lost its fan-out: poll, and come back later
      let condition = "";
      try {
        condition = JSON.parse(event.data).condition || "";
      } catch (error) {
        condition = "";
      }
      if (condition === "superseded") park(stream);
      else lost(stream);
    });
    stream.onerror = () => {
      // CONNECTING: the browser tries again by itself; CLOSED: it gave up (an answer that is
      // not a stream: refused, unavailable, or no stream on this server), so try later.
      if (stream.readyState === EventSource.CLOSED) lost(stream);
      else if (source === stream) open = false;
    };
  }

  function lost(stream) {
    if (source !== stream) return;
    open = false;
    source = null;
    document.dispatchEvent(new CustomEvent("durak:live", { detail: { open: false } }));
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, RETRY_MS[Math.min(retries, RETRY_MS.length - 1)]);
    retries += 1;
  }

  // Over the cap: opening again now would only end another tab's stream, which would do the same.
  function park(stream) {
    if (source !== stream) return;
    open = false;
    source = null;
    document.dispatchEvent(new CustomEvent("durak:live", { detail: { open: false } }));
    clearTimeout(retryTimer);
    retryTimer = null;
    parked = true;
  }

  document.addEventListener("visibilitychange", () => {
    if (parked && document.visibilityState === "visible") connect();
  });

  // The fallback, and the watchdog of a stream that went silent (a connection that died quietly).
  setInterval(() => {
    if (open && Date.now() - lastHeard > SILENT_MS && source) {
      source.close();
      lost(source);
    }
    if (!open || alwaysPoll) {
      document.querySelectorAll(POLLED).forEach((el) => {
        if (!busy(el)) el.dispatchEvent(new CustomEvent("durak:poll"));
      });
    }
  }, pollMs);

  // A swap can bring a channel the stream does not carry (a game in the lobby's list, the chat
  // log): open it again with the page's channels. Each answer also settles what was waiting.
  let rescan = null;
  document.addEventListener("htmx:afterSettle", () => {
    check();
    clearTimeout(rescan);
    rescan = setTimeout(() => {
      if (parked || (retryTimer !== null && !open)) return; // a reconnect is due anyway, or parked
      const wanted = pageChannels();
      if (Array.from(wanted).some((channel) => !subscribed.has(channel))) connect();
    }, 100);
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.successful) {
      setTimeout(check, 0);
    } else {
      asked.clear(); // that answer never came: ask again, but not at once
      setTimeout(check, pollMs);
    }
  });
  window.addEventListener("pagehide", () => {
    if (source) source.close();
  });

  // Attention (issue 29). Every request of the page says whether it is on the screen
  // (X-Page-Visible): a table swapped into a visible page is seen live. A player's game page
  // (#presence) also tells the server when it is open and visible, and which table it shows:
  // while it is, no "your move" is written for that game; once hidden or closed, it is again.
  const visible = () => document.visibilityState === "visible";
  document.addEventListener("htmx:configRequest", (event) => {
    event.detail.headers["X-Page-Visible"] = visible() ? "1" : "0";
  });
  const presence = document.getElementById("presence");
  if (presence) {
    const heartbeatMs = Math.max(5, Number(presence.dataset.heartbeat) || 25) * 1000;
    const report = (shown, closing) => {
      const table = document.getElementById("table");
      const data = new FormData();
      data.append("visible", shown ? "1" : "0");
      data.append("version", (table && table.dataset.version) || "");
      try {
        data.append("csrfmiddlewaretoken", JSON.parse(body.getAttribute("hx-headers") || "{}")["x-csrftoken"] || "");
      } catch (error) {
        // No token: the server refuses, and the player's turns are told as if the page were hidden.
      }
      if (closing && navigator.sendBeacon) navigator.sendBeacon(presence.dataset.url, data);
      else fetch(presence.dataset.url, { method: "POST", body: data, credentials: "same-origin", keepalive: true }).catch(() => {});
    };
    document.addEventListener("visibilitychange", () => report(visible(), false));
    window.addEventListener("pagehide", () => report(false, true));
    window.addEventListener("pageshow", (event) => {
      if (event.persisted) report(visible(), false);
    });
    setInterval(() => {
      if (visible()) report(true, false);
    }, heartbeatMs);
    report(visible(), false);
  }

  connect();
})();
