/* The game page's history (games/_history.html): open on wide screens, folded on a phone until
   the reader opens it. The table partial, history included, is swapped whenever the game
   changes (live.js, the move form): the reader's own choice stays as it was, and so does every
   "new" mark this page was shown (when it opened, or a table swapped in while it was hidden); a
   move that arrives while the page is on the screen is seen live, and the server marks it not.
   No inline script (CSP). */
(() => {
  const NARROW = window.matchMedia("(max-width: 47.99rem)");
  let choice = null; // open (true) or folded (false) by the reader; null: as the width says
  const marked = new Set(); // the seqs this page has shown marked new

  function history() {
    return document.getElementById("history");
  }

  function settle() {
    const details = history();
    if (!details) return;
    const open = choice === null ? !NARROW.matches : choice;
    if (details.open !== open) details.open = open;
    const entries = details.querySelectorAll(".history-entry[data-seq]");
    entries.forEach((entry) => {
      if (entry.classList.contains("new")) marked.add(entry.dataset.seq);
    });
    entries.forEach((entry) => {
      if (!marked.has(entry.dataset.seq)) return;
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
