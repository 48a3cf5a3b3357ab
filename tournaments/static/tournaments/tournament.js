// A tournament's page: the countdown to its start or to the end of the round under way. The
// server starts the tournament and opens the rounds; the page only shows the time left. The live
// part (standings, rounds) is refreshed by static/js/live.js; this runs again after each swap.
(function () {
  "use strict";

  function tick() {
    document.querySelectorAll(".tournament-live .countdown[data-deadline]").forEach((el) => {
      const left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      if (left === 0) {
        el.textContent = el.dataset.up || "";
        return;
      }
      const d = Math.floor(left / 86400), h = Math.floor((left % 86400) / 3600);
      const m = Math.floor((left % 3600) / 60), s = left % 60;
      const pad = (n) => String(n).padStart(2, "0");
      const parts = [];
      if (d) parts.push((el.dataset.days || "{n}d").replace("{n}", d));
      if (d || h) parts.push((el.dataset.hours || "{n}h").replace("{n}", h));
      parts.push(pad(m) + ":" + pad(s));
      el.textContent = (el.dataset.left || "{time}").replace("{time}", parts.join(" "));
    });
  }

  tick();
  setInterval(tick, 1000);
  document.addEventListener("htmx:afterSettle", tick);
})();
