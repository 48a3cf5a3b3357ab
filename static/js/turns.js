/* Your-turn awareness: the header's counter of games waiting for your move (#turn-counter), the
   tab's title "(2) Your move · …" and the "next game waiting for you" button (#next-game), kept
   live; and, if the player turned it on in the settings, a short chime when a game starts waiting
   for them. The server renders all of it (templates/base.html, games/_turns.html); this file only
   asks GET /games/turns/ for the same fragment again when something may have changed:

   - the live stream's bell event (live.js: "durak:bell", which carries the count) says so;
   - the table on this page or the lobby's "My games" list was swapped (a move, here or theirs);
   - every 30 s while the stream is not open (or cannot hear the whole site: data-live-fanout);
   - when the tab is shown again, or the page comes back from the back-forward cache.

   The count and the rule of whose move it is come from the server (the seats the engine waits
   for); nothing here decides it. No inline script (CSP). */
(() => {
  "use strict";

  const POLL_MS = 30000;
  const CHIME_GAP_MS = 5000; // one chime for one change, though the table and the count both tell it

  const counter = () => document.getElementById("turn-counter");
  const first = counter();
  if (!first) return;

  const url = first.dataset.url;
  const titleWith = (count) => first.dataset.title.replace("{count}", String(count)) + " · ";
  let count = Number(first.dataset.count) || 0;
  let optional = Number(first.dataset.optional) || 0; // games that go on without you (shown apart)
  // The page's own title, without the count the server put in front of it.
  const shown = titleWith(count);
  const baseTitle = count > 0 && document.title.startsWith(shown) ? document.title.slice(shown.length) : document.title;

  const alwaysPoll = document.body.dataset.liveFanout === "local";
  let liveOpen = false;
  let lostStream = false; // the stream was open, then cut: ask once it is back
  let inFlight = false;
  let again = false;
  // The count the bell event that started the fetch in flight brought: the same count again (one
  // change can tell a player's bell twice: their turn and their notification) asks nothing more.
  let asked = null;
  let lastChime = 0;
  let audio = null;
  let tableVersion = null;
  let tableMyTurn = false;

  function showTitle() {
    document.title = count > 0 ? titleWith(count) + baseTitle : baseTitle;
  }

  function chime() {
    const src = (counter() || first).dataset.sound;
    const now = Date.now();
    if (!src || now - lastChime < CHIME_GAP_MS) return;
    lastChime = now;
    if (!audio) audio = new Audio(src);
    audio.currentTime = 0;
    // Refused until the visitor has interacted with the page (the browser's autoplay rule): silent then.
    const played = audio.play();
    if (played && played.catch) played.catch(() => {});
  }

  function swapIn(fresh, id) {
    const old = document.getElementById(id);
    if (!old || !fresh || old.outerHTML === fresh.outerHTML) return;
    const hadFocus = old.contains(document.activeElement);
    old.replaceWith(fresh);
    if (hadFocus) {
      const link = fresh.querySelector("a");
      if (link) link.focus();
    }
  }

  function apply(html) {
    const parsed = document.createElement("template");
    parsed.innerHTML = html;
    const fresh = parsed.content.getElementById("turn-counter");
    if (!fresh) return; // not the fragment (logged out meanwhile: the log-in page)
    const next = Number(fresh.dataset.count) || 0;
    optional = Number(fresh.dataset.optional) || 0;
    swapIn(fresh, "turn-counter");
    swapIn(parsed.content.getElementById("next-game"), "next-game");
    if (next > count) chime();
    count = next;
    showTitle();
  }

  async function refresh() {
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    try {
      // The game page's button leaves out the game on the screen; the lobby's leaves out none.
      const button = document.getElementById("next-game");
      const query = button ? "?current=" + encodeURIComponent(button.dataset.current || "") : "";
      const response = await fetch(url + query, {
        credentials: "same-origin",
        headers: { Accept: "text/html" },
      });
      if (response.ok) apply(await response.text());
    } catch (error) {
      // Offline for a moment: the next poll or event asks again.
    } finally {
      inFlight = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  function readTable() {
    const table = document.getElementById("table");
    if (!table) return false;
    const version = table.dataset.version;
    const myTurn = table.classList.contains("my-turn");
    const changed = tableVersion !== null && version !== tableVersion;
    if (changed && myTurn && !tableMyTurn) chime(); // the open game became my turn
    tableVersion = version;
    tableMyTurn = myTurn;
    return changed;
  }

  document.addEventListener("durak:bell", (event) => {
    const waiting = event.detail && event.detail.waiting;
    if (typeof waiting !== "number") {
      refresh();
      return;
    }
    const mayAct = event.detail.optional;
    const same = waiting === count && (typeof mayAct !== "number" || mayAct === optional);
    const key = waiting + "/" + mayAct;
    if (same || (inFlight && key === asked)) return;
    asked = key;
    refresh();
  });
  document.addEventListener("durak:live", (event) => {
    const open = Boolean(event.detail && event.detail.open);
    if (open && lostStream) refresh(); // back after a gap: what changed meanwhile
    lostStream = liveOpen && !open;
    liveOpen = open;
  });
  document.addEventListener("htmx:afterSettle", (event) => {
    const target = event.target;
    const lobbyList = target && target.closest && target.closest("#my-games");
    if (readTable() || lobbyList) refresh();
  });
  setInterval(() => {
    if (!liveOpen || alwaysPoll) refresh();
  }, POLL_MS);
  // Back to a tab, or to a page from the browser's back-forward cache: ask once.
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refresh();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) refresh();
  });

  readTable();
  showTitle();
})();
