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

  // --- Picking: one tap (or Enter/Space) picks a card, the buttons that play it appear.
  function clearPick(game) {
    game.querySelectorAll("[data-pick].selected").forEach((el) => {
      el.classList.remove("selected");
      el.setAttribute("aria-pressed", "false");
    });
    game.querySelectorAll(".card-action.armed").forEach((el) => el.classList.remove("armed"));
    game.classList.remove("picking");
    const hint = game.querySelector(".spell-hint");
    if (hint) hint.hidden = true;
  }

  function pickCard(pick, focusTarget) {
    const game = pick.closest(".game");
    const wasSelected = pick.classList.contains("selected");
    clearPick(game);
    if (wasSelected) return;
    const card = pick.dataset.pick;
    pick.classList.add("selected");
    pick.setAttribute("aria-pressed", "true");
    game.classList.add("picking");
    const armed = [];
    game.querySelectorAll(".card-action").forEach((el) => {
      if ((el.dataset.cards || "").split(" ").includes(card)) {
        el.classList.add("armed");
        armed.push(el);
      }
    });
    // An enchanted card's effect, under the hand.
    const hint = game.querySelector(".spell-hint");
    const face = pick.querySelector(".card[data-effect]");
    if (hint && face) {
      hint.textContent = face.getAttribute("title");
      hint.hidden = false;
    }
    if (focusTarget && armed.length) {
      const first = armed[0].matches("button") ? armed[0] : armed[0].querySelector("button");
      if (first) first.focus();
    }
  }

  document.addEventListener("click", (event) => {
    const pick = event.target.closest("#table [data-pick]");
    if (!pick) return;
    // A click from the keyboard (Enter/Space) has detail 0: move the focus to the target.
    pickCard(pick, event.detail === 0);
  });

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
    if (game.dataset.confirm !== "on" || !lastActionButton) return;
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

  // --- Sending…: while a move is on its way, the controls are disabled.
  document.addEventListener("htmx:beforeRequest", (event) => {
    const form = event.detail.elt;
    if (!form.matches || !form.matches("#table form.board")) return;
    const game = table();
    game.classList.add("sending");
    game.setAttribute("aria-busy", "true");
    // Disabled after htmx has read the form (this event comes after the values are taken).
    setTimeout(() => form.querySelectorAll("button").forEach((b) => { b.disabled = true; b.dataset.sending = "1"; }), 0);
  });

  function endSending() {
    const game = table();
    if (!game || !game.classList.contains("sending")) return;
    game.classList.remove("sending");
    game.removeAttribute("aria-busy");
    game.querySelectorAll("button[data-sending]").forEach((b) => { b.disabled = false; delete b.dataset.sending; });
  }

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
    if (!el) return;
    const wasMove = event.detail.elt && event.detail.elt.matches && event.detail.elt.matches("#table form.board");
    offline = true;
    notice(wasMove ? el.dataset.unsent : el.dataset.lost, "lost");
    endSending();
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
    if (xhr && xhr.status > 0 && !unavailable(xhr) && offline) {
      offline = false;
      const el = document.getElementById("connection");
      notice(el.dataset.back, "back");
      backTimer = setTimeout(() => { el.hidden = true; }, 4000);
    }
    if (xhr && xhr.status > 0 && event.detail.elt.matches && event.detail.elt.matches("#table form.board") && !event.detail.successful) {
      endSending();
    }
  });

  // --- After a swap: keep the focus where it was (or on the table's first control), fan the hand,
  // and read out what changed.
  let focusKey = null;
  function keyOf(el) {
    if (!el || !el.closest || !el.closest("#table")) return null;
    if (el.dataset.pick) return { pick: el.dataset.pick };
    if (el.name === "action") return { action: el.value, kind: el.className };
    return { inTable: true };
  }
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.target && event.detail.target.id === "table") focusKey = keyOf(document.activeElement);
  });

  function restoreFocus() {
    const key = focusKey;
    focusKey = null;
    if (!key) return;
    const game = table();
    let el = null;
    if (key.pick) el = game.querySelector(`[data-pick="${CSS.escape(key.pick)}"]:not([disabled])`);
    if (!el && key.action) el = Array.from(game.querySelectorAll("button[name='action']")).find((b) => b.value === key.action && !b.closest(".card-action:not(.armed)"));
    if (!el) el = game.querySelector("[data-pick].playable:not([disabled])");
    if (!el) el = game.querySelector(".other-actions button");
    if (!el) el = game.querySelector("#table-status");
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

  function announce() {
    const game = table();
    const region = document.getElementById("announcer");
    if (!game || !region) return;
    const text = game.dataset.announce || "";
    const key = game.dataset.version + "|" + text;
    if (lastAnnounced === null) {
      lastAnnounced = key; // the first load: the page itself says it
      return;
    }
    if (key === lastAnnounced) return;
    lastAnnounced = key;
    region.textContent = text;
  }

  function setUp() {
    tickCountdowns();
    fanHand();
    announce();
  }

  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target && event.detail.target.id !== "table" && !document.getElementById("table")) return;
    setUp();
    restoreFocus();
  });
  // The share link: focusing it selects it (was an inline onfocus).
  document.addEventListener("focusin", (event) => {
    if (event.target.matches && event.target.matches(".share-link")) event.target.select();
  });

  document.addEventListener("DOMContentLoaded", () => {
    if (window.htmx) htmx.config.timeout = 15000;
    setUp();
    setInterval(tickCountdowns, 1000);
  });
})();
