/* Registers the site's service worker (/sw.js: notifications/static/notifications/sw.js) on
   every page. It keeps the player's own tables to show them, read-only, when the network is gone,
   and /offline/ for any other page (durak_site/offline.py says what it may keep and for whom).
   No inline script (CSP). */
(() => {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => undefined);
  });
})();
