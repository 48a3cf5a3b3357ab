/* Site-wide behaviour, loaded in <head> without defer: it must mark <html> as "js" before the
   first paint, so controls meant for browsers without JavaScript never flash. Everything else
   waits for the document. */
document.documentElement.classList.replace("no-js", "js");

/* Flash messages ("You took a seat.") are read once, by the page they arrive on; a live page
   never loads again, so each gets a dismiss button, and once the game table changes (a poll, a
   live event or a move swapped it) the messages of the page as it loaded go away. */
(function () {
  function forget(item) {
    const list = item.closest(".messages");
    item.remove();
    if (list && !list.querySelector("li")) list.remove();
  }
  function addButtons() {
    document.querySelectorAll(".messages").forEach((list) => {
      list.querySelectorAll("li").forEach((item) => {
        if (item.querySelector(".dismiss")) return;
        const button = document.createElement("button");
        button.type = "button";
        button.className = "dismiss";
        button.textContent = "×";
        button.setAttribute("aria-label", list.dataset.dismiss || "Dismiss");
        button.title = list.dataset.dismiss || "Dismiss";
        item.appendChild(button);
      });
    });
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest(".messages .dismiss");
    if (button) forget(button.closest("li"));
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    const target = event.detail && event.detail.target;
    if (target && (target.id === "table" || (target.closest && target.closest("#table")))) {
      document.querySelectorAll(".messages li").forEach(forget);
    }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", addButtons);
  else addButtons();
})();
