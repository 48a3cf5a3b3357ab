// Sign-up proposes the browser's time zone: the select marked data-browser-zone="propose" takes
// Intl's zone when the list has it and the visitor has not picked one (the server checks it).
// A visitor not signed in is shown moments in the browser's zone (the lock-out page's "try again
// at"): the "tz" cookie carries it (durak_site.dates.ReaderTimeZone checks it).
try {
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  if (browserZone) {
    document.cookie = `tz=${browserZone}; path=/; max-age=31536000; samesite=lax`;
  }
} catch (error) {
  // no Intl: the site's zone
}
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll('select[data-browser-zone="propose"]').forEach((select) => {
    let zone = "";
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (error) {
      return;
    }
    if (!zone || select.dataset.touched) return;
    const option = Array.from(select.options).find((o) => o.value === zone);
    if (option && (select.value === "UTC" || select.value === "")) select.value = zone;
    select.addEventListener("change", () => { select.dataset.touched = "1"; });
  });
});
