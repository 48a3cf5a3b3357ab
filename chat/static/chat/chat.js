/* The chat under a game's table (chat/panel.html): no inline scripts or handlers (CSP). */
(() => {
  // Keep the newest message in view after the log is swapped.
  document.addEventListener("htmx:afterSettle", () => {
    const log = document.querySelector("#chat-log ol");
    if (log) log.scrollTop = log.scrollHeight;
  });
  // Once a message went through (htmx posts the form): empty the box and take away an earlier
  // refusal. A refusal (a 4xx, which the site's htmx-config swaps) answers the form itself, with
  // the unsent text, so only a 2xx resets it.
  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.target;
    const xhr = event.detail.xhr;
    if (!(form instanceof HTMLFormElement) || form.id !== "chat-form" || !xhr) return;
    if (xhr.status >= 200 && xhr.status < 300) {
      form.reset();
      form.querySelectorAll("[role=alert]").forEach((el) => el.remove());
      const box = form.querySelector("input[name=text]");
      if (box) box.removeAttribute("aria-describedby");
    }
  });
})();
