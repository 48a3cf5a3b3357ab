/* The game page's history (games/_history.html): open on wide screens, folded on a phone until
   the reader opens it. The table partial, history included, is swapped whenever the game
   changes (live.js, the move form): the reader's own choice and the moves marked "new" when the
   page was opened stay as they were. No inline script (CSP). */
(() => {
  const NARROW = window.matchMedia("(max-width: 47.99rem)");
  let choice = null; // open (true) or folded (false) by the reader; null: as the width says
  let firstNew = null; // the seqs marked new when the page was opened

  function history() {
    return document.getElementById("history");
  }

  function settle() {
    const details = history();
    if (!details) return;
    const open = choice === null ? !NARROW.matches : choice;
    if (details.open !== open) details.open = open;
    const entries = details.querySelectorAll(".history-entry[data-seq]");
    if (firstNew === null) {
      firstNew = new Set();
      entries.forEach((entry) => {
        if (entry.classList.contains("new")) firstNew.add(entry.dataset.seq);
      });
      return;
    }
    entries.forEach((entry) => {
      if (!firstNew.has(entry.dataset.seq)) return;
      entry.classList.add("new");
      const mark = entry.querySelector(".new-mark");
      if (mark) mark.hidden = false;
    });
  }

  document.addEventListener("click", (event) => {
    const summary = event.target.closest("#history > summary");
    if (summary) choice = !summary.parentElement.open;
  });
  NARROW.addEventListener("change", settle);
  document.addEventListener("htmx:afterSettle", settle);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", settle);
  else settle();
})();
