/* The chat under a game's table (chat/panel.html): no inline scripts or handlers (CSP). */
(() => {
  // Keep the newest message in view after the log is swapped.
  document.addEventListener("htmx:afterSettle", () => {
    const log = document.querySelector("#chat-log ol");
    if (log) log.scrollTop = log.scrollHeight;
  });
  // Empty the box once a message went through (htmx posts the form).
  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.target;
    if (form instanceof HTMLFormElement && form.id === "chat-form" && event.detail.successful) form.reset();
  });
})();
