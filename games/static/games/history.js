/* The game page's history (games/_history.html): open on wide screens, folded on a phone until
   the reader opens it. The table partial, history included, is swapped whenever the game
   changes (live.js, the move form): the reader's own choice stays as it was, and so does every
   "new" mark this page was shown (when it opened, or a table swapped in while it was hidden); a
   move that arrives while the page is on the screen is seen live, and the server marks it not.
   The table brings the latest moves only; the earlier ones the reader loaded ("Earlier moves",
   games/_history_items.html) stay below them when they join up, with their own button.
   No inline script (CSP). */
(() => {
  const NARROW = window.matchMedia("(max-width: 47.99rem)");
  let choice = null; // open (true) or folded (false) by the reader; null: as the width says
  const marked = new Set(); // the seqs this page has shown marked new
  let before = null; // the history's items before a table swap

  function seqOf(item) {
    return Number(item.dataset.seq);
  }

  // Put back the earlier moves the reader loaded, if the swapped-in table's latest moves reach
  // them with no gap (more new moves than a page: the old ones are left out, the button remains).
  function keepEarlier(log) {
    const old = before;
    before = null;
    if (!old || !log) return;
    const entries = log.querySelectorAll(".history-entry[data-seq]");
    const button = log.querySelector(".history-earlier");
    if (!entries.length || !button) return;
    const first = seqOf(entries[entries.length - 1]);
    const kept = old.filter((item) => !item.dataset.seq || seqOf(item) < first);
    if (!kept.some((item) => item.dataset.seq && seqOf(item) === first - 1)) return;
    button.replaceWith(...kept);
    // htmx let go of the old button when the table was swapped: it takes it up again.
    if (window.htmx) kept.forEach((item) => window.htmx.process(item));
  }

  function history() {
    return document.getElementById("history");
  }

  function settle() {
    const details = history();
    if (!details) return;
    keepEarlier(details.querySelector(".history-log"));
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
  document.addEventListener("htmx:beforeSwap", (event) => {
    const details = history();
    if (!details || !event.detail.target.contains(details)) return;
    const log = details.querySelector(".history-log");
    before = log ? Array.from(log.children) : null;
  });
  NARROW.addEventListener("change", settle);
  document.addEventListener("htmx:afterSettle", settle);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", settle);
  else settle();
})();
