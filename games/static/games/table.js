// The game table: pick a card then its target, confirm a move, keyboard, live announcements,
// "Sending…" and connection notices, deadline countdowns. Without JavaScript every action is a
// plain button of the move form (the server renders them all); this file only adds to that.
(function () {
  "use strict";

  const table = () => document.getElementById("table");
  let pendingRequest = null; // an htmx:confirm detail waiting for the confirm bar
  let lastAnnounced = null;

  // --- Countdowns to each deadline (the server applies the timeout; the page only shows the time left).
  function tickCountdowns() {
    document.querySelectorAll(".countdown[data-deadline]").forEach((el) => {
      const left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      const d = Math.floor(left / 86400), h = Math.floor((left % 86400) / 3600);
      const m = Math.floor((left % 3600) / 60), s = left % 60;
      const pad = (n) => String(n).padStart(2, "0");
      if (left === 0) {
        el.textContent = el.dataset.up || "time is up";
        return;
      }
      const parts = [];
      if (d) parts.push((el.dataset.days || "{n}d").replace("{n}", d));
      if (d || h) parts.push((el.dataset.hours || "{n}h").replace("{n}", h));
      parts.push(pad(m) + ":" + pad(s));
      el.textContent = (el.dataset.left || "{time} left").replace("{time}", parts.join(" "));
    });
  }

  // --- Picking: one tap (or Enter/Space) picks a card, the buttons that play it appear. While an
  // attack of several cards is possible (a pair of sixes), another card of it joins the pick and
  // only the attacks with all the picked cards stay; any other card starts a new pick, and a picked
  // card tapped again leaves it. The pick, in the order it was made:
  let selection = [];

  function cardsOf(el) {
    return (el.dataset.cards || "").split(" ").filter(Boolean);
  }

  function targetsFor(game, cards) {
    return Array.from(game.querySelectorAll(".card-action")).filter((el) => {
      const its = cardsOf(el);
      return cards.every((card) => its.includes(card));
    });
  }

  function pickButton(game, card) {
    return game.querySelector(`[data-pick="${CSS.escape(card)}"]:not([disabled])`);
  }

  // Show ``cards`` as the pick: they stand up, the buttons that play them all are armed.
  function showPick(game, cards, focusTarget) {
    game.querySelectorAll("[data-pick].selected").forEach((el) => {
      el.classList.remove("selected");
      el.setAttribute("aria-pressed", "false");
    });
    game.querySelectorAll(".card-action.armed").forEach((el) => el.classList.remove("armed"));
    const hint = game.querySelector(".spell-hint");
    if (hint) hint.hidden = true;
    selection = cards.slice();
    game.classList.toggle("picking", cards.length > 0);
    if (!cards.length) return [];
    let last = null;
    cards.forEach((card) => {
      const pick = pickButton(game, card);
      if (!pick) return;
      pick.classList.add("selected");
      pick.setAttribute("aria-pressed", "true");
      last = pick;
    });
    const armed = targetsFor(game, cards);
    armed.forEach((el) => el.classList.add("armed"));
    // An enchanted card's effect, under the hand.
    const face = last && last.querySelector(".card[data-effect]");
    if (hint && face) {
      hint.textContent = face.getAttribute("title");
      hint.hidden = false;
    }
    if (focusTarget && armed.length) {
      const first = armed[0].matches("button") ? armed[0] : armed[0].querySelector("button");
      if (first) first.focus();
    }
    return armed;
  }

  function clearPick(game) {
    showPick(game, [], false);
  }

  function pickCard(pick, focusTarget) {
    const game = pick.closest(".game");
    const card = pick.dataset.pick;
    selection = selection.filter((c) => pickButton(game, c));
    let next = [card];
    if (selection.includes(card)) next = selection.filter((c) => c !== card);
    else if (selection.length && targetsFor(game, [...selection, card]).length) next = [...selection, card];
    const note = game.querySelector(".pick-note");
    if (note) note.hidden = true;
    forgetUnsent(); // the player changes their move
    showPick(game, next, focusTarget);
  }

  document.addEventListener("click", (event) => {
    const pick = event.target.closest("#table [data-pick]");
    if (!pick) return;
    // A click from the keyboard (Enter/Space) has detail 0: move the focus to the target.
    pickCard(pick, event.detail === 0);
  });

  // A card as the table writes it ("6♠"), from the corner of its face.
  function cardText(game, card) {
    const face = game.querySelector(`[data-card="${CSS.escape(card)}"]`);
    const rank = face && face.querySelector(".corner .rank");
    const suit = face && face.querySelector(".corner .corner-suit");
    return rank && suit ? rank.textContent + suit.textContent : card;
  }

  // --- A pick survives a live update: what was picked before the table was redrawn stays picked,
  // with its targets, as long as it can still be played; the cards that no longer can are named
  // in one line under the hand (and read out).
  function keepPick(kept) {
    const game = table();
    if (!game || !kept) return "";
    const keep = [];
    for (const card of kept.cards) {
      if (!pickButton(game, card) || !targetsFor(game, [...keep, card]).length) break;
      keep.push(card);
    }
    showPick(game, keep, false);
    const lost = kept.cards.slice(keep.length);
    const note = game.querySelector(".pick-note");
    if (!lost.length || !note) return "";
    note.textContent = (note.dataset.lost || "{cards}").replace("{cards}", lost.map((c) => kept.names[c] || c).join(" "));
    note.hidden = false;
    return note.textContent;
  }

  // --- Keyboard: arrows move across the hand; Escape drops the pick or the confirm bar.
  document.addEventListener("keydown", (event) => {
    const game = table();
    if (!game) return;
    if (event.key === "Escape") {
      if (!hideConfirm(true)) {
        const picked = game.querySelector("[data-pick].selected");
        clearPick(game);
        if (picked) picked.focus();
      }
      return;
    }
    const pick = event.target.closest && event.target.closest("#table [data-pick]");
    if (!pick || !["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    const cards = Array.from(game.querySelectorAll("[data-pick]:not([disabled])"));
    const at = cards.indexOf(pick);
    let next = at;
    if (event.key === "ArrowLeft") next = Math.max(0, at - 1);
    if (event.key === "ArrowRight") next = Math.min(cards.length - 1, at + 1);
    if (event.key === "Home") next = 0;
    if (event.key === "End") next = cards.length - 1;
    if (cards[next]) {
      cards[next].focus();
      event.preventDefault();
    }
  });

  // --- Confirm bar: "Beat 7♦ with 9♦?" Confirm / Cancel, before the move is posted.
  let lastActionButton = null;
  document.addEventListener("click", (event) => {
    const button = event.target.closest("#table button[name='action']");
    if (button) lastActionButton = button;
  }, true);

  function confirmBar() {
    return document.querySelector("#table .confirm-bar");
  }

  function hideConfirm(restoreFocus) {
    const bar = confirmBar();
    if (!bar || bar.hidden) return false;
    bar.hidden = true;
    table().classList.remove("confirming");
    pendingRequest = null;
    bar.querySelector(".confirmed-action").disabled = true;
    // Cancelled: the picked card goes back into the hand and keeps the focus.
    const picked = table().querySelector("[data-pick].selected");
    clearPick(table());
    const back = picked || (lastActionButton && document.contains(lastActionButton) ? lastActionButton : null);
    if (restoreFocus && back) back.focus();
    return true;
  }

  document.addEventListener("htmx:confirm", (event) => {
    const game = table();
    const form = event.detail.elt;
    if (!game || !form.matches || !form.matches("#table form.board")) return;
    if (game.dataset.confirm !== "on" || !lastActionButton || retrying) return; // a retry was confirmed before
    event.preventDefault();
    const bar = confirmBar();
    pendingRequest = event.detail;
    const question = bar.querySelector(".confirm-question");
    question.textContent = lastActionButton.dataset.confirm || (question.dataset.ask || "%(move)s?").replace("%(move)s", lastActionButton.textContent.trim());
    bar.hidden = false;
    game.classList.add("confirming");
    bar.querySelector(".confirm-yes").focus();
  });

  document.addEventListener("click", (event) => {
    if (event.target.closest("#table .confirm-yes")) {
      const request = pendingRequest;
      // The clicked button lost the focus to this one, so htmx no longer posts its value: the
      // confirmed action goes in a hidden field (disabled, so never posted without this step).
      const chosen = confirmBar().querySelector(".confirmed-action");
      if (lastActionButton) {
        chosen.value = lastActionButton.value;
        chosen.disabled = false;
      }
      confirmBar().hidden = true;
      table().classList.remove("confirming");
      pendingRequest = null;
      if (request) request.issueRequest(true);
    } else if (event.target.closest("#table .confirm-no")) {
      hideConfirm(true);
    }
  });

  // --- Sending…: while a move is on its way, the controls are disabled (and the form's hx-sync
  // drops a second submit meanwhile).
  // The table's move form (no longer in the page once its answer is swapped in: no "#table").
  const isBoard = (el) => !!(el && el.matches && el.matches("form.board"));
  let sending = null; // what the move on its way posts: { action, version, label }

  function buttonWords(button) {
    if (!button) return "";
    const picker = button.closest(".suit-picker");
    return (button.getAttribute("aria-label") || (picker ? "" : button.textContent) || button.title || "").trim();
  }

  document.addEventListener("htmx:configRequest", (event) => {
    if (!isBoard(event.detail.elt)) return;
    const values = event.detail.parameters;
    const actions = values.getAll ? values.getAll("action") : [values.action];
    const action = actions[actions.length - 1] || "";
    const version = values.get ? values.get("expected_version") : values.expected_version;
    const label = retrying && unsent ? unsent.label : buttonWords(lastActionButton);
    sending = { action, version, label };
  });

  document.addEventListener("htmx:beforeRequest", (event) => {
    const form = event.detail.elt;
    if (!isBoard(form)) return;
    const game = table();
    game.classList.add("sending");
    game.setAttribute("aria-busy", "true");
    const retry = document.querySelector("#unsent .unsent-retry");
    if (retry) retry.disabled = true;
    // Disabled after htmx has read the form (this event comes after the values are taken).
    setTimeout(() => form.querySelectorAll("button").forEach((b) => { b.disabled = true; b.dataset.sending = "1"; }), 0);
  });

  function endSending() {
    const retry = document.querySelector("#unsent .unsent-retry");
    if (retry) retry.disabled = false;
    const game = table();
    if (!game || !game.classList.contains("sending")) return;
    game.classList.remove("sending");
    game.removeAttribute("aria-busy");
    game.querySelectorAll("button[data-sending]").forEach((b) => { b.disabled = false; delete b.dataset.sending; });
    // The confirmed action goes with the next confirmation only, never beside another button's.
    const chosen = game.querySelector(".confirm-bar .confirmed-action");
    if (chosen) chosen.disabled = true;
  }

  // --- A move that was not sent (the connection down, or the server briefly unavailable) stays in
  // sight as "Beat 6♠ with 8♠ — not sent." with a Retry button, in the dock by the hand, until it
  // is sent or the player makes another move. Its card is put back: the target is not armed beside
  // the Retry, so nothing can send it twice. The retry posts the version the move was made against:
  // if the game moved on meanwhile, the server says so instead of playing an old move.
  let unsent = null; // { action, version, label }
  let retrying = false;

  function unsentBox() {
    return document.getElementById("unsent");
  }

  function showUnsent(again) {
    const box = unsentBox();
    if (!box || !unsent) return;
    const text = box.querySelector(".unsent-text");
    text.textContent = ((again ? box.dataset.again : box.dataset.text) || "{move}").replace("{move}", unsent.label);
    box.hidden = false;
    placeUnsent();
  }

  // The box lives outside the table partial (swaps never reset it) and is shown in the dock.
  function placeUnsent() {
    const box = unsentBox();
    if (!box) return;
    const dock = box.hidden ? null : document.querySelector("#table .hand-dock");
    const home = document.getElementById("unsent-home");
    if (dock) dock.insertBefore(box, dock.querySelector(".sending-note"));
    else if (home && box.parentElement !== home.parentElement) home.after(box);
  }

  function forgetUnsent() {
    unsent = null;
    const box = unsentBox();
    const retry = box && box.querySelector(".unsent-retry");
    if (retry) retry.disabled = false;
    if (!box || box.hidden) return;
    box.hidden = true;
    placeUnsent();
  }

  function moveNotSent() {
    const again = !!unsent && !!sending && unsent.action === sending.action;
    if (sending && sending.action) unsent = sending;
    sending = null;
    const game = table();
    if (game) clearPick(game);
    showUnsent(again);
  }

  document.addEventListener("click", (event) => {
    if (!event.target.closest("#unsent .unsent-retry") || !unsent || !window.htmx) return;
    const form = document.querySelector("#table form.board");
    if (!form || table().classList.contains("sending")) return;
    // htmx asks (htmx:confirm) and reads the values (htmx:configRequest) before ajax() returns.
    retrying = true;
    try {
      htmx.ajax("POST", form.getAttribute("hx-post"), {
        source: form,
        values: { action: unsent.action, expected_version: unsent.version },
      });
    } finally {
      retrying = false;
    }
  });

  // --- Connection notices: polling errors show "Connection lost: retrying…", the first answer after
  // them "Back online." Polling goes on by itself (the trigger stays on the table).
  let offline = false;
  let backTimer = null;
  function notice(text, kind) {
    const el = document.getElementById("connection");
    if (!el) return;
    clearTimeout(backTimer);
    el.textContent = text;
    el.className = "connection " + kind;
    el.hidden = !text;
  }
  function connectionLost(event) {
    const el = document.getElementById("connection");
    if (isBoard(event.detail.elt)) {
      endSending();
      moveNotSent();
    }
    if (!el) return;
    offline = true;
    notice(el.dataset.lost, "lost");
  }
  // A 503 is the server saying "briefly unavailable, nothing was lost" (its database restarting):
  // the same notice as a lost connection, and the same "Back online." once an answer comes.
  const unavailable = (xhr) => xhr && xhr.status === 503;
  document.addEventListener("htmx:sendError", connectionLost);
  document.addEventListener("htmx:timeout", connectionLost);
  document.addEventListener("htmx:responseError", (event) => {
    if (unavailable(event.detail.xhr)) connectionLost(event);
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    const answered = xhr && xhr.status > 0 && !unavailable(xhr);
    if (answered && offline) {
      offline = false;
      const el = document.getElementById("connection");
      notice(el.dataset.back, "back");
      backTimer = setTimeout(() => { el.hidden = true; }, 4000);
    }
    if (!isBoard(event.detail.elt)) return;
    if (answered) {
      // Answered (played, or refused with the reason on the table): nothing is left unsent.
      forgetUnsent();
      sending = null;
    }
    if (answered && !event.detail.successful) endSending();
  });

  // --- After a swap: keep the pick and the focus where they were (after the player's own move:
  // on the next control to use), fan the hand, and read out what changed.
  let focusKey = null;
  let keptPick = null;
  function keyOf(el) {
    if (!el || !el.closest || !el.closest("#table")) return null;
    if (el.dataset.pick) return { pick: el.dataset.pick };
    if (el.name === "action") return { action: el.value, kind: el.className };
    return { inTable: true };
  }
  document.addEventListener("htmx:beforeSwap", (event) => {
    // Fired for every answer, a poll's 204 too: only a table that is really replaced counts.
    if (!event.detail.shouldSwap || !event.detail.target || event.detail.target.id !== "table") return;
    const game = table();
    const own = isBoard(event.detail.requestConfig && event.detail.requestConfig.elt);
    // The answer to the player's own move: the move is made (or refused, and said why).
    focusKey = own ? { afterMove: true } : keyOf(document.activeElement);
    keptPick = !own && game && selection.length
      ? { cards: selection.slice(), names: Object.fromEntries(selection.map((c) => [c, cardText(game, c)])) }
      : null;
    selection = [];
    pendingRequest = null;
    if (own) forgetUnsent(); // answered: played, or refused with the reason on the table
    // Take the unsent move's box out of the old dock before it goes.
    const box = unsentBox();
    const home = document.getElementById("unsent-home");
    if (box && home && game && game.contains(box)) home.after(box);
  });

  // The next sensible control after a move: a target of the pick, a card to play, the other
  // actions (take, done), else the line that says whose move it is.
  function nextControl(game) {
    const armed = game.querySelector(".card-action.armed");
    if (armed) return armed.matches("button") ? armed : armed.querySelector("button");
    return game.querySelector("[data-pick].playable:not([disabled])")
      || game.querySelector(".other-actions button")
      || game.querySelector("#table-status");
  }

  function restoreFocus() {
    const key = focusKey;
    focusKey = null;
    if (!key) return;
    const game = table();
    let el = null;
    if (key.afterMove) el = nextControl(game);
    if (!el && key.pick) el = game.querySelector(`[data-pick="${CSS.escape(key.pick)}"]:not([disabled])`);
    if (!el && key.action) el = Array.from(game.querySelectorAll("button[name='action']")).find((b) => b.value === key.action && !b.closest(".card-action:not(.armed)"));
    if (!el && key.kind && !/card-action|suit-choice/.test(key.kind)) el = Array.from(game.querySelectorAll("button[name='action']")).find((b) => b.className === key.kind);
    if (!el) el = nextControl(game);
    if (el) el.focus();
  }

  function fanHand() {
    const game = table();
    if (!game) return;
    const picks = Array.from(game.querySelectorAll(".hand .cards .pick"));
    const middle = (picks.length - 1) / 2;
    const step = picks.length > 8 ? 2 : 3;
    picks.forEach((pick, i) => {
      pick.style.setProperty("--fan-angle", ((i - middle) * step).toFixed(1) + "deg");
      pick.style.setProperty("--fan-drop", (Math.abs(i - middle) * Math.abs(i - middle) * 0.6).toFixed(1) + "px");
    });
  }

  // What the live region reads after a change: the last move and, when it concerns the player,
  // whose move it is (after their own move, always: where the game goes on), then a lost pick.
  function announce(extra, afterMove) {
    const game = table();
    const region = document.getElementById("announcer");
    if (!game || !region) return;
    let text = game.dataset.announce || "";
    const status = game.querySelector("#table-status strong"); // whose move: "Waiting for bob."
    const statusText = status ? status.textContent.replace(/\s+/g, " ").trim() : "";
    if (afterMove && statusText && !text.includes(statusText)) text = (text + " " + statusText).trim();
    const key = game.dataset.version + "|" + text;
    if (lastAnnounced === null) {
      lastAnnounced = key; // the first load: the page itself says it
      return;
    }
    if (key === lastAnnounced && !extra) return;
    lastAnnounced = key;
    region.textContent = [text, extra].filter(Boolean).join(" ");
  }

  /* The rest of the page keeps a scroll margin of the dock's height (table.css, --dock-room), so
     what is focused or scrolled to stops above the dock. Measured here and kept in step as the
     dock grows (the confirm bar, a second row of cards): a table that fits the screen is not
     scrolled by a focus, and nothing focused lies under the dock. */
  let dockObserver = null;
  function trackDock() {
    const dock = document.querySelector(".hand-dock");
    if (dockObserver) dockObserver.disconnect();
    if (!dock || !("ResizeObserver" in window)) return;
    const room = () => {
      const height = Math.ceil(dock.getBoundingClientRect().height);
      if (height > 0) document.documentElement.style.setProperty("--dock-room", `${height + 8}px`);
    };
    room();
    dockObserver = new ResizeObserver(room);
    dockObserver.observe(dock);
  }

  function setUp(extra, afterMove) {
    tickCountdowns();
    fanHand();
    trackDock();
    announce(extra, afterMove);
  }

  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target && event.detail.target.id !== "table" && !document.getElementById("table")) return;
    if (!event.detail.target || event.detail.target.id !== "table") {
      setUp("", false);
      return;
    }
    const afterMove = !!(focusKey && focusKey.afterMove);
    const lost = keepPick(keptPick);
    keptPick = null;
    if (unsent) showUnsent(false);
    setUp(lost, afterMove);
    restoreFocus();
  });
  // The share link: focusing it selects it (was an inline onfocus).
  document.addEventListener("focusin", (event) => {
    if (event.target.matches && event.target.matches(".share-link")) event.target.select();
  });

  document.addEventListener("DOMContentLoaded", () => {
    if (window.htmx) htmx.config.timeout = 15000;
    setUp("", false);
    setInterval(tickCountdowns, 1000);
  });
})();
