/* Cards move on the table (games/game.html): from the hand, or from the seat of the player who
   played them, to the table; from the table to the discard when a bout is beaten off. Short, with
   the Web Animations API, and none at all under prefers-reduced-motion. The table partial is drawn
   anew on every change (live.js, the move form): where the cards were is read before the swap,
   and each card that is new on the table flies from there to its place. No inline script (CSP). */
(() => {
  "use strict";

  const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)");
  const TO_TABLE_MS = 260;
  const TO_DISCARD_MS = 420;
  let before = null;

  const isTable = (el) => !!el && el.id === "table";

  document.addEventListener("htmx:beforeSwap", (event) => {
    before = null;
    const game = event.detail.target;
    if (REDUCED.matches || !event.detail.shouldSwap || !isTable(game) || !Element.prototype.animate) return;
    const hand = new Map();
    game.querySelectorAll(".hand [data-pick] .card[data-card]").forEach((el) => hand.set(el.dataset.card, el.getBoundingClientRect()));
    const onTable = new Map();
    game.querySelectorAll(".pairs .card[data-card]").forEach((el) => onTable.set(el.dataset.card, { rect: el.getBoundingClientRect(), el }));
    const seats = new Map();
    game.querySelectorAll(".opponent[data-seat]").forEach((el) => seats.set(el.dataset.seat, (el.querySelector(".backs") || el).getBoundingClientRect()));
    before = { hand, onTable, seats, discard: Number(game.dataset.discard || 0) };
  });

  function centre(rect) {
    return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
  }

  // ``el`` (in its place) comes from ``from``: it starts there, its size, and slides home.
  function fly(el, from) {
    const to = el.getBoundingClientRect();
    if (!to.width || !from.width) return;
    const a = centre(from);
    const b = centre(to);
    const own = getComputedStyle(el).transform;
    const rest = own && own !== "none" ? own : "";
    const scale = Math.min(1.5, Math.max(0.3, from.width / to.width));
    el.animate(
      [
        { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale.toFixed(3)}) ${rest}`.trim() },
        { transform: rest || "none" },
      ],
      { duration: TO_TABLE_MS, easing: "cubic-bezier(.2, .7, .3, 1)" },
    );
  }

  // The beaten-off cards: a copy of each, where it lay, glides to the stock and fades.
  function toDiscard(game, gone) {
    const pile = game.querySelector(".deck .stock") || game.querySelector(".deck");
    if (!pile) return;
    const b = centre(pile.getBoundingClientRect());
    gone.forEach(({ rect, el }) => {
      const ghost = el.cloneNode(true);
      ghost.removeAttribute("data-card");
      ghost.removeAttribute("role");
      ghost.removeAttribute("aria-label");
      ghost.setAttribute("aria-hidden", "true");
      ghost.classList.add("motion-ghost");
      ghost.classList.remove("last-played");
      Object.assign(ghost.style, {
        position: "fixed",
        left: `${rect.left}px`,
        top: `${rect.top}px`,
        width: `${rect.width}px`,
        height: `${rect.height}px`,
        margin: "0",
        zIndex: "20",
        pointerEvents: "none",
        transform: "none",
      });
      game.appendChild(ghost);
      const a = centre(rect);
      const motion = ghost.animate(
        [
          { transform: "none", opacity: 1 },
          { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(.6) rotate(-12deg)`, opacity: 0 },
        ],
        { duration: TO_DISCARD_MS, easing: "ease-in", fill: "forwards" },
      );
      const end = () => ghost.remove();
      motion.onfinish = end;
      motion.oncancel = end;
    });
  }

  document.addEventListener("htmx:afterSwap", (event) => {
    const was = before;
    before = null;
    const game = document.getElementById("table");
    if (!was || !game || REDUCED.matches || !isTable(event.detail.target)) return;
    const seat = game.dataset.lastSeat;
    game.querySelectorAll(".pairs .card[data-card]").forEach((el) => {
      const card = el.dataset.card;
      if (was.onTable.has(card)) return;
      const from = was.hand.get(card) || (seat !== undefined ? was.seats.get(seat) : undefined);
      if (from) fly(el, from);
    });
    const gone = Array.from(was.onTable, ([card, at]) => ({ card, ...at })).filter(
      ({ card }) => !game.querySelector(`.pairs .card[data-card="${CSS.escape(card)}"]`),
    );
    if (gone.length && Number(game.dataset.discard || 0) > was.discard) toDiscard(game, gone);
  });
})();
